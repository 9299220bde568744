package watch

import (
	"runtime"
	"testing"
	"time"

	"github.com/kube-rewind/kube-rewind/pkg/api"
)

func TestFilterPassesKeptEventsAndDropsTheRest(t *testing.T) {
	source := NewFake()
	filtered := Filter(source, func(e Event) (Event, bool) {
		return e, e.Object.GetTypeMeta().ID != "skip"
	})
	go func() {
		source.Add(&api.Pod{TypeMeta: api.TypeMeta{ID: "skip"}})
		source.Add(&api.Pod{TypeMeta: api.TypeMeta{ID: "keep"}})
		source.Stop()
	}()
	var got []string
	for e := range filtered.ResultChan() {
		got = append(got, e.Object.GetTypeMeta().ID)
	}
	if len(got) != 1 || got[0] != "keep" {
		t.Errorf("got %v", got)
	}
}

func TestStoppingAFilterWithAnUnreadEventLeavesNoGoroutine(t *testing.T) {
	before := runtime.NumGoroutine()
	for i := 0; i < 50; i++ {
		source := NewFake()
		filtered := Filter(source, func(e Event) (Event, bool) { return e, true })
		source.Add(&api.Pod{})
		filtered.Stop()
	}
	deadline := time.Now().Add(10 * time.Second)
	for runtime.NumGoroutine() > before+2 && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if n := runtime.NumGoroutine(); n > before+2 {
		t.Errorf("%d goroutines after stopping 50 filters, %d before", n, before)
	}
}
