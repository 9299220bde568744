package kubeclient

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/kube-rewind/kube-rewind/pkg/api"
	apierrors "github.com/kube-rewind/kube-rewind/pkg/api/errors"
	"github.com/kube-rewind/kube-rewind/pkg/labels"
	"github.com/kube-rewind/kube-rewind/pkg/modern/conversion"
	"github.com/kube-rewind/kube-rewind/pkg/watch"
	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	apiwatch "k8s.io/apimachinery/pkg/watch"
	"k8s.io/client-go/kubernetes/fake"
	k8stesting "k8s.io/client-go/testing"
)

func pod(name string) *api.Pod {
	p := &api.Pod{Labels: map[string]string{"app": "web"}}
	p.ID = name
	p.Annotations = map[string]string{"kept": "yes"}
	p.DesiredState.Manifest = api.ContainerManifest{Version: "v1beta1", Containers: []api.Container{{Name: "web", Image: "nginx"}}}
	p.CurrentState.Status = api.PodRunning
	return p
}

// A pod written through the 2014 client arrives at today's apiserver as a
// client of today writes it: in the context's namespace, with its labels
// and annotations but none of the conversion's own, and no status, which
// is the kubelet's.
func TestAPodIsWrittenAsTodaysClientsWriteIt(t *testing.T) {
	cs := fake.NewClientset()
	c := New(cs)
	ctx := api.WithNamespace(api.NewContext(), "ns1")
	if _, err := c.CreatePod(ctx, pod("web-1")); err != nil {
		t.Fatal(err)
	}
	got, err := cs.CoreV1().Pods("ns1").Get(ctx, "web-1", metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for k := range got.Annotations {
		if strings.HasPrefix(k, conversion.LegacyAnnotationPrefix) {
			t.Errorf("the conversion's annotation %s reached the apiserver", k)
		}
	}
	if got.Annotations["kept"] != "yes" || got.Labels["app"] != "web" || len(got.Spec.Containers) != 1 || got.Spec.Containers[0].Image != "nginx" {
		t.Errorf("pod on the server %+v, want its labels, annotations and container", got)
	}
	if got.Status.Phase != "" {
		t.Errorf("a created pod carries phase %q, which is the kubelet's to set", got.Status.Phase)
	}
	back, err := c.GetPod(ctx, "web-1")
	if err != nil || back.ID != "web-1" || back.Namespace != "ns1" || back.Labels["app"] != "web" {
		t.Errorf("read back %+v, %v", back, err)
	}
	list, err := c.ListPods(ctx, labels.Set{"app": "web"}.AsSelector())
	if err != nil || len(list.Items) != 1 {
		t.Errorf("list by label: %+v, %v", list, err)
	}
}

// The modern manager's one controller write is its status: on today's
// apiserver that is a PUT of the status subresource.
func TestAControllersUpdateIsAWriteOfItsStatus(t *testing.T) {
	cs := fake.NewClientset(&v1.ReplicationController{ObjectMeta: metav1.ObjectMeta{Name: "web", Namespace: "default", ResourceVersion: "5"}})
	c := New(cs)
	ctx := api.NewDefaultContext()
	rc, err := c.GetReplicationController(ctx, "web")
	if err != nil {
		t.Fatal(err)
	}
	rc.CurrentState.Replicas = 3
	if _, err := c.UpdateReplicationController(ctx, rc); err != nil {
		t.Fatal(err)
	}
	var sub []string
	for _, a := range cs.Actions() {
		if a.GetVerb() == "update" {
			sub = append(sub, a.GetResource().Resource+"/"+a.GetSubresource())
		}
	}
	if len(sub) != 1 || sub[0] != "replicationcontrollers/status" {
		t.Errorf("updates sent %q, want one of replicationcontrollers/status", sub)
	}
}

// The controllers tell errors apart by the 2014 client's StatusError.
func TestTodaysErrorsComeBackAsThe2014ClientsErrors(t *testing.T) {
	c := New(fake.NewClientset())
	_, err := c.GetPod(api.NewDefaultContext(), "missing")
	var st *apierrors.StatusError
	if !errors.As(err, &st) || !apierrors.IsNotFound(err) {
		t.Errorf("a missing pod: %#v, want the 2014 client's NotFound", err)
	}
	if _, err := c.ListMinions(); !errors.Is(err, ErrNoMinions) {
		t.Errorf("minions: %v, want ErrNoMinions", err)
	}
}

func TestABindingBindsThePodToItsNode(t *testing.T) {
	cs := fake.NewClientset(&v1.Pod{ObjectMeta: metav1.ObjectMeta{Name: "web-1", Namespace: "default"}})
	c := New(cs)
	if err := c.CreateBinding(api.NewDefaultContext(), &api.Binding{PodID: "web-1", Host: "node-7"}); err != nil {
		t.Fatal(err)
	}
	for _, a := range cs.Actions() {
		if ca, ok := a.(k8stesting.CreateAction); ok && a.GetSubresource() == "binding" {
			b, _ := ca.GetObject().(*v1.Binding)
			if b == nil || b.Name != "web-1" || b.Target.Name != "node-7" || b.Target.Kind != "Node" {
				t.Errorf("binding sent %+v", ca.GetObject())
			}
			return
		}
	}
	t.Errorf("no binding sent: %v", cs.Actions())
}

// A watch delivers 2014 objects, turns an ERROR into the 2014 Status,
// drops what 2014 had no word for, and closes when stopped.
func TestAWatchRelaysConvertedEvents(t *testing.T) {
	cs := fake.NewClientset()
	fw := apiwatch.NewFake()
	cs.PrependWatchReactor("pods", k8stesting.DefaultWatchReactor(fw, nil))
	w, err := New(cs).WatchPods(api.NewDefaultContext(), labels.Everything(), labels.Everything(), 7)
	if err != nil {
		t.Fatal(err)
	}
	go func() {
		fw.Add(conversion.PodToV1(pod("web-1")))
		fw.Action(apiwatch.Bookmark, &v1.Pod{})
		fw.Error(&metav1.Status{Status: metav1.StatusFailure, Reason: metav1.StatusReasonExpired, Code: 410, Message: "too old"})
	}()
	next := func() watch.Event {
		select {
		case ev := <-w.ResultChan():
			return ev
		case <-time.After(time.Minute):
			t.Fatal("no event within a minute")
			return watch.Event{}
		}
	}
	if ev := next(); ev.Type != watch.Added || ev.Object.(*api.Pod).ID != "web-1" {
		t.Errorf("first event %+v, want the pod ADDED", ev)
	}
	if ev := next(); ev.Type != watch.Error || ev.Object.(*api.Status).Code != 410 {
		t.Errorf("second event %+v, want the 410 as an ERROR, the bookmark dropped", ev)
	}
	w.Stop()
	for range w.ResultChan() {
	}
}

// Today's apiserver names no pod for its client: one sent without a name
// asks for one generated from its controller's, as upstream's manager's
// do.
func TestANamelessPodIsNamedAfterItsController(t *testing.T) {
	cs := fake.NewClientset()
	p := pod("")
	p.OwnerReferences = []api.OwnerReference{{Kind: "ReplicationController", Name: "web", UID: "u1", Controller: ptr(true)}}
	if _, err := New(cs).CreatePod(api.NewDefaultContext(), p); err != nil {
		t.Fatal(err)
	}
	for _, a := range cs.Actions() {
		if ca, ok := a.(k8stesting.CreateAction); ok {
			if got := ca.GetObject().(*v1.Pod).GenerateName; got != "web-" {
				t.Errorf("generateName %q, want web-", got)
			}
			return
		}
	}
	t.Error("no create sent")
}
