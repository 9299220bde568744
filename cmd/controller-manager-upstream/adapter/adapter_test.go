package adapter

import (
	"context"
	"sync"
	"testing"

	"github.com/kube-rewind/kube-rewind/pkg/api"
	apierrors "github.com/kube-rewind/kube-rewind/pkg/api/errors"
	"github.com/kube-rewind/kube-rewind/pkg/client"
	"github.com/prometheus/client_golang/prometheus"
	v1 "k8s.io/api/core/v1"
	k8serrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/client-go/tools/record"
	"k8s.io/kubernetes/pkg/controller"
)

// podStore is our client over one stored pod: GETs read it, PUTs replace
// it when they carry its resourceVersion (409 otherwise), as the
// apiserver's compare-and-swap does. beforePut, when set, runs before the
// first PUT, to let another writer in between.
type podStore struct {
	*client.Fake
	mu        sync.Mutex
	pod       api.Pod
	gets      int
	puts      int
	beforePut func(*api.Pod)
}

func (s *podStore) GetPod(ctx api.Context, id string) (*api.Pod, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.gets++
	if id != s.pod.ID {
		return nil, apierrors.NewNotFound("pod", id)
	}
	out := s.pod
	return &out, nil
}

func (s *podStore) UpdatePod(ctx api.Context, pod *api.Pod) (*api.Pod, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.puts++
	if s.beforePut != nil {
		s.beforePut(&s.pod)
		s.beforePut = nil
	}
	if pod.ResourceVersion != s.pod.ResourceVersion {
		return nil, apierrors.NewConflict("pod", pod.ID, nil)
	}
	s.pod = *pod
	s.pod.ResourceVersion++
	out := s.pod
	return &out, nil
}

func (s *podStore) owners() []api.OwnerReference {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.pod.OwnerReferences
}

// claimer is upstream's own adopt-and-release code for a replication
// controller, making its patches through the adapter.
func claimer(cs *Clientset) (*controller.PodControllerRefManager, *v1.ReplicationController) {
	rc := &v1.ReplicationController{ObjectMeta: metav1.ObjectMeta{Name: "web", Namespace: "default", UID: "rc-uid"}}
	podControl := controller.RealPodControl{KubeClient: cs, Recorder: record.NewFakeRecorder(10)}
	m := controller.NewPodControllerRefManager(podControl, rc, labels.SelectorFromSet(labels.Set{"app": "web"}),
		v1.SchemeGroupVersion.WithKind("ReplicationController"), func(context.Context) error { return nil })
	return m, rc
}

func orphan() api.Pod {
	return api.Pod{
		TypeMeta: api.TypeMeta{ID: "p1", Namespace: "default", UID: "pod-uid", ResourceVersion: 7},
		Labels:   map[string]string{"app": "web"},
	}
}

