package kubeclient

import (
	"errors"
	"fmt"
	"strings"
	"sync"

	"github.com/kube-rewind/kube-rewind/pkg/api"
	apierrors "github.com/kube-rewind/kube-rewind/pkg/api/errors"
	"github.com/kube-rewind/kube-rewind/pkg/client"
	"github.com/kube-rewind/kube-rewind/pkg/labels"
	"github.com/kube-rewind/kube-rewind/pkg/modern/conversion"
	"github.com/kube-rewind/kube-rewind/pkg/watch"
	v1 "k8s.io/api/core/v1"
	k8serrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	apiwatch "k8s.io/apimachinery/pkg/watch"
	"k8s.io/client-go/kubernetes"
)

// Client is client.Interface over a clientset.
type Client struct {
	cs kubernetes.Interface
}

var _ client.Interface = (*Client)(nil)

// New returns the 2014 client over cs.
func New(cs kubernetes.Interface) *Client { return &Client{cs: cs} }

// ErrNoMinions is what the minion calls return: today's nodes are KWOK's
// or the kubelets' to register, and no controller of ours lists them.
var ErrNoMinions = fmt.Errorf("kubeclient: minions are not served over client-go; today's nodes register themselves")

// ns is the namespace a call's context names, v0.4's default if none.
func ns(ctx api.Context) string {
	if n := api.NamespaceValue(ctx); n != "" {
		return n
	}
	return api.NamespaceDefault
}

// err turns client-go's status errors into the 2014 client's
// (pkg/api/errors.StatusError), which the controllers tell apart (not
// found, conflict, already exists) and conversion.Error turns back where
// client-go must read them; the reasons are spelled alike in both.
func err(e error) error {
	var st k8serrors.APIStatus
	if !errors.As(e, &st) {
		return e
	}
	return &apierrors.StatusError{ErrStatus: *statusFromV1(ptr(st.Status()))}
}

func ptr[T any](v T) *T { return &v }

func listOptions(label, field labels.Selector, rv uint64) metav1.ListOptions {
	o := metav1.ListOptions{ResourceVersion: conversion.ResourceVersionToV1(rv)}
	if label != nil && !label.Empty() {
		o.LabelSelector = label.String()
	}
	if field != nil && !field.Empty() {
		o.FieldSelector = field.String()
	}
	return o
}

// toServer strips what the conversion writes for its own round trips, and
// what a server sets, from an object about to be written.
func toServer(m *metav1.ObjectMeta) {
	for k := range m.Annotations {
		if strings.HasPrefix(k, conversion.LegacyAnnotationPrefix) {
			delete(m.Annotations, k)
		}
	}
	if len(m.Annotations) == 0 {
		m.Annotations = nil
	}
	m.SelfLink = ""
}

// Pods.

func (c *Client) ListPods(ctx api.Context, selector labels.Selector) (*api.PodList, error) {
	l, e := c.cs.CoreV1().Pods(ns(ctx)).List(ctx, listOptions(selector, nil, 0))
	if e != nil {
		return nil, err(e)
	}
	out := &api.PodList{}
	out.ResourceVersion = conversion.ResourceVersionFromV1(l.ResourceVersion)
	for i := range l.Items {
		out.Items = append(out.Items, *conversion.PodFromV1(&l.Items[i]))
	}
	return out, nil
}

func (c *Client) GetPod(ctx api.Context, id string) (*api.Pod, error) {
	p, e := c.cs.CoreV1().Pods(ns(ctx)).Get(ctx, id, metav1.GetOptions{})
	if e != nil {
		return nil, err(e)
	}
	return conversion.PodFromV1(p), nil
}

func (c *Client) DeletePod(ctx api.Context, id string) error {
	return err(c.cs.CoreV1().Pods(ns(ctx)).Delete(ctx, id, metav1.DeleteOptions{}))
}

// podToServer is the v1 pod of a 2014 one, as a client of today sends it:
// its status is the kubelet's to write.
func podToServer(pod *api.Pod) *v1.Pod {
	p := conversion.PodToV1(pod)
	toServer(&p.ObjectMeta)
	p.Status = v1.PodStatus{}
	return p
}

