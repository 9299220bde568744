package today

// The meter in front of kube-apiserver: every client of the stack reaches
// the apiserver through it, and it counts each request by verb, resource
// and sending process under the names our apiserver and the original
// stack's meter use (pkg/lab/stack, meter.go), so that the sampler reads
// today's stack as it reads ours. kube-apiserver's own
// apiserver_request_total has no label for the client, which is why a
// proxy counts instead.
//
// Unlike a real cluster: every request takes one more loopback hop, over
// TLS and HTTP/2 like the direct one; the apiserver's requests to itself
// (its loopback client) do not pass the meter and are not counted, as
// ours counts no call to itself either.

import (
	"crypto/tls"
	"crypto/x509"
	"net/http"
	"strings"

	"github.com/kube-rewind/kube-rewind/pkg/lab/stack"
)

// startMeter puts a meter in front of the apiserver at direct and returns
// it; it serves the stack's certificate.
func (s *Stack) startMeter(direct string) (*stack.Meter, error) {
	cert, err := tls.LoadX509KeyPair(s.pki.servingCert, s.pki.servingKey)
	if err != nil {
		return nil, err
	}
	pool := x509.NewCertPool()
	pool.AppendCertsFromPEM(s.pki.caPEM)
	transport := &http.Transport{
		TLSClientConfig:     &tls.Config{RootCAs: pool},
		ForceAttemptHTTP2:   true,
		MaxIdleConnsPerHost: 1024,
	}
	return stack.StartMeterWith(direct, stack.MeterOptions{
		Transport: transport,
		TLS:       &tls.Config{Certificates: []tls.Certificate{cert}},
		Classify:  classifyV1,
		Component: s.componentOf,
	})
}

// v1Resources maps today's resources (with a subresource where it
// matters) to the names the laboratory counts under: v0.4's where 2014
// had the resource (a pod's binding is v0.4's bindings, a node its
// minions, a controller's status subresource its controller), today's
// own otherwise. Any other resource is counted as "other", so that no
// client can grow the meter's series.
var v1Resources = map[string]string{
	"pods": "pods", "pods/binding": "bindings", "pods/status": "pods",
	"replicationcontrollers": "replicationControllers", "replicationcontrollers/status": "replicationControllers",
	"replicationcontrollers/scale": "replicationControllers",
	"services":                     "services", "endpoints": "endpoints", "endpointslices": "endpointslices",
	"nodes": "minions", "nodes/status": "minions", "events": "events", "leases": "leases",
	"namespaces": "namespaces", "serviceaccounts": "serviceaccounts", "serviceaccounts/token": "serviceaccounts",
	"secrets": "secrets", "configmaps": "configmaps",
}

// classifyV1 names a request to kube-apiserver as our apiserver names its
// own: LIST and GET tell a collection from one object, WATCH is a GET with
// watch=true (or under watch/), PATCH is its own verb (v0.4 had none).
// Discovery (/api, /apis and their groups and versions, /openapi,
// /version) is counted too, as GETs of "discovery", each one document and
// no LIST of objects: today's clients send it (the garbage collector's
// periodic discovery, for one), and it is part of what they cost; health and metrics paths are
// not.
func classifyV1(req *http.Request) (verb, resource string, ok bool) {
	path := strings.Trim(req.URL.Path, "/")
	parts := strings.Split(path, "/")
	var rest []string
	switch {
	case len(parts) >= 2 && parts[0] == "api":
		rest = parts[2:]
	case len(parts) >= 3 && parts[0] == "apis":
		rest = parts[3:]
	case parts[0] == "api" || parts[0] == "apis" || parts[0] == "openapi" || parts[0] == "version":
		return methodVerb(req.Method, false), "discovery", true
	default:
		return "", "", false
	}
	if len(rest) == 0 {
		return methodVerb(req.Method, false), "discovery", true
	}
	watch := rest[0] == "watch"
	if watch {
		rest = rest[1:]
	}
	if q := req.URL.Query().Get("watch"); q == "true" || q == "1" {
		watch = true
	}
	// namespaces/NS/RESOURCE... is RESOURCE in a namespace; namespaces/NS
	// alone is a namespace.
	if len(rest) >= 3 && rest[0] == "namespaces" {
		rest = rest[2:]
	}
	key := rest[0]
	if len(rest) >= 3 {
		key += "/" + rest[2]
	}
	resource = v1Resources[key]
	if resource == "" {
		if resource = v1Resources[rest[0]]; resource == "" {
			resource = "other"
		}
	}
	if watch {
		return "WATCH", resource, true
	}
	return methodVerb(req.Method, len(rest) < 2), resource, true
}

// methodVerb names a request's verb by its method, a GET of a collection
// being a LIST.
func methodVerb(method string, collection bool) string {
	switch method {
	case http.MethodGet:
		if collection {
			return "LIST"
		}
		return "GET"
	case http.MethodPost, http.MethodPut, http.MethodDelete, http.MethodPatch:
		return method
	}
	return "OTHER"
}

// componentOf names the process that sent a request by its User-Agent, as
// the sampler names the processes of our stack: kube-controller-manager
// is "controller-manager", every one of its controllers (it sends
// ".../system:serviceaccount:kube-system:<controller>") with its shared
// informers, and "leader-election" the client it renews its lease with
// (".../leader-election"); the scheduler is "scheduler", its lease
// included; KWOK "kwok"; any other client the first word of its
// User-Agent, except Go's default, which the sampler takes for the
// original v0.4 manager's and which nothing of today's stack sends:
// "other".
func componentOf(userAgent string) string {
	return componentBeside(userAgent, false)
}

// componentOf is componentOf for this stack: where our managers run
// (Config.OurManager), they are "controller-manager" and
// "leader-election", and the kube-controller-manager of the other
// controllers beside them is "kube-controller-manager", leader election
// and all, counted apart.
func (s *Stack) componentOf(userAgent string) string {
	return componentBeside(userAgent, s.cfg.OurManager != "")
}

func componentBeside(userAgent string, ours bool) string {
	first, _, _ := strings.Cut(strings.TrimSpace(userAgent), " ")
	word, _, _ := strings.Cut(first, "/")
	word = strings.ToLower(word)
	switch word {
	case ControllerManager:
		if ours {
			return ControllerManager
		}
		if strings.HasSuffix(userAgent, "/leader-election") {
			return "leader-election"
		}
		return "controller-manager"
	case Scheduler:
		return "scheduler"
	case "go-http-client":
		return "other"
	}
	return word
}