// TestUpstreamAdoptsAndReleasesAPodThroughThePatchEmulation runs
// upstream's AdoptPod and ReleasePod against the adapter: each
// strategic-merge patch is applied to the pod as read and written back
// at its resourceVersion, so the pod gains upstream's ControllerRef and
// loses it again, other owners untouched.
func TestUpstreamAdoptsAndReleasesAPodThroughThePatchEmulation(t *testing.T) {
	t.Parallel()
	yes := true
	store := &podStore{Fake: &client.Fake{}, pod: orphan()}
	store.pod.OwnerReferences = []api.OwnerReference{{APIVersion: "v1", Kind: "Thing", Name: "t", UID: "thing-uid"}}
	cs := New(store, NewMetrics(prometheus.NewRegistry()))
	m, rc := claimer(cs)
	ctx := context.Background()
	pod, err := cs.CoreV1().Pods("default").Get(ctx, "p1", metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}

	if err := m.AdoptPod(ctx, pod); err != nil {
		t.Fatalf("AdoptPod: %v", err)
	}
	refs := map[string]api.OwnerReference{}
	for _, r := range store.owners() {
		refs[r.UID] = r
	}
	ref, added := refs[string(rc.UID)]
	if _, kept := refs["thing-uid"]; len(refs) != 2 || !kept || !added {
		t.Fatalf("after adoption the pod's owners are %+v, want the Thing kept and the controller added", store.owners())
	}
	if ref.UID != string(rc.UID) || ref.Kind != "ReplicationController" || ref.APIVersion != "v1" || ref.Controller == nil || !*ref.Controller ||
		ref.BlockOwnerDeletion == nil || *ref.BlockOwnerDeletion != yes {
		t.Errorf("ControllerRef written %+v, want upstream's for rc-uid", ref)
	}

	if err := m.ReleasePod(ctx, pod); err != nil {
		t.Fatalf("ReleasePod: %v", err)
	}
	if refs := store.owners(); len(refs) != 1 || refs[0].UID != "thing-uid" {
		t.Errorf("after release the pod's owners are %+v, want only the Thing", refs)
	}
	if store.gets != 3 || store.puts != 2 {
		t.Errorf("%d GETs and %d PUTs, want a GET and a PUT per patch besides the first GET", store.gets, store.puts)
	}
}

// TestAPatchThatMeetsANewerPodIsAppliedToItAgain checks the retry a v1
// apiserver makes inside its storage: the PUT conflicts with a write that
// came in between, so the patch is applied again to the newer pod, whose
// change survives.
func TestAPatchThatMeetsANewerPodIsAppliedToItAgain(t *testing.T) {
	t.Parallel()
	store := &podStore{Fake: &client.Fake{}, pod: orphan()}
	store.beforePut = func(p *api.Pod) {
		p.Labels = map[string]string{"app": "web", "tier": "front"}
		p.ResourceVersion++
	}
	reg := prometheus.NewRegistry()
	metrics := NewMetrics(reg)
	cs := New(store, metrics)
	m, _ := claimer(cs)
	pod, _ := cs.CoreV1().Pods("default").Get(context.Background(), "p1", metav1.GetOptions{})
	if err := m.AdoptPod(context.Background(), pod); err != nil {
		t.Fatalf("AdoptPod: %v", err)
	}
	if store.pod.Labels["tier"] != "front" || len(store.owners()) != 1 {
		t.Errorf("pod after the retried patch: labels %v, owners %+v; want the other writer's label and the ControllerRef", store.pod.Labels, store.owners())
	}
	if store.puts != 2 {
		t.Errorf("%d PUTs, want the conflicting one and its retry", store.puts)
	}
}

// TestAPatchForAPodRecreatedUnderItsNameIsInvalid checks the uid in
// upstream's patches: applied to a pod of the same name but another uid,
// it would change an immutable field, and comes back 422 as from a v1
// apiserver. Upstream then skips the adoption, or counts the release as
// done.
func TestAPatchForAPodRecreatedUnderItsNameIsInvalid(t *testing.T) {
	t.Parallel()
	store := &podStore{Fake: &client.Fake{}, pod: orphan()}
	cs := New(store, NewMetrics(prometheus.NewRegistry()))
	m, _ := claimer(cs)
	stale, _ := cs.CoreV1().Pods("default").Get(context.Background(), "p1", metav1.GetOptions{})
	stale.UID = "old-uid"
	err := m.AdoptPod(context.Background(), stale)
	if !k8serrors.IsInvalid(err) {
		t.Errorf("adopting a pod recreated since: %v, want 422 Invalid", err)
	}
	if err := m.ReleasePod(context.Background(), stale); err != nil {
		t.Errorf("releasing a pod recreated since: %v, want nil (upstream ignores Invalid)", err)
	}
	if store.puts != 0 || len(store.owners()) != 0 {
		t.Errorf("%d PUTs, owners %+v: want the pod untouched", store.puts, store.owners())
	}
}
