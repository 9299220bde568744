package sampler

import (
	"encoding/json"
	"net"
	"net/http"
	"net/http/httptest"
	"strconv"
	"testing"

	"github.com/kube-rewind/kube-rewind/pkg/api"
	"github.com/kube-rewind/kube-rewind/pkg/labels"
)

// TestAPodsStatusIsReadFromItsKubeletAsV04sApiserverWorkedItOut: the
// counter asks the kubelet of a waiting pod's minion, and records Running
// or Terminated as v0.4's apiserver would have answered (the network
// container not counted); a pod the kubelet has not started, or with a
// container in no known state, stays Waiting.
func TestAPodsStatusIsReadFromItsKubeletAsV04sApiserverWorkedItOut(t *testing.T) {
	running := api.ContainerStatus{State: api.ContainerState{Running: &api.ContainerStateRunning{}}}
	ended := api.ContainerStatus{State: api.ContainerState{Termination: &api.ContainerStateTerminated{ExitCode: 1}}}
	infos := map[string]api.PodInfo{
		"up":      {"net": running, "web": running},
		"crashed": {"net": running, "web": ended},
		"mixed":   {"net": running, "web": running, "sidecar": {}},
	}
	kubelet := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		info, ok := infos[r.URL.Query().Get("podID")]
		if r.URL.Path != "/podInfo" || !ok {
			http.Error(w, "Pod does not exist", http.StatusNotFound)
			return
		}
		json.NewEncoder(w).Encode(info)
	}))
	defer kubelet.Close()
	host, portText, _ := net.SplitHostPort(kubelet.Listener.Addr().String())
	port, _ := strconv.Atoi(portText)

	p := NewPodCounter(nil, labels.Everything())
	p.readStatus, p.kubeletPort = true, port
	hosts := map[string]string{}
	var ids []string
	for _, id := range []string{"up", "crashed", "mixed", "unstarted"} {
		pod := &api.Pod{TypeMeta: api.TypeMeta{ID: id}}
		pod.DesiredState.Host = host
		p.observe("ADDED", pod)
		ids, hosts[id] = append(ids, id), host
	}
	p.readKubelets(ids, hosts)
	want := map[string]string{"up": StateRunning, "crashed": StateTerminated, "mixed": StateWaiting, "unstarted": StateWaiting}
	for id, state := range want {
		if got := p.pods[id].state; got != state {
			t.Errorf("%s: %s, want %s", id, got, state)
		}
	}
	// The watch's stored Waiting does not undo what the kubelet said.
	again := &api.Pod{TypeMeta: api.TypeMeta{ID: "up"}}
	again.DesiredState.Host = host
	p.observe("MODIFIED", again)
	if got := p.pods["up"].state; got != StateRunning {
		t.Errorf("up after the watch's Waiting: %s", got)
	}
}
