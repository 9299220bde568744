//go:build !modern

package controller

// Ours: the counters of why the 2014 manager synced (metrics.go); v0.4
// counted nothing.

import (
	"testing"
	"time"

	"github.com/kube-rewind/kube-rewind/pkg/api"
	"github.com/kube-rewind/kube-rewind/pkg/client"
	"github.com/kube-rewind/kube-rewind/pkg/watch"
)

func TestATickCountsItselfAndASyncPerControllerAndAWatchEventOneSync(t *testing.T) {
	fakeWatch := &watchClient{Fake: &client.Fake{CtrlList: api.ReplicationControllerList{Items: []api.ReplicationController{
		newReplicationController(1), newReplicationController(2),
	}}}, watchers: make(chan *watch.FakeWatcher, 1)}
	manager := NewReplicationManager(fakeWatch)
	synced := make(chan string, 3)
	manager.syncHandler = func(rc api.ReplicationController) error {
		synced <- rc.ID
		return nil
	}
	count := func() (tickPasses, tickSyncs, watchSyncs float64) {
		return counterValue(ticks), counterValue(syncs.WithLabelValues(SyncTick)), counterValue(syncs.WithLabelValues(SyncWatch))
	}
	// Managers other tests started with Run tick on in the background,
	// over no controllers: the passes counted here are at least this
	// test's one, and their syncs none.
	t0, ts0, ws0 := count()
	manager.synchronize()
	<-synced
	<-synced
	if tp, ts, ws := count(); tp-t0 < 1 || ts-ts0 != 2 || ws != ws0 {
		t.Errorf("a tick over two controllers counted %v passes, %v tick syncs and %v watch syncs; want 1 or more, 2 and 0", tp-t0, ts-ts0, ws-ws0)
	}

	resourceVersion := uint64(0)
	done := make(chan struct{})
	go func() {
		manager.watchControllers(&resourceVersion)
		close(done)
	}()
	fw := <-fakeWatch.watchers
	fw.Modify(&api.ReplicationController{TypeMeta: api.TypeMeta{ID: "foo", ResourceVersion: 19}})
	select {
	case <-synced:
	case <-time.After(10 * time.Second):
		t.Fatal("the watch event was not synced")
	}
	fw.Stop()
	<-done
	if _, ts, ws := count(); ts-ts0 != 2 || ws-ws0 != 1 {
		t.Errorf("after one watch event: %v tick syncs and %v watch syncs; want 2 and 1", ts-ts0, ws-ws0)
	}
}
