package scenario

import (
	"context"
	"strings"
	"testing"

	v1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/kubernetes/fake"
	k8stesting "k8s.io/client-go/testing"
)

const testRun = "scale-up-1"

// fakeCluster is a clientset whose garbage collector deletes a deleted
// controller's pods (those its selector matches), as a real cluster's
// does for a deletion propagated in the background.
func fakeCluster(objects ...runtime.Object) *fake.Clientset {
	c := fake.NewSimpleClientset(objects...)
	c.PrependReactor("delete", "replicationcontrollers", func(a k8stesting.Action) (bool, runtime.Object, error) {
		name := a.(k8stesting.DeleteAction).GetName()
		rc, err := c.Tracker().Get(v1.SchemeGroupVersion.WithResource("replicationcontrollers"), a.GetNamespace(), name)
		if err != nil {
			return false, nil, nil
		}
		sel := labels.SelectorFromSet(rc.(*v1.ReplicationController).Spec.Selector)
		pods, _ := c.Tracker().List(v1.SchemeGroupVersion.WithResource("pods"), v1.SchemeGroupVersion.WithKind("Pod"), a.GetNamespace())
		for _, p := range pods.(*v1.PodList).Items {
			if sel.Matches(labels.Set(p.Labels)) {
				c.Tracker().Delete(v1.SchemeGroupVersion.WithResource("pods"), p.Namespace, p.Name)
			}
		}
		return false, nil, nil
	})
	return c
}

func rcIn(ns, name string, l map[string]string) *v1.ReplicationController {
	return &v1.ReplicationController{ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: ns, Labels: l},
		Spec: v1.ReplicationControllerSpec{Selector: map[string]string{"app": name}}}
}

func podIn(ns, name, app string, l map[string]string) *v1.Pod {
	all := map[string]string{"app": app}
	for k, v := range l {
		all[k] = v
	}
	return &v1.Pod{ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: ns, Labels: all}}
}

func nsObject(name string) *v1.Namespace {
	return &v1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: name}}
}

// writes returns the actions of c that change something.
func writes(c *fake.Clientset) []string {
	var out []string
	for _, a := range c.Actions() {
		switch a.GetVerb() {
		case "get", "list", "watch":
		default:
			out = append(out, a.GetVerb()+" "+a.GetResource().Resource)
		}
	}
	return out
}

// TestARunCreatesItsNamespaceAndDeletesItAfter: a namespace that does not
// exist is created, labelled with the run, and deleted with the run's
// controller and pods when the run ends.
func TestARunCreatesItsNamespaceAndDeletesItAfter(t *testing.T) {
	ctx := context.Background()
	c := fakeCluster()
	created, err := ClaimNamespace(ctx, c, "bench", testRun)
	if err != nil || !created {
		t.Fatalf("claiming a namespace that does not exist: created %v, %v", created, err)
	}
	ns, err := c.CoreV1().Namespaces().Get(ctx, "bench", metav1.GetOptions{})
	if err != nil || ns.Labels[RunLabel] != testRun || ns.Labels[CreatedByLabel] != CreatedBy {
		t.Fatalf("the namespace is not labelled as the run's: %v %v", ns, err)
	}
	mine := map[string]string{RunLabel: testRun}
	c.Tracker().Add(rcIn("bench", "web", mine))
	c.Tracker().Add(podIn("bench", "web-1", "web", mine))
	if err := ReleaseNamespace(ctx, c, "bench", testRun, created); err != nil {
		t.Fatal(err)
	}
	if _, err := c.CoreV1().Namespaces().Get(ctx, "bench", metav1.GetOptions{}); !apierrors.IsNotFound(err) {
		t.Errorf("the run's own namespace is still there after it: %v", err)
	}
}

// TestARunRefusesANamespaceHoldingWhatItDidNotCreate: a namespace with a
// controller, a pod or a service in it is refused, each named, and
// nothing is written to the cluster.
func TestARunRefusesANamespaceHoldingWhatItDidNotCreate(t *testing.T) {
	for _, obj := range []runtime.Object{
		rcIn("shop", "db", nil),
		podIn("shop", "db-0", "db", nil),
		&v1.Service{ObjectMeta: metav1.ObjectMeta{Name: "frontend", Namespace: "shop"}},
	} {
		c := fakeCluster(nsObject("shop"), obj)
		_, err := ClaimNamespace(context.Background(), c, "shop", testRun)
		name := obj.(metav1.Object).GetName()
		if err == nil || !strings.Contains(err.Error(), name) || !strings.Contains(err.Error(), "-namespace") {
			t.Errorf("a namespace holding %s: %v, want a refusal naming it and saying how to give another", name, err)
		}
		if w := writes(c); len(w) > 0 {
			t.Errorf("refusing a namespace holding %s wrote to the cluster: %v", name, w)
		}
	}
	// An empty namespace someone made for the benchmark is taken, and
	// kept after the run.
	c := fakeCluster(nsObject("empty"))
	created, err := ClaimNamespace(context.Background(), c, "empty", testRun)
	if err != nil || created {
		t.Fatalf("an empty namespace: created %v, %v; want it used as it is", created, err)
	}
	if err := ReleaseNamespace(context.Background(), c, "empty", testRun, created); err != nil {
		t.Fatal(err)
	}
	if _, err := c.CoreV1().Namespaces().Get(context.Background(), "empty", metav1.GetOptions{}); err != nil {
		t.Errorf("a namespace the run did not create was deleted: %v", err)
	}
}

