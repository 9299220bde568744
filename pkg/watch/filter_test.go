package watch_test

import (
	"runtime"
	"testing"

	"github.com/kube-rewind/kube-rewind/pkg/api"
	"github.com/kube-rewind/kube-rewind/pkg/watch"
	"github.com/kube-rewind/kube-rewind/pkg/watch/watchtest"
)

func TestFilterPassesKeptEventsAndDropsTheRest(t *testing.T) {
	source := watch.NewFake()
	filtered := watch.Filter(source, func(e watch.Event) (watch.Event, bool) {
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
		source := watch.NewFake()
		filtered := watch.Filter(source, func(e watch.Event) (watch.Event, bool) { return e, true })
		source.Add(&api.Pod{})
		filtered.Stop()
	}
	watchtest.GoroutinesAtMost(t, before+2)
}
