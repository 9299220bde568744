package master

import (
	"context"
	"fmt"
	"testing"

	"github.com/kube-rewind/kube-rewind/pkg/api"
	"github.com/kube-rewind/kube-rewind/pkg/labels"
	"github.com/kube-rewind/kube-rewind/pkg/registry/etcd"
	rt "github.com/kube-rewind/kube-rewind/pkg/registry/registrytest"
	"k8s.io/client-go/util/workqueue"
)

// BenchmarkPodListByLabel10000 lists, through the pods' REST storage, the
// 100 pods of one label among 10 000: what the legacy manager asks for each
// controller on every sync. All 10 000 are read and decoded.
func BenchmarkPodListByLabel10000(b *testing.B) {
	helper := rt.NewHelper(b)
	registry := etcd.NewRegistry(helper)
	stop, failed := context.WithCancel(context.Background())
	defer failed()
	workqueue.ParallelizeUntil(stop, 64, 10000, func(i int) {
		pod := rt.ValidPod(fmt.Sprintf("pod-%05d", i), fmt.Sprintf("app-%d", i%100))
		pod.Namespace = "default"
		if err := registry.CreatePod(ctx, pod); err != nil {
			b.Error(err)
			failed()
		}
	})
	pods := NewStorage(helper)["pods"]
	selector := labels.Set{"name": "app-7"}.AsSelector()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		obj, err := pods.List(ctx, selector, labels.Everything())
		if err != nil {
			b.Fatal(err)
		}
		if got := len(obj.(*api.PodList).Items); got != 100 {
			b.Fatalf("listed %d pods", got)
		}
	}
}