// CreatePod creates pod.
//
// Ours: v0.4's apiserver named a pod it was sent without an id, and our
// managers send theirs so; today's refuses a pod with neither a name nor
// a generateName. A nameless pod here asks for a name generated from its
// controller's, "<controller>-" and five characters, as upstream's
// manager asks for one (or "pod-" for a pod no controller owns).
func (c *Client) CreatePod(ctx api.Context, pod *api.Pod) (*api.Pod, error) {
	p := podToServer(pod)
	p.ResourceVersion = ""
	if p.Name == "" && p.GenerateName == "" {
		p.GenerateName = "pod-"
		if ref := metav1.GetControllerOf(p); ref != nil {
			p.GenerateName = ref.Name + "-"
		}
	}
	got, e := c.cs.CoreV1().Pods(ns(ctx)).Create(ctx, p, metav1.CreateOptions{})
	if e != nil {
		return nil, err(e)
	}
	return conversion.PodFromV1(got), nil
}

func (c *Client) UpdatePod(ctx api.Context, pod *api.Pod) (*api.Pod, error) {
	got, e := c.cs.CoreV1().Pods(ns(ctx)).Update(ctx, podToServer(pod), metav1.UpdateOptions{})
	if e != nil {
		return nil, err(e)
	}
	return conversion.PodFromV1(got), nil
}

func (c *Client) WatchPods(ctx api.Context, label, field labels.Selector, rv uint64) (watch.Interface, error) {
	w, e := c.cs.CoreV1().Pods(ns(ctx)).Watch(ctx, listOptions(label, field, rv))
	if e != nil {
		return nil, err(e)
	}
	return relay(w, func(o runtime.Object) (api.Object, bool) {
		p, ok := o.(*v1.Pod)
		if !ok {
			return nil, false
		}
		return conversion.PodFromV1(p), true
	}), nil
}

func (c *Client) CreateBinding(ctx api.Context, b *api.Binding) error {
	return err(c.cs.CoreV1().Pods(ns(ctx)).Bind(ctx, &v1.Binding{
		ObjectMeta: metav1.ObjectMeta{Name: b.PodID, Namespace: ns(ctx)},
		Target:     v1.ObjectReference{Kind: "Node", Name: b.Host},
	}, metav1.CreateOptions{}))
}

// Replication controllers.

func (c *Client) ListReplicationControllers(ctx api.Context, selector labels.Selector) (*api.ReplicationControllerList, error) {
	l, e := c.cs.CoreV1().ReplicationControllers(ns(ctx)).List(ctx, listOptions(selector, nil, 0))
	if e != nil {
		return nil, err(e)
	}
	out := &api.ReplicationControllerList{}
	out.ResourceVersion = conversion.ResourceVersionFromV1(l.ResourceVersion)
	for i := range l.Items {
		out.Items = append(out.Items, *conversion.ReplicationControllerFromV1(&l.Items[i]))
	}
	return out, nil
}

func (c *Client) GetReplicationController(ctx api.Context, id string) (*api.ReplicationController, error) {
	rc, e := c.cs.CoreV1().ReplicationControllers(ns(ctx)).Get(ctx, id, metav1.GetOptions{})
	if e != nil {
		return nil, err(e)
	}
	return conversion.ReplicationControllerFromV1(rc), nil
}

func controllerToServer(ctrl *api.ReplicationController) *v1.ReplicationController {
	rc := conversion.ReplicationControllerToV1(ctrl)
	toServer(&rc.ObjectMeta)
	if rc.Spec.Template != nil {
		toServer(&rc.Spec.Template.ObjectMeta)
	}
	return rc
}

func (c *Client) CreateReplicationController(ctx api.Context, ctrl *api.ReplicationController) (*api.ReplicationController, error) {
	rc := controllerToServer(ctrl)
	rc.ResourceVersion = ""
	got, e := c.cs.CoreV1().ReplicationControllers(ns(ctx)).Create(ctx, rc, metav1.CreateOptions{})
	if e != nil {
		return nil, err(e)
	}
	return conversion.ReplicationControllerFromV1(got), nil
}

// UpdateReplicationController writes the controller's status.
//
// Ours: v0.4 wrote a controller whole, and our apiserver still does;
// today's ignores the status in a PUT of the controller and everything
// but the status in a PUT of its status subresource. The one caller of
// this method among our modern controllers is the replication manager's
// status write, so here it is a PUT of the status, as upstream's manager
// sends it; a change of spec sent through it would be dropped.
func (c *Client) UpdateReplicationController(ctx api.Context, ctrl *api.ReplicationController) (*api.ReplicationController, error) {
	got, e := c.cs.CoreV1().ReplicationControllers(ns(ctx)).UpdateStatus(ctx, controllerToServer(ctrl), metav1.UpdateOptions{})
	if e != nil {
		return nil, err(e)
	}
	return conversion.ReplicationControllerFromV1(got), nil
}

