package watch

// Follows kubernetes/kubernetes pkg/watch/filter.go as of v0.4 (October 2014).

import "sync"

// FilterFunc rewrites an event; returning false drops it.
type FilterFunc func(in Event) (out Event, keep bool)

// Filter returns a watch that passes w's events through f.
func Filter(w Interface, f FilterFunc) Interface {
	fw := &filteredWatch{incoming: w, result: make(chan Event), f: f, stopped: make(chan struct{})}
	go fw.loop()
	return fw
}

type filteredWatch struct {
	incoming Interface
	result   chan Event
	f        FilterFunc
	stopOnce sync.Once
	stopped  chan struct{}
}

func (fw *filteredWatch) ResultChan() <-chan Event { return fw.result }

func (fw *filteredWatch) Stop() {
	fw.stopOnce.Do(func() {
		close(fw.stopped)
		fw.incoming.Stop()
	})
}

// loop forwards events until the incoming watch ends. A Stop while an event
// waits for a reader ends it too, so the goroutine never outlives its watch.
//
// Ours: v0.4's loop blocked on the send for ever when its reader stopped the
// watch with an event in hand, keeping one goroutine per stopped watch.
func (fw *filteredWatch) loop() {
	defer close(fw.result)
	for event := range fw.incoming.ResultChan() {
		out, keep := fw.f(event)
		if !keep {
			continue
		}
		select {
		case fw.result <- out:
		case <-fw.stopped:
			return
		}
	}
}
