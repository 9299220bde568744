package hollownode

import (
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"sync/atomic"
	"testing"

	"github.com/kube-rewind/kube-rewind/pkg/api"
	"github.com/kube-rewind/kube-rewind/pkg/watch/watchtest"
)

// statusRejecting is v0.4's apiserver as the kubelets see it: bindings
// are applied, and a write of a scheduled pod's status is refused.
type statusRejecting struct {
	*fakeCluster
	writes int32
}

func (f *statusRejecting) UpdatePod(ctx api.Context, p *api.Pod) (*api.Pod, error) {
	atomic.AddInt32(&f.writes, 1)
	return nil, fmt.Errorf("the v0.4 apiserver accepts no status writes")
}

func podInfo(t *testing.T, node string, port int, query string) (int, api.PodInfo) {
	t.Helper()
	resp, err := http.Get(fmt.Sprintf("http://%s/podInfo?%s", net.JoinHostPort(node, fmt.Sprint(port)), query))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var info api.PodInfo
	if resp.StatusCode == http.StatusOK {
		if err := json.NewDecoder(resp.Body).Decode(&info); err != nil {
			t.Fatal(err)
		}
	}
	return resp.StatusCode, info
}

func TestKubeletsAnswerPodInfoAndWriteNoStatus(t *testing.T) {
	l, err := net.Listen("tcp", KubeletAddress(0)+":0")
	if err != nil {
		t.Fatal(err)
	}
	port := l.Addr().(*net.TCPAddr).Port
	l.Close()

	fake := &statusRejecting{fakeCluster: newFakeCluster(6)}
	for _, p := range fake.pods {
		p.DesiredState.Manifest.Containers = []api.Container{{Name: "nginx", Image: "dockerfile/nginx"}}
	}
	h := New(fake, Config{Nodes: 3, Workers: 4, Seed: 1, KubeletPort: port})
	stopCh := make(chan struct{})
	defer close(stopCh)
	go h.Run(stopCh)

	watchtest.Within(t, watchtest.Timeout, "6 pods started", func() (bool, error) {
		s := h.Stats()
		return s.Starts >= 6, fmt.Errorf("stats %+v", s)
	})
	fake.mu.Lock()
	pods := map[string]string{}
	for id, p := range fake.pods {
		pods[id] = p.DesiredState.Host
	}
	fake.mu.Unlock()
	for id, host := range pods {
		if host != KubeletAddress(0) && host != KubeletAddress(1) && host != KubeletAddress(2) {
			t.Fatalf("pod %s bound to %q, want a minion named by its kubelet's address", id, host)
		}
		code, info := podInfo(t, host, port, "podID="+id+"&podNamespace=default")
		if code != http.StatusOK {
			t.Fatalf("podInfo of %s on its minion %s: %d, want 200", id, host, code)
		}
		if info["nginx"].State.Running == nil {
			t.Errorf("pod %s: container nginx reads %+v, want running", id, info["nginx"].State)
		}
		if info["net"].PodIP == "" || info["net"].State.Running == nil {
			t.Errorf("pod %s: network container reads %+v, want running with the pod's IP", id, info["net"])
		}
		other := KubeletAddress(0)
		if host == other {
			other = KubeletAddress(1)
		}
		if code, _ := podInfo(t, other, port, "podID="+id); code != http.StatusNotFound {
			t.Errorf("podInfo of %s on %s, which does not run it: %d, want 404", id, other, code)
		}
	}
	if code, _ := podInfo(t, KubeletAddress(0), port, ""); code != http.StatusBadRequest {
		t.Errorf("podInfo without podID: %d, want 400", code)
	}
	if n := atomic.LoadInt32(&fake.writes); n != 0 {
		t.Errorf("the kubelets wrote %d pod updates, want none", n)
	}
}

// failingBinds fails the first binding of every pod with a server error,
// as v0.4's apiserver did when its etcd client gave up.
type failingBinds struct {
	*fakeCluster
	failed map[string]bool
}

func (f *failingBinds) CreateBinding(ctx api.Context, b *api.Binding) error {
	f.mu.Lock()
	first := !f.failed[b.PodID]
	f.failed[b.PodID] = true
	f.mu.Unlock()
	if first {
		return fmt.Errorf("501: All the given peers are not reachable")
	}
	return f.fakeCluster.CreateBinding(ctx, b)
}

func TestAFailedBindingIsRetriedAfterABackoff(t *testing.T) {
	fake := &failingBinds{fakeCluster: newFakeCluster(4), failed: map[string]bool{}}
	h := New(fake, Config{Nodes: 2, Workers: 2, Seed: 1})
	stopCh := make(chan struct{})
	defer close(stopCh)
	go h.Run(stopCh)
	watchtest.Within(t, watchtest.Timeout, "every pod bound and started after one failed binding each", func() (bool, error) {
		running, _ := fake.states()
		return running["Running"] == 4, fmt.Errorf("states %v, stats %+v", running, h.Stats())
	})
	if s := h.Stats(); s.Binds != 4 || s.WriteErrors != 4 {
		t.Errorf("stats %+v: want 4 binds after 4 failed ones", s)
	}
}

func TestAPodBoundAgainElsewhereIsStartedByItsNewKubelet(t *testing.T) {
	h := New(newFakeCluster(0), Config{Nodes: 2, KubeletPort: 1})
	pod := &api.Pod{TypeMeta: api.TypeMeta{ID: "p"}, DesiredState: api.PodState{Host: KubeletAddress(0)}}
	if !h.startLocally(pod, false, "10.64.0.1") || h.startLocally(pod, false, "10.64.0.2") {
		t.Fatalf("a pod must start once on its minion")
	}
	pod.DesiredState.Host = KubeletAddress(1)
	if !h.startLocally(pod, false, "10.64.0.3") || h.runs["p"].node != KubeletAddress(1) {
		t.Errorf("a pod bound again to %s was not started there: %+v", KubeletAddress(1), h.runs["p"])
	}
}
