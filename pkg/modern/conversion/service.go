package conversion

// Services and endpoints. A 2014 service had one port, a selector and a
// containerPort; an Endpoints object was a flat list of "ip:port" strings.
// v1 gives a service a list of ports and groups endpoint addresses into
// subsets by port.

import (
	"net"
	"sort"
	"strconv"

	"github.com/kube-rewind/kube-rewind/pkg/api"
	v1 "k8s.io/api/core/v1"
)

// ServiceToV1 converts a 2014 service: its one port becomes the only entry
// of spec.ports, with containerPort as the target port.
func ServiceToV1(in *api.Service) *v1.Service {
	out := &v1.Service{
		ObjectMeta: objectMetaToV1(&in.TypeMeta, in.Labels),
		Spec: v1.ServiceSpec{
			Selector: copyMap(in.Selector),
			Ports: []v1.ServicePort{{
				Port:       int32(in.Port),
				Protocol:   v1.Protocol(in.Protocol),
				TargetPort: intOrStringToV1(in.ContainerPort),
			}},
			Type: v1.ServiceTypeClusterIP,
		},
	}
	if in.CreateExternalLoadBalancer {
		out.Spec.Type = v1.ServiceTypeLoadBalancer
	}
	return out
}

// ServiceFromV1 converts a v1 service back; ports past the first are
// dropped, as 2014 had none.
func ServiceFromV1(in *v1.Service) *api.Service {
	out := &api.Service{}
	out.Labels = objectMetaFromV1(&in.ObjectMeta, &out.TypeMeta)
	out.Selector = copyMap(in.Spec.Selector)
	out.CreateExternalLoadBalancer = in.Spec.Type == v1.ServiceTypeLoadBalancer
	if len(in.Spec.Ports) > 0 {
		p := in.Spec.Ports[0]
		out.Port = int(p.Port)
		out.Protocol = api.Protocol(p.Protocol)
		out.ContainerPort = intOrStringFromV1(p.TargetPort)
	}
	return out
}

// EndpointsToV1 converts a 2014 endpoints list: addresses are grouped into
// one subset per port, ports and addresses in order. An entry that is not
// ip:port (nothing the controllers write) becomes an address of a subset
// without ports, so that it survives the way back.
func EndpointsToV1(in *api.Endpoints) *v1.Endpoints {
	out := &v1.Endpoints{ObjectMeta: objectMetaToV1(&in.TypeMeta, nil)}
	byPort := map[int]*v1.EndpointSubset{}
	var ports []int
	for _, ep := range in.Endpoints {
		port := -1
		ip := ep
		if host, p, err := net.SplitHostPort(ep); err == nil {
			if n, err := strconv.Atoi(p); err == nil {
				ip, port = host, n
			}
		}
		subset, ok := byPort[port]
		if !ok {
			subset = &v1.EndpointSubset{}
			if port >= 0 {
				subset.Ports = []v1.EndpointPort{{Port: int32(port)}}
			}
			byPort[port] = subset
			ports = append(ports, port)
		}
		subset.Addresses = append(subset.Addresses, v1.EndpointAddress{IP: ip})
	}
	sort.Ints(ports)
	for _, port := range ports {
		subset := byPort[port]
		sort.Slice(subset.Addresses, func(i, j int) bool { return subset.Addresses[i].IP < subset.Addresses[j].IP })
		out.Subsets = append(out.Subsets, *subset)
	}
	return out
}

// EndpointsFromV1 converts v1 endpoints back to "ip:port" strings, one per
// address and port.
func EndpointsFromV1(in *v1.Endpoints) *api.Endpoints {
	out := &api.Endpoints{}
	objectMetaFromV1(&in.ObjectMeta, &out.TypeMeta)
	for _, subset := range in.Subsets {
		for _, addr := range subset.Addresses {
			if len(subset.Ports) == 0 {
				out.Endpoints = append(out.Endpoints, addr.IP)
				continue
			}
			for _, port := range subset.Ports {
				out.Endpoints = append(out.Endpoints, net.JoinHostPort(addr.IP, strconv.Itoa(int(port.Port))))
			}
		}
	}
	return out
}
