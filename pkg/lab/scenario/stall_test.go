package scenario

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/kube-rewind/kube-rewind/pkg/api"
	"github.com/kube-rewind/kube-rewind/pkg/client"
	"github.com/kube-rewind/kube-rewind/pkg/lab/hollownode"
	"github.com/kube-rewind/kube-rewind/pkg/lab/stack"
)

// A wait for running pods that times out on our stack says where the
// pods stood for the apiserver and for the hollow nodes, so that a stall
// names its stage.
func TestAStalledWaitSaysWhereThePodsStood(t *testing.T) {
	h := hollownode.New(&client.Fake{}, hollownode.Config{Nodes: 2})
	admin := httptest.NewServer(h.AdminHandler())
	defer admin.Close()
	pod := func(host string, status api.PodStatus) api.Pod {
		return api.Pod{DesiredState: api.PodState{Host: host}, CurrentState: api.PodState{Status: status}}
	}
	e := &Env{
		Stack: &stack.Stack{HollowURL: admin.URL},
		Client: &client.Fake{Pods: api.PodList{Items: []api.Pod{
			pod("", ""), pod("", api.PodWaiting),
			pod("hollow-node-0", api.PodWaiting),
			pod("hollow-node-1", api.PodRunning), pod("hollow-node-0", api.PodRunning), pod("hollow-node-1", api.PodRunning),
			pod("hollow-node-1", api.PodTerminated),
		}}},
	}
	got := e.whereThePodsStand(context.Background())
	for _, want := range []string{
		"the apiserver lists 7 pods: 2 unbound, 1 bound and waiting, 3 running, 1 terminated",
		"the hollow nodes know 0 pods and have bound 0, started 0",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("the stall says %q; want it to say %q", got, want)
		}
	}

	// Hollow nodes that cannot be read are said to be so.
	e.Stack.HollowURL = admin.URL + "/gone"
	if got := e.whereThePodsStand(context.Background()); !strings.Contains(got, "the hollow nodes' state could not be read") {
		t.Errorf("with the hollow nodes unreadable the stall says %q", got)
	}

	// Today's stack has neither: nothing is added.
	if got := (&Env{}).whereThePodsStand(context.Background()); got != "" {
		t.Errorf("on today's stack the stall says %q; want nothing", got)
	}
}

// A reader of the log that stopped says why, in the stall's message.
func TestAStalledWaitSaysWhetherTheReaderStopped(t *testing.T) {
	stopped := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "walpods: etcd could not apply entry 12", http.StatusServiceUnavailable)
	}))
	defer stopped.Close()
	reading := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.Write([]byte("ok")) }))
	defer reading.Close()
	if got := readerHealth(context.Background(), stopped.URL); got != "has stopped: walpods: etcd could not apply entry 12" {
		t.Errorf("a stopped reader: %q", got)
	}
	if got := readerHealth(context.Background(), reading.URL); got != "reads on" {
		t.Errorf("a reader that reads on: %q", got)
	}
}
