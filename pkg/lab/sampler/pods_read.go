package sampler

// Pods whose status only a read shows.
//
// v0.4's apiserver stored a pod's status once, Waiting, when it created
// the pod, and computed Running on each GET and LIST of it, from the
// kubelet of its minion; its watch sent pods as stored, so a bound pod
// reads Waiting there for its whole life.
// Against such an apiserver (stack.PodStatusOnRead) the counter reads,
// every readPeriod, each bound pod it has not yet seen run or end, with a
// GET as kubecfg get would, until the apiserver says Running or
// Terminated. Each read costs that apiserver what any read of a pod cost
// in 2014 — a LIST of the minions through its own client, and a kubelet
// call while its pod cache lacks the pod — and counts as the scenario's
// request, not the manager's.

import (
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
		for id, e := range p.pods {
			if e.state == StateWaiting {
				ids = append(ids, id)
			}
		}
		p.mu.Unlock()
		p.read(ids)
	}
}

// read GETs the pods ids, readWorkers at a time, and records what the
// apiserver says of each that the counter still follows.
func (p *PodCounter) read(ids []string) {
	ctx := api.NewDefaultContext()
	next := make(chan string)
	var wg sync.WaitGroup
	for w := 0; w < readWorkers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for id := range next {
				pod, err := p.client.GetPod(ctx, id)
				if err != nil {
					// Gone: the watch reports the deletion.
					continue
				}
				// A pod deleted while it was read stays deleted.
				p.mu.Lock()
				if _, known := p.pods[id]; known {
					p.observeLocked(watch.Modified, pod)
				}
				p.mu.Unlock()
			}
		}()
	}
	for _, id := range ids {
		next <- id
	}
	close(next)
	wg.Wait()
}