// TestARunDeletesOnlyWhatItCreated: what someone else put into the run's
// namespace during the run stays, and so does the namespace; only the
// run's controller and its pods go.
func TestARunDeletesOnlyWhatItCreated(t *testing.T) {
	ctx := context.Background()
	c := fakeCluster()
	created, err := ClaimNamespace(ctx, c, "bench", testRun)
	if err != nil {
		t.Fatal(err)
	}
	mine := map[string]string{RunLabel: testRun}
	c.Tracker().Add(rcIn("bench", "web", mine))
	c.Tracker().Add(podIn("bench", "web-1", "web", mine))
	// Another run's, and someone's without a label.
	c.Tracker().Add(rcIn("bench", "other-run", map[string]string{RunLabel: "idle-2"}))
	c.Tracker().Add(podIn("bench", "intruder", "intruder", nil))

	err = ReleaseNamespace(ctx, c, "bench", testRun, created)
	if err == nil || !strings.Contains(err.Error(), "left in place") {
		t.Errorf("releasing a namespace others put objects in: %v, want it left in place and said so", err)
	}
	if _, err := c.CoreV1().ReplicationControllers("bench").Get(ctx, "web", metav1.GetOptions{}); !apierrors.IsNotFound(err) {
		t.Errorf("the run's controller is still there: %v", err)
	}
	if _, err := c.CoreV1().Pods("bench").Get(ctx, "web-1", metav1.GetOptions{}); !apierrors.IsNotFound(err) {
		t.Errorf("the run's pod is still there: %v", err)
	}
	if _, err := c.CoreV1().ReplicationControllers("bench").Get(ctx, "other-run", metav1.GetOptions{}); err != nil {
		t.Errorf("another run's controller was deleted: %v", err)
	}
	if _, err := c.CoreV1().Pods("bench").Get(ctx, "intruder", metav1.GetOptions{}); err != nil {
		t.Errorf("a pod the run did not create was deleted: %v", err)
	}
	if _, err := c.CoreV1().Namespaces().Get(ctx, "bench", metav1.GetOptions{}); err != nil {
		t.Errorf("the namespace was deleted with others' objects in it: %v", err)
	}
}

// TestAControllerOnAnExternalClusterCarriesTheRun: the controller and,
// through its template, its pods carry the run's label, which is all
// ReleaseNamespace deletes by.
func TestAControllerOnAnExternalClusterCarriesTheRun(t *testing.T) {
	c := fakeCluster(nsObject("bench"))
	x := &externalCluster{todayCluster: todayCluster{c: c, ns: "bench"}, run: testRun}
	if err := x.CreateController(context.Background(), Controller("web", 3, map[string]string{"app": "web"}, nil)); err != nil {
		t.Fatal(err)
	}
	rc, err := c.CoreV1().ReplicationControllers("bench").Get(context.Background(), "web", metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if rc.Labels[RunLabel] != testRun || rc.Spec.Template == nil || rc.Spec.Template.Labels[RunLabel] != testRun {
		t.Errorf("the controller or its template lacks the run's label: %v, template %v", rc.Labels, rc.Spec.Template)
	}
	for k, v := range rc.Spec.Selector {
		if rc.Spec.Template.Labels[k] != v {
			t.Errorf("the template no longer matches the selector %v: %v", rc.Spec.Selector, rc.Spec.Template.Labels)
		}
	}
}

// TestAnExternalRunLeavesOutWhatItCannotMeasure: the managers', KWOK's
// and the scheduler's figures are left out, not given as zero.
func TestAnExternalRunLeavesOutWhatItCannotMeasure(t *testing.T) {
	rs := []Result{
		{Name: "time_to_running", Value: 3},
		{Name: "pod_creates", Process: "controller-manager"},
		{Name: "apiserver_cpu", Process: "apiserver", Value: 1},
		{Name: "kwok_cpu", Process: "kwok"},
		{Name: "scheduler_cpu", Process: "kube-scheduler"},
	}
	got := ResultMap((&Env{Variant: External}).forExternal(rs))
	if len(got) != 2 || got["time_to_running"] != 3 || got["apiserver_cpu"] != 1 {
		t.Errorf("an external run's figures: %v, want time_to_running and apiserver_cpu alone", got)
	}
	if n := len((&Env{Variant: StackTodayDefaults}).forExternal(rs)); n != len(rs) {
		t.Errorf("stack-today's figures were cut to %d", n)
	}
}
