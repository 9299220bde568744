package sampler

// Pods whose status only a read shows.
//
// v0.4's apiserver stored a pod's status once, Waiting, when it created
// the pod, and computed Running on each GET and LIST of it, from the
// kubelet of its minion; its watch sent pods as stored, so a bound pod
// reads Waiting there for its whole life. Against such an apiserver
// (stack.PodStatusOnRead) the counter asks, every readPeriod, the kubelet
// of each bound pod it has not yet seen run or end (stack.KubeletPort),
// with the /podInfo call v0.4's apiserver made on a read of the pod, and
// works the status out from the answer as that apiserver did (getPodStatus
// in pkg/registry/pod/rest.go at v0.4). The laboratory so reads what the
// apiserver would have answered and costs it nothing; the hollow nodes,
// which serve the kubelets, pay for the reads instead. (Read through the
// apiserver, as kubecfg get would, each read cost it a LIST of the minions
// and a kubelet call.)

import (
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"sync"
	"time"

	"github.com/kube-rewind/kube-rewind/pkg/api"
	"github.com/kube-rewind/kube-rewind/pkg/watch"
)

const (
	readPeriod  = 100 * time.Millisecond
	readWorkers = 8
)

// readingStatus makes the counter read bound pods' status when on.
func (p *PodCounter) readingStatus(on bool) *PodCounter {
	p.readStatus = on
	return p
}

// readWaiting reads the waiting pods every readPeriod until stopCh closes.
func (p *PodCounter) readWaiting(stopCh <-chan struct{}) {
	ticker := time.NewTicker(readPeriod)
	defer ticker.Stop()
	for {
		select {
		case <-stopCh:
			return
		case <-ticker.C:
		}
		p.mu.Lock()
		var ids []string
		hosts := map[string]string{}
		for id, e := range p.pods {
			if e.state == StateWaiting {
				ids = append(ids, id)
				hosts[id] = e.host
			}
		}
		p.mu.Unlock()
		p.readKubelets(ids, hosts)
	}
}

// kubeletClient asks the hollow minions' kubelets.
var kubeletClient = &http.Client{Timeout: 5 * time.Second, Transport: &http.Transport{MaxIdleConnsPerHost: readWorkers}}

// readKubelets asks the kubelet of each pod's minion for the pod, as
// v0.4's apiserver did on a read of it, readWorkers at a time, and records
// the status that apiserver would have answered.
func (p *PodCounter) readKubelets(ids []string, hosts map[string]string) {
	next := make(chan string)
	var wg sync.WaitGroup
	for w := 0; w < readWorkers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for id := range next {
				status, err := kubeletStatus(hosts[id], p.kubeletPort, id)
				if err != nil || status == api.PodWaiting {
					continue
				}
				pod := &api.Pod{TypeMeta: api.TypeMeta{ID: id}}
				pod.DesiredState.Host, pod.CurrentState.Host, pod.CurrentState.Status = hosts[id], hosts[id], status
				p.mu.Lock()
				if _, known := p.pods[id]; known {
					p.observeLocked(watch.Modified, pod)
				}
				p.mu.Unlock()
			}
		}()
	}
	for _, id := range ids {
		if hosts[id] != "" {
			next <- id
		}
	}
	close(next)
	wg.Wait()
}

// networkContainerName is the container every v0.4 pod began with to hold
// its network, which /podInfo lists beside the pod's own and the status
// does not count.
const networkContainerName = "net"

// kubeletStatus asks host's kubelet for pod id and returns the status
// v0.4's apiserver worked out from its answer: Running when some
// container runs and none is unknown, Terminated when none runs and some
// ended, else Waiting (a pod the kubelet has not started is Waiting).
func kubeletStatus(host string, port int, id string) (api.PodStatus, error) {
	u := "http://" + net.JoinHostPort(host, strconv.Itoa(port)) + "/podInfo?podID=" + url.QueryEscape(id) + "&podNamespace=" + api.NamespaceDefault
	resp, err := kubeletClient.Get(u)
	if err != nil {
		return "", err
	}
	defer resp.Body.Close()
	if resp.StatusCode == http.StatusNotFound {
		return api.PodWaiting, nil
	}
	if resp.StatusCode != http.StatusOK {
		return "", fmt.Errorf("kubelet of %s: %s", host, resp.Status)
	}
	var info api.PodInfo
	if err := json.NewDecoder(resp.Body).Decode(&info); err != nil {
		return "", err
	}
	running, stopped, unknown := 0, 0, 0
	for name, c := range info {
		switch {
		case name == networkContainerName:
		case c.State.Running != nil:
			running++
		case c.State.Termination != nil:
			stopped++
		default:
			unknown++
		}
	}
	switch {
	case running > 0 && unknown == 0:
		return api.PodRunning, nil
	case running == 0 && stopped > 0 && unknown == 0:
		return api.PodTerminated, nil
	}
	return api.PodWaiting, nil
}
