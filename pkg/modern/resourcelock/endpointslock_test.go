package resourcelock

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/kube-rewind/kube-rewind/pkg/api"
	apierrors "github.com/kube-rewind/kube-rewind/pkg/api/errors"
	"github.com/kube-rewind/kube-rewind/pkg/client"
	"github.com/kube-rewind/kube-rewind/pkg/labels"
	"github.com/kube-rewind/kube-rewind/pkg/watch/watchtest"
	k8serrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/tools/leaderelection"
	rl "k8s.io/client-go/tools/leaderelection/resourcelock"
)

// endpointsStore keeps Endpoints objects in memory with the apiserver's
// write rules: create fails if the object exists, update fails unless it
// carries the current resourceVersion.
type endpointsStore struct {
	client.Fake
	mu      sync.Mutex
	objects map[string]api.Endpoints
	rv      uint64
	updates int
}

func newStore() *endpointsStore { return &endpointsStore{objects: map[string]api.Endpoints{}} }

func (s *endpointsStore) GetEndpoints(ctx api.Context, id string) (*api.Endpoints, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	e, ok := s.objects[id]
	if !ok {
		return nil, apierrors.NewNotFound("endpoints", id)
	}
	return &e, nil
}

func (s *endpointsStore) CreateEndpoints(ctx api.Context, e *api.Endpoints) (*api.Endpoints, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, ok := s.objects[e.ID]; ok {
		return nil, apierrors.NewAlreadyExists("endpoints", e.ID)
	}
	s.rv++
	stored := *e
	stored.ResourceVersion = s.rv
	s.objects[e.ID] = stored
	return &stored, nil
}

func (s *endpointsStore) UpdateEndpoints(ctx api.Context, e *api.Endpoints) (*api.Endpoints, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	cur, ok := s.objects[e.ID]
	if !ok {
		return nil, apierrors.NewNotFound("endpoints", e.ID)
	}
	if cur.ResourceVersion != e.ResourceVersion {
		return nil, apierrors.NewConflict("endpoints", e.ID, errors.New("101: Compare failed"))
	}
	s.rv++
	s.updates++
	stored := *e
	stored.ResourceVersion = s.rv
	s.objects[e.ID] = stored
	return &stored, nil
}

func (s *endpointsStore) ListEndpoints(ctx api.Context, selector labels.Selector) (*api.EndpointsList, error) {
	return &api.EndpointsList{}, nil
}

func newLock(s *endpointsStore, id string) *EndpointsLock {
	return &EndpointsLock{Namespace: api.NamespaceDefault, Name: "kube-controller-manager", Client: s,
		LockConfig: rl.ResourceLockConfig{Identity: id}}
}

func TestTheLockRecordRoundTripsThroughAnEndpointsAnnotation(t *testing.T) {
	s := newStore()
	lock := newLock(s, "host_a")
	ctx := context.Background()
	if _, _, err := lock.Get(ctx); !k8serrors.IsNotFound(err) {
		t.Fatalf("Get of a missing lock: %v, want an apimachinery NotFound", err)
	}
	now := metav1.NewTime(time.Now().Truncate(time.Second))
	record := rl.LeaderElectionRecord{HolderIdentity: "host_a", LeaseDurationSeconds: 15, AcquireTime: now, RenewTime: now}
	if err := lock.Create(ctx, record); err != nil {
		t.Fatal(err)
	}
	got, raw, err := lock.Get(ctx)
	if err != nil || got.HolderIdentity != "host_a" || got.LeaseDurationSeconds != 15 || !got.RenewTime.Equal(&now) || len(raw) == 0 {
		t.Fatalf("Get returned %+v, %q, %v", got, raw, err)
	}
	stored, _ := s.GetEndpoints(nil, "kube-controller-manager")
	if stored.Annotations[rl.LeaderElectionRecordAnnotationKey] != string(raw) {
		t.Errorf("record not stored under %s: %v", rl.LeaderElectionRecordAnnotationKey, stored.Annotations)
	}

	record.LeaderTransitions = 1
	if err := lock.Update(ctx, record); err != nil {
		t.Fatal(err)
	}
	if got, _, _ := lock.Get(ctx); got.LeaderTransitions != 1 {
		t.Errorf("update lost: %+v", got)
	}
	if lock.Describe() != "default/kube-controller-manager" || lock.Identity() != "host_a" {
		t.Errorf("describe %q identity %q", lock.Describe(), lock.Identity())
	}
}

