package today

import (
	"context"
	"fmt"
	"sync"
	"time"

	v1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/fields"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/util/workqueue"
)

// BinderWorkers is how many binds the binder sends at once: as many as
// the hollow nodes' workers, which bind for 2014's side.
const BinderWorkers = 32

// The binder stands in for kube-scheduler when Config.DirectBinding is
// set: it watches the pods no node holds and binds each, with one request
// to its binding subresource, to the node with the fewest pods, as 2014's
// hollow nodes bind (pkg/lab/hollownode, work.go). It runs in the
// laboratory's process, so its CPU is the laboratory's, as the hollow
// nodes' stand-in's is theirs: a run with it prices what kube-scheduler
// adds over binding directly.
//
// Ours: no part of today's control plane. It binds the pods of a
// scale-up and nothing more: no filters, scores, affinities or retries
// beyond a failed bind's.
type binder struct {
	c      kubernetes.Interface
	queue  workqueue.TypedRateLimitingInterface[cache.ObjectName]
	lister cache.Indexer

	mu      sync.Mutex
	perNode map[string]int
	// bound holds the pods bound and the node each went to, until the
	// watch says the pod is gone from the unbound.
	bound map[cache.ObjectName]string
}

// startBinder starts the binder over the stack's nodes.
func (s *Stack) startBinder() error {
	cfg := s.RESTConfig()
	cfg.UserAgent = "kube-rewind-binder"
	c, err := kubernetes.NewForConfig(cfg)
	if err != nil {
		return err
	}
	var nodes []string
	for i := 0; i < s.cfg.Nodes; i++ {
		nodes = append(nodes, fmt.Sprintf("%s%d", NodePrefix, i))
	}
	stop, err := startBinder(c, nodes)
	if err != nil {
		return err
	}
	s.mu.Lock()
	s.stopBinder = stop
	s.mu.Unlock()
	return nil
}

// startBinder binds every pod without a node that c lists to one of
// nodes, until stop is called.
func startBinder(c kubernetes.Interface, nodes []string) (stop func(), err error) {
	b := &binder{
		c:       c,
		queue:   workqueue.NewTypedRateLimitingQueue(workqueue.NewTypedItemExponentialFailureRateLimiter[cache.ObjectName](10*time.Millisecond, 5*time.Second)),
		perNode: map[string]int{},
		bound:   map[cache.ObjectName]string{},
	}
	for _, n := range nodes {
		b.perNode[n] = 0
	}
	factory := informers.NewSharedInformerFactoryWithOptions(c, 0, informers.WithTweakListOptions(func(o *metav1.ListOptions) {
		o.FieldSelector = fields.OneTermEqualSelector("spec.nodeName", "").String()
	}))
	informer := factory.Core().V1().Pods().Informer()
	b.lister = informer.GetIndexer()
	if _, err := informer.AddEventHandler(cache.ResourceEventHandlerFuncs{
		AddFunc:    b.enqueue,
		UpdateFunc: func(_, obj interface{}) { b.enqueue(obj) },
		DeleteFunc: func(obj interface{}) {
			if name, err := cache.DeletionHandlingObjectToName(obj); err == nil {
				b.mu.Lock()
				delete(b.bound, name)
				b.mu.Unlock()
			}
		},
	}); err != nil {
		return nil, err
	}
	ctx, cancel := context.WithCancel(context.Background())
	factory.Start(ctx.Done())
	var wg sync.WaitGroup
	for i := 0; i < BinderWorkers; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for b.next(ctx) {
			}
		}()
	}
	return func() {
		cancel()
		b.queue.ShutDown()
		wg.Wait()
		factory.Shutdown()
	}, nil
}

func (b *binder) enqueue(obj interface{}) {
	if name, err := cache.ObjectToName(obj); err == nil {
		b.queue.Add(name)
	}
}

// next binds one pod, and says whether to go on.
func (b *binder) next(ctx context.Context) bool {
	name, shutdown := b.queue.Get()
	if shutdown {
		return false
	}
	defer b.queue.Done(name)
	if err := b.bind(ctx, name); err != nil && ctx.Err() == nil {
		b.queue.AddRateLimited(name)
		return true
	}
	b.queue.Forget(name)
	return true
}

// bind binds the pod unless it is bound already or gone.
func (b *binder) bind(ctx context.Context, name cache.ObjectName) error {
	obj, exists, err := b.lister.GetByKey(name.String())
	if err != nil || !exists {
		return err
	}
	pod := obj.(*v1.Pod)
	if pod.Spec.NodeName != "" || pod.DeletionTimestamp != nil {
		return nil
	}
	b.mu.Lock()
	if _, done := b.bound[name]; done {
		b.mu.Unlock()
		return nil
	}
	node := ""
	for n, count := range b.perNode {
		if node == "" || count < b.perNode[node] || (count == b.perNode[node] && n < node) {
			node = n
		}
	}
	b.perNode[node]++
	b.bound[name] = node
	b.mu.Unlock()
	err = b.c.CoreV1().Pods(pod.Namespace).Bind(ctx, &v1.Binding{
		ObjectMeta: metav1.ObjectMeta{Name: pod.Name, Namespace: pod.Namespace, UID: pod.UID},
		Target:     v1.ObjectReference{Kind: "Node", Name: node},
	}, metav1.CreateOptions{})
	if err == nil || apierrors.IsConflict(err) || apierrors.IsNotFound(err) {
		// Bound, by us or before us, or gone.
		return nil
	}
	b.mu.Lock()
	b.perNode[node]--
	delete(b.bound, name)
	b.mu.Unlock()
	return err
}
