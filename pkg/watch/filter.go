package watch

// Follows kubernetes/kubernetes pkg/watch/filter.go as of v0.4 (October 2014).

import "sync"

// FilterFunc rewrites an event; returning false drops it.
type FilterFunc func(in Event) (out Event, keep bool)

// Filter returns a watch that passes w's events through f.
func Filter(w Interface, f FilterFunc) Interface {
	fw := &filteredWatch{incoming: w, result: make(chan Event), f: f}
	go fw.loop()
	return fw
}

type filteredWatch struct {
	incoming Interface
	result   chan Event
	f        FilterFunc
	stopOnce sync.Once
}

func (fw *filteredWatch) ResultChan() <-chan Event { return fw.result }

func (fw *filteredWatch) Stop() { fw.stopOnce.Do(fw.incoming.Stop) }

func (fw *filteredWatch) loop() {
	defer close(fw.result)
	for event := range fw.incoming.ResultChan() {
		if out, keep := fw.f(event); keep {
			fw.result <- out
		}
	}
}
