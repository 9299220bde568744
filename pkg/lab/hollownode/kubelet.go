package hollownode

// Kubelets for an apiserver that asks them.
//
// v0.4's apiserver stored a pod's status once, Waiting, when it created
// the pod. On every GET and LIST it asked the kubelet of the pod's
// minion, by the minion's name on its -minion_port
// (pkg/client/podinfo.go: GET /podInfo?podID=…&podNamespace=…), through a
// pod cache it refreshed every 30 s and, on a miss, straight away
// (pkg/master/pod_cache.go, pkg/registry/pod/rest.go), and computed the
// status from the containers' states: Running when every container of the
// manifest runs or has ended and one at least runs (Terminated when the
// pod's minion was not in its list of minions). It also refused a write of
// a scheduled pod that changed anything but its labels and images, so a
// status write is rejected there.
//
// With KubeletPort set, the hollow nodes answer as v0.4's kubelet did
// (pkg/kubelet/server.go, handlePodInfo): each minion is named by a
// loopback address of its own, 127.0.0.2 and up, and listens there on
// KubeletPort for /healthz and /podInfo; starting a pod writes nothing,
// it only makes /podInfo say the containers run (or, for the failing
// fraction, that they exited).
//
// Ours: one process answers for every minion, from the pods its watch
// saw; a real kubelet read its manifests from etcd
// (/registry/hosts/<minion>/kubelet) and asked Docker.

import (
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"strconv"
	"time"

	"github.com/kube-rewind/kube-rewind/pkg/api"
)

// networkContainer is the name and image of the container v0.4's kubelet
// started first in every pod to hold its network; /podInfo reported it
// beside the manifest's containers, with the pod's IP.
const (
	networkContainer      = "net"
	networkContainerImage = "kubernetes/pause:latest"
)

// podRun is what a kubelet knows of a pod it started.
type podRun struct {
	node    string
	started time.Time
	failed  bool
	ip      string
}

// KubeletAddress returns the loopback address that names minion i when
// the hollow nodes act as kubelets: 127.0.0.2, 127.0.0.3, …, 127.0.1.0, …
// (127.0.0.1 stays with everything else).
func KubeletAddress(i int) string {
	n := i + 2
	return net.IPv4(127, byte(n>>16), byte(n>>8), byte(n)).String()
}

// kubelets says whether the hollow nodes act as kubelets.
func (h *Cluster) kubelets() bool { return h.cfg.KubeletPort > 0 }

// serveKubelets listens on every minion's address at KubeletPort and
// serves v0.4's kubelet API there until stopCh closes.
func (h *Cluster) serveKubelets(stopCh <-chan struct{}) error {
	var servers []*http.Server
	for i := 0; i < h.cfg.Nodes; i++ {
		node := h.NodeName(i)
		l, err := net.Listen("tcp", net.JoinHostPort(node, strconv.Itoa(h.cfg.KubeletPort)))
		if err != nil {
			for _, s := range servers {
				s.Close()
			}
			return fmt.Errorf("kubelet of minion %s: %v", node, err)
		}
		mux := http.NewServeMux()
		mux.HandleFunc("/healthz", func(w http.ResponseWriter, r *http.Request) { w.Write([]byte("ok")) })
		mux.HandleFunc("/podInfo", func(w http.ResponseWriter, r *http.Request) { h.servePodInfo(node, w, r) })
		s := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
		servers = append(servers, s)
		go s.Serve(l)
	}
	go func() {
		<-stopCh
		for _, s := range servers {
			s.Close()
		}
	}()
	return nil
}

// servePodInfo answers GET /podInfo?podID=<id> for the kubelet of node:
// 400 without an id, 404 for a pod it has not started (v0.4's "Pod does
// not exist": no containers yet), else the PodInfo of the pod's
// containers and of its network container.
func (h *Cluster) servePodInfo(node string, w http.ResponseWriter, r *http.Request) {
	id := r.URL.Query().Get("podID")
	if id == "" {
		http.Error(w, "Missing 'podID=' query entry.", http.StatusBadRequest)
		return
	}
	h.mu.Lock()
	run, started := h.runs[id]
	pod := h.pods[id]
	h.mu.Unlock()
	if !started || run.node != node || pod == nil {
		http.Error(w, "Pod does not exist", http.StatusNotFound)
		return
	}
	info := api.PodInfo{networkContainer: {
		State: api.ContainerState{Running: &api.ContainerStateRunning{StartedAt: run.started}},
		PodIP: run.ip,
		Image: networkContainerImage,
	}}
	for _, c := range pod.DesiredState.Manifest.Containers {
		status := api.ContainerStatus{Image: c.Image}
		if run.failed {
			status.State.Termination = &api.ContainerStateTerminated{ExitCode: 1, StartedAt: run.started, FinishedAt: run.started}
		} else {
			status.State.Running = &api.ContainerStateRunning{StartedAt: run.started}
		}
		info[c.Name] = status
	}
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(info)
}

// startLocally records a pod as started by the kubelet of its minion,
// instead of writing its status; it reports false if that kubelet started
// it already. A pod bound again elsewhere (v0.4's binding could move a pod
// back to unscheduled when its etcd writes failed half-way) is started
// afresh by its new minion's kubelet.
func (h *Cluster) startLocally(pod *api.Pod, failed bool, ip string) bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	if run, ok := h.runs[pod.ID]; ok && run.node == pod.DesiredState.Host {
		return false
	}
	h.runs[pod.ID] = podRun{node: pod.DesiredState.Host, started: time.Now(), failed: failed, ip: ip}
	return true
}

// runningLocked says whether a pod runs, by its stored status or, for
// kubelets, by what its kubelet reports.
func (h *Cluster) runningLocked(pod *api.Pod) bool {
	if h.kubelets() {
		run, ok := h.runs[pod.ID]
		return ok && !run.failed
	}
	return pod.CurrentState.Status == api.PodRunning
}
