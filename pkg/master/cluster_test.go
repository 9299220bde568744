package master

import (
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/coreos/go-etcd/etcd"
	"github.com/kube-rewind/kube-rewind/pkg/api"
	"github.com/kube-rewind/kube-rewind/pkg/apiserver"
	"github.com/kube-rewind/kube-rewind/pkg/etcd/etcdtest"
	"github.com/kube-rewind/kube-rewind/pkg/labels"
	rt "github.com/kube-rewind/kube-rewind/pkg/registry/registrytest"
	"github.com/kube-rewind/kube-rewind/pkg/tools"
	"github.com/kube-rewind/kube-rewind/pkg/watch"
	"github.com/kube-rewind/kube-rewind/pkg/watch/watchtest"
)

// externalStorage returns the storage on an external etcd cluster of size
// members, and the cluster.
func externalStorage(t *testing.T, size int) (map[string]apiserver.RESTStorage, *etcdtest.Cluster) {
	cluster := etcdtest.StartCluster(t, size)
	client := tools.NewEtcdClient(cluster.ClientURLs())
	t.Cleanup(tools.CloseIdleConnections)
	return NewStorage(tools.EtcdHelper{Client: client}), cluster
}

func TestTheStorageWorksOnAnExternalEtcdMember(t *testing.T) {
	storage, _ := externalStorage(t, 1)
	if _, err := rt.Await(storage["replicationControllers"].Create(ctx, rt.ValidController("web", "web", 2))); err != nil {
		t.Fatal(err)
	}
	w, err := storage["pods"].(apiserver.ResourceWatcher).Watch(ctx, labels.Set{"name": "web"}.AsSelector(), labels.Everything(), 0)
	if err != nil {
		t.Fatal(err)
	}
	defer watchtest.StopAndDrain(t, w)
	if _, err := rt.Await(storage["pods"].Create(ctx, rt.ValidPod("web-1", "web"))); err != nil {
		t.Fatal(err)
	}
	if e := watchtest.Next(t, w); e.Type != watch.Added || e.Object.(*api.Pod).ID != "web-1" {
		t.Fatalf("watch: %v %+v", e.Type, e.Object)
	}
	if _, err := rt.Await(storage["bindings"].Create(ctx, &api.Binding{PodID: "web-1", Host: "m1"})); err != nil {
		t.Fatal(err)
	}
	obj, err := storage["replicationControllers"].Get(ctx, "web")
	if err != nil || obj.(*api.ReplicationController).CurrentState.Replicas != 1 {
		t.Fatalf("controller: %v, %+v", err, obj)
	}
	obj, err = storage["pods"].List(ctx, labels.Everything(), labels.Set{"DesiredState.Host": "m1"}.AsSelector())
	if err != nil || len(obj.(*api.PodList).Items) != 1 {
		t.Fatalf("pods on m1: %v, %+v", err, obj)
	}
}

// TestNoAcknowledgedWriteIsLostWhenAClusterMemberStops writes pods without
// pause while each member in turn is killed and restarted. The client
// sends every request to one member until that member fails, so one of
// the three kills hits the member in use and the client must move on.
func TestNoAcknowledgedWriteIsLostWhenAClusterMemberStops(t *testing.T) {
	storage, cluster := externalStorage(t, 3)
	pods := storage["pods"]

	var mu sync.Mutex
	var acknowledged []string
	failures := 0
	acked := func() int {
		mu.Lock()
		defer mu.Unlock()
		return len(acknowledged)
	}
	stop := make(chan struct{})
	done := make(chan struct{})
	go func() {
		defer close(done)
		for i := 0; ; i++ {
			select {
			case <-stop:
				return
			default:
			}
			id := fmt.Sprintf("pod-%04d", i)
			_, err := rt.Await(pods.Create(ctx, rt.ValidPod(id, "x")))
			mu.Lock()
			if err != nil {
				// Not acknowledged: it may or may not have been stored.
				failures++
			} else {
				acknowledged = append(acknowledged, id)
			}
			mu.Unlock()
		}
	}()
	waitForWrites := func(n int) {
		t.Helper()
		target := acked() + n
		deadline := time.Now().Add(60 * time.Second)
		for acked() < target {
			if time.Now().After(deadline) {
				close(stop)
				<-done
				t.Fatalf("writes stalled at %d (wanted %d, %d failed)", acked(), target, failures)
			}
			time.Sleep(10 * time.Millisecond)
		}
	}

	waitForWrites(30)
	for member := range cluster.Members {
		t0 := time.Now()
		cluster.Stop(member)
		t1 := time.Now()
		waitForWrites(30)
		t2 := time.Now()
		if err := cluster.Start(member); err != nil {
			t.Fatal(err)
		}
		if err := cluster.WaitHealthy(member, 30*time.Second); err != nil {
			t.Fatal(err)
		}
		t3 := time.Now()
		waitForWrites(10)
		// Killing the leader holds the writes in flight until etcd's
		// request timeout (about 6 s with these ticks) and a new election.
		t.Logf("member %d: stopped in %v, 30 writes took %v, restarted in %v, 10 more writes took %v",
			member, t1.Sub(t0), t2.Sub(t1), t3.Sub(t2), time.Since(t3))
	}
	close(stop)
	<-done

	// Read back with quorum reads, so that a lagging member cannot hide a
	// write.
	client := tools.NewEtcdClient(cluster.ClientURLs())
	if err := client.SetConsistency(etcd.STRONG_CONSISTENCY); err != nil {
		t.Fatal(err)
	}
	var stored []api.Pod
	watchtest.Within(t, 30*time.Second, "a list of the pods", func() (bool, error) {
		stored = nil
		err := (&tools.EtcdHelper{Client: client}).ExtractList("/registry/pods", &stored, nil)
		return err == nil, err
	})
	have := map[string]bool{}
	for _, p := range stored {
		have[p.ID] = true
	}
	for _, id := range acknowledged {
		if !have[id] {
			t.Errorf("acknowledged pod %s is gone", id)
		}
	}
	t.Logf("%d writes acknowledged, %d failed, %d pods stored", len(acknowledged), failures, len(stored))
}