func (c *Client) DeleteReplicationController(ctx api.Context, id string) error {
	return err(c.cs.CoreV1().ReplicationControllers(ns(ctx)).Delete(ctx, id, metav1.DeleteOptions{}))
}

func (c *Client) WatchReplicationControllers(ctx api.Context, label, field labels.Selector, rv uint64) (watch.Interface, error) {
	w, e := c.cs.CoreV1().ReplicationControllers(ns(ctx)).Watch(ctx, listOptions(label, field, rv))
	if e != nil {
		return nil, err(e)
	}
	return relay(w, func(o runtime.Object) (api.Object, bool) {
		rc, ok := o.(*v1.ReplicationController)
		if !ok {
			return nil, false
		}
		return conversion.ReplicationControllerFromV1(rc), true
	}), nil
}

// Services.

func (c *Client) ListServices(ctx api.Context, selector labels.Selector) (*api.ServiceList, error) {
	l, e := c.cs.CoreV1().Services(ns(ctx)).List(ctx, listOptions(selector, nil, 0))
	if e != nil {
		return nil, err(e)
	}
	out := &api.ServiceList{}
	out.ResourceVersion = conversion.ResourceVersionFromV1(l.ResourceVersion)
	for i := range l.Items {
		out.Items = append(out.Items, *conversion.ServiceFromV1(&l.Items[i]))
	}
	return out, nil
}

func (c *Client) GetService(ctx api.Context, id string) (*api.Service, error) {
	s, e := c.cs.CoreV1().Services(ns(ctx)).Get(ctx, id, metav1.GetOptions{})
	if e != nil {
		return nil, err(e)
	}
	return conversion.ServiceFromV1(s), nil
}

func serviceToServer(srv *api.Service) *v1.Service {
	s := conversion.ServiceToV1(srv)
	toServer(&s.ObjectMeta)
	return s
}

func (c *Client) CreateService(ctx api.Context, srv *api.Service) (*api.Service, error) {
	s := serviceToServer(srv)
	s.ResourceVersion = ""
	got, e := c.cs.CoreV1().Services(ns(ctx)).Create(ctx, s, metav1.CreateOptions{})
	if e != nil {
		return nil, err(e)
	}
	return conversion.ServiceFromV1(got), nil
}

func (c *Client) UpdateService(ctx api.Context, srv *api.Service) (*api.Service, error) {
	got, e := c.cs.CoreV1().Services(ns(ctx)).Update(ctx, serviceToServer(srv), metav1.UpdateOptions{})
	if e != nil {
		return nil, err(e)
	}
	return conversion.ServiceFromV1(got), nil
}

func (c *Client) DeleteService(ctx api.Context, id string) error {
	return err(c.cs.CoreV1().Services(ns(ctx)).Delete(ctx, id, metav1.DeleteOptions{}))
}

func (c *Client) WatchServices(ctx api.Context, label, field labels.Selector, rv uint64) (watch.Interface, error) {
	w, e := c.cs.CoreV1().Services(ns(ctx)).Watch(ctx, listOptions(label, field, rv))
	if e != nil {
		return nil, err(e)
	}
	return relay(w, func(o runtime.Object) (api.Object, bool) {
		s, ok := o.(*v1.Service)
		if !ok {
			return nil, false
		}
		return conversion.ServiceFromV1(s), true
	}), nil
}

// Endpoints.

func (c *Client) ListEndpoints(ctx api.Context, selector labels.Selector) (*api.EndpointsList, error) {
	l, e := c.cs.CoreV1().Endpoints(ns(ctx)).List(ctx, listOptions(selector, nil, 0))
	if e != nil {
		return nil, err(e)
	}
	out := &api.EndpointsList{}
	out.ResourceVersion = conversion.ResourceVersionFromV1(l.ResourceVersion)
	for i := range l.Items {
		out.Items = append(out.Items, *conversion.EndpointsFromV1(&l.Items[i]))
	}
	return out, nil
}

func (c *Client) GetEndpoints(ctx api.Context, id string) (*api.Endpoints, error) {
	ep, e := c.cs.CoreV1().Endpoints(ns(ctx)).Get(ctx, id, metav1.GetOptions{})
	if e != nil {
		return nil, err(e)
	}
	return conversion.EndpointsFromV1(ep), nil
}

