package today

import (
	"fmt"
	"sync"
	"testing"
	"time"

	v1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/kubernetes/fake"
	k8stesting "k8s.io/client-go/testing"
)

// TestTheBinderBindsEveryPodOnceSpreadOverTheNodes: the direct-binding
// ablation's stand-in for kube-scheduler binds each unbound pod once, to
// the node with the fewest, so 30 pods on 3 nodes go 10 to each; a pod
// another binder bound first (a conflict) is not bound again, and a bind
// the apiserver fails is tried again.
func TestTheBinderBindsEveryPodOnceSpreadOverTheNodes(t *testing.T) {
	var pods []runtime.Object
	for i := 0; i < 30; i++ {
		pods = append(pods, &v1.Pod{ObjectMeta: metav1.ObjectMeta{Name: fmt.Sprintf("web-%d", i), Namespace: "default"}})
	}
	c := fake.NewSimpleClientset(pods...)
	var mu sync.Mutex
	binds := map[string]string{}
	attempts := map[string]int{}
	c.PrependReactor("create", "pods", func(a k8stesting.Action) (bool, runtime.Object, error) {
		if a.GetSubresource() != "binding" {
			return false, nil, nil
		}
		b := a.(k8stesting.CreateAction).GetObject().(*v1.Binding)
		mu.Lock()
		defer mu.Unlock()
		attempts[b.Name]++
		switch {
		case b.Name == "web-7" && attempts[b.Name] == 1:
			return true, nil, apierrors.NewInternalError(fmt.Errorf("planted"))
		case b.Name == "web-3":
			return true, nil, apierrors.NewConflict(schema.GroupResource{Resource: "pods"}, b.Name, fmt.Errorf("bound already"))
		}
		if _, twice := binds[b.Name]; twice {
			t.Errorf("pod %s bound twice", b.Name)
		}
		binds[b.Name] = b.Target.Name
		return true, nil, nil
	})
	stop, err := startBinder(c, []string{"node-0", "node-1", "node-2"})
	if err != nil {
		t.Fatal(err)
	}
	defer stop()
	deadline := time.Now().Add(time.Minute)
	for {
		mu.Lock()
		n := len(binds)
		mu.Unlock()
		if n == 29 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d of 29 pods bound", n)
		}
		time.Sleep(20 * time.Millisecond)
	}
	mu.Lock()
	defer mu.Unlock()
	per := map[string]int{}
	for _, node := range binds {
		per[node]++
	}
	// web-3's conflict counts it on its node: bound, by another.
	if per["node-0"]+per["node-1"]+per["node-2"] != 29 || max(per["node-0"], per["node-1"], per["node-2"])-min(per["node-0"], per["node-1"], per["node-2"]) > 1 {
		t.Errorf("pods per node %v, want 29 spread evenly", per)
	}
	if attempts["web-7"] != 2 || attempts["web-3"] != 1 {
		t.Errorf("web-7 tried %d times (want 2: failed, then bound), web-3 %d (want 1: a conflict is not retried)", attempts["web-7"], attempts["web-3"])
	}
}
