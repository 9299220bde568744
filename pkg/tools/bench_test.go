package tools

import (
	"context"
	"fmt"
	"os"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/coreos/go-etcd/etcd"
	"github.com/kube-rewind/kube-rewind/pkg/api"
	etcdserver "github.com/kube-rewind/kube-rewind/pkg/etcd"
	"k8s.io/client-go/util/workqueue"
)

// The benchmarks share one embedded member that, unlike the tests' member,
// fsyncs every write, as a real apiserver's would.
var (
	benchOnce   sync.Once
	benchServer *etcdserver.Server
	benchDir    string
	benchErr    error
)

func benchURL(b *testing.B) string {
	benchOnce.Do(func() {
		benchDir, benchErr = os.MkdirTemp("", "kube-rewind-bench-")
		if benchErr != nil {
			return
		}
		benchServer, benchErr = etcdserver.Start(etcdserver.Config{DataDir: benchDir})
	})
	if benchErr != nil {
		b.Fatal(benchErr)
	}
	return benchServer.ClientURL()
}

func closeBenchServer() {
	if benchServer != nil {
		benchServer.Close()
	}
	if benchDir != "" {
		os.RemoveAll(benchDir)
	}
}

// benchPod is a pod of the size the replication manager creates: one
// container with a port, labels, and a manifest.
func benchPod(id string, i int) *api.Pod {
	return &api.Pod{
		TypeMeta: api.TypeMeta{ID: id, Namespace: "default", UID: "0b6a5f2e-4e4f-11f1-8a4e-0242ac120002"},
		Labels:   map[string]string{"name": "bench", "shard": fmt.Sprint(i % 100)},
		DesiredState: api.PodState{
			Status: api.PodRunning,
			Host:   fmt.Sprintf("node-%d", i%20),
			Manifest: api.ContainerManifest{
				Version: "v1beta1", ID: id, UUID: id,
				Containers:    []api.Container{{Name: "nginx", Image: "dockerfile/nginx", Ports: []api.Port{{ContainerPort: 80, Protocol: "TCP"}}}},
				RestartPolicy: api.RestartPolicy{Always: &api.RestartPolicyAlways{}},
			},
		},
		CurrentState: api.PodState{Status: api.PodRunning, Host: fmt.Sprintf("node-%d", i%20), PodIP: "10.0.0.1"},
	}
}

var tenThousandOnce sync.Once

// fillTenThousand writes 10 000 pods under /bench/pods once per process.
func fillTenThousand(b *testing.B, helper EtcdHelper) {
	tenThousandOnce.Do(func() {
		stop, failed := context.WithCancel(context.Background())
		defer failed()
		workqueue.ParallelizeUntil(stop, 64, 10000, func(i int) {
			id := fmt.Sprintf("pod-%05d", i)
			if err := helper.CreateObj("/bench/pods/"+id, benchPod(id, i)); err != nil && !IsEtcdNodeExist(err) {
				b.Error(err)
				failed()
			}
		})
	})
}

// BenchmarkExtractList10000Pods lists 10 000 pods: one recursive GET and
// 10 000 decodes, the cost the legacy manager pays per controller per sync.
func BenchmarkExtractList10000Pods(b *testing.B) {
	client := NewEtcdClient([]string{benchURL(b)})
	defer CloseIdleConnections()
	helper := EtcdHelper{client}
	fillTenThousand(b, helper)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		var pods []api.Pod
		if err := helper.ExtractList("/bench/pods", &pods, nil); err != nil {
			b.Fatal(err)
		}
		if len(pods) != 10000 {
			b.Fatalf("listed %d pods", len(pods))
		}
	}
}

var benchKeys int64

func benchKey(prefix string) string {
	return fmt.Sprintf("/bench/%s/%d", prefix, atomic.AddInt64(&benchKeys, 1))
}

// runConcurrently calls op b.N times from the given number of goroutines.
func runConcurrently(b *testing.B, goroutines int, op func() error) {
	var next int64
	var wg sync.WaitGroup
	b.ResetTimer()
	for g := 0; g < goroutines; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for atomic.AddInt64(&next, 1) <= int64(b.N) {
				if err := op(); err != nil {
					b.Error(err)
					return
				}
			}
		}()
	}
	wg.Wait()
}

// BenchmarkCreateObj creates pods through EtcdHelper from 1 and 64
// goroutines; BenchmarkRawEtcdCreate does the same writes with go-etcd's
// Create of a pre-encoded value, to show what the helper adds.
func BenchmarkCreateObj(b *testing.B) {
	for _, goroutines := range []int{1, 64} {
		b.Run(fmt.Sprintf("goroutines=%d", goroutines), func(b *testing.B) {
			client := NewEtcdClient([]string{benchURL(b)})
			defer CloseIdleConnections()
			helper := EtcdHelper{client}
			runConcurrently(b, goroutines, func() error {
				key := benchKey("helper")
				return helper.CreateObj(key, benchPod("p", 1))
			})
		})
	}
}

func BenchmarkRawEtcdCreate(b *testing.B) {
	value, err := api.Encode(benchPod("p", 1))
	if err != nil {
		b.Fatal(err)
	}
	for _, goroutines := range []int{1, 64} {
		b.Run(fmt.Sprintf("goroutines=%d", goroutines), func(b *testing.B) {
			client := NewEtcdClient([]string{benchURL(b)})
			defer CloseIdleConnections()
			runConcurrently(b, goroutines, func() error {
				_, err := client.Create(benchKey("raw"), string(value), 0)
				return err
			})
		})
	}
}

// BenchmarkRawEtcdCreateDefaultTransport shows why NewEtcdClient replaces
// go-etcd's transport: the same 64 writers through etcd.NewClient.
func BenchmarkRawEtcdCreateDefaultTransport(b *testing.B) {
	value, err := api.Encode(benchPod("p", 1))
	if err != nil {
		b.Fatal(err)
	}
	client := etcd.NewClient([]string{benchURL(b)})
	defer client.Close()
	runConcurrently(b, 64, func() error {
		_, err := client.Create(benchKey("default"), string(value), 0)
		return err
	})
}