func TestAStaleLockCannotBeUpdated(t *testing.T) {
	s := newStore()
	ctx := context.Background()
	a, b := newLock(s, "a"), newLock(s, "b")
	if err := a.Update(ctx, rl.LeaderElectionRecord{}); err == nil {
		t.Fatal("Update before Get or Create must fail")
	}
	if err := a.Create(ctx, rl.LeaderElectionRecord{HolderIdentity: "a"}); err != nil {
		t.Fatal(err)
	}
	if err := b.Create(ctx, rl.LeaderElectionRecord{HolderIdentity: "b"}); !k8serrors.IsAlreadyExists(err) {
		t.Fatalf("second Create: %v, want AlreadyExists", err)
	}
	if _, _, err := b.Get(ctx); err != nil {
		t.Fatal(err)
	}
	if err := a.Update(ctx, rl.LeaderElectionRecord{HolderIdentity: "a"}); err != nil {
		t.Fatal(err)
	}
	if err := b.Update(ctx, rl.LeaderElectionRecord{HolderIdentity: "b"}); !k8serrors.IsConflict(err) {
		t.Fatalf("update at a stale resourceVersion: %v, want Conflict", err)
	}
}

func TestTwoCandidatesElectOneLeaderAndTheOtherTakesOverWhenItLeaves(t *testing.T) {
	s := newStore()
	var mu sync.Mutex
	leading := map[string]bool{}
	started := 0
	run := func(ctx context.Context, id string) chan struct{} {
		done := make(chan struct{})
		// The lease is long enough that a leader stalled on a busy
		// machine keeps it; the handover below does not wait for it to
		// run out, since the leader releases the lock as it leaves.
		le, err := leaderelection.NewLeaderElector(leaderelection.LeaderElectionConfig{
			Lock:            newLock(s, id),
			LeaseDuration:   60 * time.Second,
			RenewDeadline:   40 * time.Second,
			RetryPeriod:     100 * time.Millisecond,
			ReleaseOnCancel: true,
			Callbacks: leaderelection.LeaderCallbacks{
				OnStartedLeading: func(ctx context.Context) {
					mu.Lock()
					leading[id] = true
					started++
					mu.Unlock()
				},
				OnStoppedLeading: func() {
					mu.Lock()
					leading[id] = false
					mu.Unlock()
				},
			},
		})
		if err != nil {
			t.Fatal(err)
		}
		go func() {
			defer close(done)
			le.Run(ctx)
		}()
		return done
	}
	leaders := func() (n int, who string) {
		mu.Lock()
		defer mu.Unlock()
		for id, l := range leading {
			if l {
				n++
				who = id
			}
		}
		return n, who
	}

	cancel := map[string]context.CancelFunc{}
	done := map[string]chan struct{}{}
	for _, id := range []string{"a", "b"} {
		ctx, c := context.WithCancel(context.Background())
		defer c()
		cancel[id] = c
		done[id] = run(ctx, id)
	}
	watchtest.Eventually(t, "a leader", func() bool { n, _ := leaders(); return n == 1 })
	// Let both candidates retry many times: the follower must stay one.
	for i := 0; i < 10; i++ {
		time.Sleep(50 * time.Millisecond)
		if n, _ := leaders(); n != 1 {
			t.Fatalf("%d leaders at once", n)
		}
	}
	_, first := leaders()
	second := map[string]string{"a": "b", "b": "a"}[first]
	// The leader leaves and releases the lock; the other takes over.
	cancel[first]()
	<-done[first]
	watchtest.Eventually(t, "the other candidate to lead", func() bool {
		n, who := leaders()
		return n == 1 && who == second
	})
	cancel[second]()
	<-done[second]
	mu.Lock()
	defer mu.Unlock()
	if started != 2 {
		t.Errorf("leadership started %d times, want 2", started)
	}
}
