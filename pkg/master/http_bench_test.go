package master

// Benchmarks of the whole apiserver — HTTP, decoding, validation, storage,
// etcd — beside raw etcd v2 writes to the same embedded etcd, so that the
// cost of our layers can be read off as a ratio.

import (
	"context"
	"fmt"
	"net/http/httptest"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/kube-rewind/kube-rewind/pkg/api"
	"github.com/kube-rewind/kube-rewind/pkg/apiserver"
	"github.com/kube-rewind/kube-rewind/pkg/client"
	"github.com/kube-rewind/kube-rewind/pkg/etcd/etcdtest"
	"github.com/kube-rewind/kube-rewind/pkg/labels"
	rt "github.com/kube-rewind/kube-rewind/pkg/registry/registrytest"
	"github.com/kube-rewind/kube-rewind/pkg/tools"
	"k8s.io/client-go/util/workqueue"
)

// apiserverClient serves the real storage over HTTP and returns a client
// of it that waits for every write (sync=true), as a modern client would.
func apiserverClient(b *testing.B) client.Interface {
	helper := rt.NewHelper(b)
	server := httptest.NewServer(apiserver.Handle(NewStorage(helper), apiserver.DefaultPrefix, apiserver.Options{}))
	b.Cleanup(server.Close)
	return client.NewOrDie(&client.Config{Host: server.URL, Sync: true, UserAgent: "bench"})
}

// concurrently runs op b.N times from clients goroutines and reports the
// rate.
func concurrently(b *testing.B, clients int, op func(i int) error) {
	var next int64 = -1
	var wg sync.WaitGroup
	b.ResetTimer()
	start := time.Now()
	for c := 0; c < clients; c++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i := int(atomic.AddInt64(&next, 1))
				if i >= b.N {
					return
				}
				if err := op(i); err != nil {
					b.Error(err)
					return
				}
			}
		}()
	}
	wg.Wait()
	b.StopTimer()
	b.ReportMetric(float64(b.N)/time.Since(start).Seconds(), "writes/s")
}

var benchRun int64

// BenchmarkPostPods creates pods through the apiserver's POST /pods.
func BenchmarkPostPods(b *testing.B) {
	for _, clients := range []int{1, 64} {
		b.Run(fmt.Sprintf("clients=%d", clients), func(b *testing.B) {
			c := apiserverClient(b)
			run := atomic.AddInt64(&benchRun, 1)
			concurrently(b, clients, func(i int) error {
				_, err := c.CreatePod(api.NewDefaultContext(), rt.ValidPod(fmt.Sprintf("pod-%d-%d", run, i), "bench"))
				return err
			})
		})
	}
}

// BenchmarkRawEtcdCreate writes pod-sized values straight to the same
// etcd through go-etcd: the ceiling BenchmarkPostPods is measured against.
func BenchmarkRawEtcdCreate(b *testing.B) {
	value, err := api.Encode(rt.ValidPod("a-pod-of-typical-size", "bench"))
	if err != nil {
		b.Fatal(err)
	}
	for _, clients := range []int{1, 64} {
		b.Run(fmt.Sprintf("clients=%d", clients), func(b *testing.B) {
			etcdClient := tools.NewEtcdClient([]string{etcdtest.New(b).ClientURL()})
			b.Cleanup(tools.CloseIdleConnections)
			run := atomic.AddInt64(&benchRun, 1)
			concurrently(b, clients, func(i int) error {
				_, err := etcdClient.Create(fmt.Sprintf("/registry/raw/%d-%d", run, i), string(value), 0)
				return err
			})
		})
	}
}

// BenchmarkListPodsBySelector10000 lists, over HTTP, the 100 pods of one
// label among 10 000: what the 2014 manager asks for on every sync of a
// controller. The server reads and decodes all 10 000.
func BenchmarkListPodsBySelector10000(b *testing.B) {
	c := apiserverClient(b)
	stop, failed := context.WithCancel(context.Background())
	defer failed()
	workqueue.ParallelizeUntil(stop, 64, 10000, func(i int) {
		if _, err := c.CreatePod(api.NewDefaultContext(), rt.ValidPod(fmt.Sprintf("pod-%05d", i), fmt.Sprintf("app-%d", i%100))); err != nil {
			b.Error(err)
			failed()
		}
	})
	selector := labels.Set{"name": "app-7"}.AsSelector()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		list, err := c.ListPods(api.NewDefaultContext(), selector)
		if err != nil {
			b.Fatal(err)
		}
		if len(list.Items) != 100 {
			b.Fatalf("listed %d pods", len(list.Items))
		}
	}
}