func (c *Client) WatchEndpoints(ctx api.Context, label, field labels.Selector, rv uint64) (watch.Interface, error) {
	w, e := c.cs.CoreV1().Endpoints(ns(ctx)).Watch(ctx, listOptions(label, field, rv))
	if e != nil {
		return nil, err(e)
	}
	return relay(w, func(o runtime.Object) (api.Object, bool) {
		ep, ok := o.(*v1.Endpoints)
		if !ok {
			return nil, false
		}
		return conversion.EndpointsFromV1(ep), true
	}), nil
}

func endpointsToServer(ep *api.Endpoints) *v1.Endpoints {
	out := conversion.EndpointsToV1(ep)
	toServer(&out.ObjectMeta)
	return out
}

func (c *Client) CreateEndpoints(ctx api.Context, ep *api.Endpoints) (*api.Endpoints, error) {
	out := endpointsToServer(ep)
	out.ResourceVersion = ""
	got, e := c.cs.CoreV1().Endpoints(ns(ctx)).Create(ctx, out, metav1.CreateOptions{})
	if e != nil {
		return nil, err(e)
	}
	return conversion.EndpointsFromV1(got), nil
}

func (c *Client) UpdateEndpoints(ctx api.Context, ep *api.Endpoints) (*api.Endpoints, error) {
	got, e := c.cs.CoreV1().Endpoints(ns(ctx)).Update(ctx, endpointsToServer(ep), metav1.UpdateOptions{})
	if e != nil {
		return nil, err(e)
	}
	return conversion.EndpointsFromV1(got), nil
}

// The server.

func (c *Client) ServerVersion() (*client.VersionInfo, error) {
	v, e := c.cs.Discovery().ServerVersion()
	if e != nil {
		return nil, err(e)
	}
	return &client.VersionInfo{Major: v.Major, Minor: v.Minor, GitVersion: v.GitVersion, GitCommit: v.GitCommit, GitTreeState: v.GitTreeState}, nil
}

func (c *Client) ListMinions() (*api.MinionList, error)         { return nil, ErrNoMinions }
func (c *Client) CreateMinion(*api.Minion) (*api.Minion, error) { return nil, ErrNoMinions }
func (c *Client) DeleteMinion(string) error                     { return ErrNoMinions }

// relay turns a v1 watch into a 2014 one: each object converted, an
// ERROR's Status converted to the 2014 Status, anything else dropped.
func relay(in apiwatch.Interface, convert func(runtime.Object) (api.Object, bool)) watch.Interface {
	out := &relayed{in: in, out: make(chan watch.Event), stop: make(chan struct{})}
	go func() {
		defer close(out.out)
		defer in.Stop()
		for {
			var ev apiwatch.Event
			var open bool
			select {
			case <-out.stop:
				return
			case ev, open = <-in.ResultChan():
				if !open {
					return
				}
			}
			var e watch.Event
			switch ev.Type {
			case apiwatch.Added, apiwatch.Modified, apiwatch.Deleted:
				obj, ok := convert(ev.Object)
				if !ok {
					continue
				}
				e = watch.Event{Type: watch.EventType(ev.Type), Object: obj}
			case apiwatch.Error:
				e = watch.Event{Type: watch.Error, Object: statusFromV1(ev.Object)}
			default:
				// Bookmarks: the 2014 watch had none.
				continue
			}
			select {
			case out.out <- e:
			case <-out.stop:
				return
			}
		}
	}()
	return out
}

type relayed struct {
	in   apiwatch.Interface
	out  chan watch.Event
	stop chan struct{}
	once sync.Once
}

func (r *relayed) ResultChan() <-chan watch.Event { return r.out }

func (r *relayed) Stop() { r.once.Do(func() { close(r.stop) }) }

// statusFromV1 is the 2014 Status of a watch's ERROR event.
func statusFromV1(o runtime.Object) *api.Status {
	st, ok := o.(*metav1.Status)
	if !ok {
		return &api.Status{Status: api.StatusFailure, Message: fmt.Sprintf("unexpected watch error object %T", o)}
	}
	out := &api.Status{Status: st.Status, Message: st.Message, Reason: api.StatusReason(st.Reason), Code: int(st.Code)}
	if d := st.Details; d != nil {
		out.Details = &api.StatusDetails{ID: d.Name, Kind: d.Kind}
	}
	return out
}
