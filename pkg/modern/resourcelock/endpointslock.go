package resourcelock

import (
	"context"
	"encoding/json"
	"errors"
	"sync"

	"github.com/golang/glog"
	"github.com/kube-rewind/kube-rewind/pkg/api"
	"github.com/kube-rewind/kube-rewind/pkg/client"
	"github.com/kube-rewind/kube-rewind/pkg/modern/conversion"
	rl "k8s.io/client-go/tools/leaderelection/resourcelock"
)

// EndpointsLock keeps the leader election record in the annotation
// control-plane.alpha.kubernetes.io/leader of the Endpoints object
// Namespace/Name.
type EndpointsLock struct {
	Namespace  string
	Name       string
	Client     client.EndpointsInterface
	LockConfig rl.ResourceLockConfig

	// e is the lock object as last read or written; Update writes at its
	// resourceVersion.
	mu sync.Mutex
	e  *api.Endpoints
}

var _ rl.Interface = &EndpointsLock{}

func (el *EndpointsLock) ctx(ctx context.Context) api.Context {
	return api.WithNamespace(ctx, el.Namespace)
}

// Get reads the record. A missing object is an apimachinery NotFound, which
// tells the elector to Create; an object without the annotation holds an
// empty record, which anyone may take.
func (el *EndpointsLock) Get(ctx context.Context) (*rl.LeaderElectionRecord, []byte, error) {
	e, err := el.Client.GetEndpoints(el.ctx(ctx), el.Name)
	if err != nil {
		return nil, nil, conversion.Error(err)
	}
	el.mu.Lock()
	el.e = e
	el.mu.Unlock()
	var record rl.LeaderElectionRecord
	raw := e.Annotations[rl.LeaderElectionRecordAnnotationKey]
	if raw != "" {
		if err := json.Unmarshal([]byte(raw), &record); err != nil {
			return nil, nil, err
		}
	}
	return &record, []byte(raw), nil
}

// Create creates the lock object holding ler. If another candidate created
// it first, the apiserver answers 409 and this candidate tries again at its
// next retry.
func (el *EndpointsLock) Create(ctx context.Context, ler rl.LeaderElectionRecord) error {
	raw, err := json.Marshal(ler)
	if err != nil {
		return err
	}
	e, err := el.Client.CreateEndpoints(el.ctx(ctx), &api.Endpoints{TypeMeta: api.TypeMeta{
		ID:          el.Name,
		Namespace:   el.Namespace,
		Annotations: map[string]string{rl.LeaderElectionRecordAnnotationKey: string(raw)},
	}})
	if err != nil {
		return conversion.Error(err)
	}
	el.mu.Lock()
	el.e = e
	el.mu.Unlock()
	return nil
}

// Update writes ler at the resourceVersion last seen. If anyone wrote the
// object since, the apiserver refuses with a conflict and this candidate is
// not the leader: the compare-and-swap is what makes the election safe.
func (el *EndpointsLock) Update(ctx context.Context, ler rl.LeaderElectionRecord) error {
	el.mu.Lock()
	current := el.e
	el.mu.Unlock()
	if current == nil {
		return errors.New("endpoints lock not initialized, call get or create first")
	}
	raw, err := json.Marshal(ler)
	if err != nil {
		return err
	}
	next := *current
	next.Annotations = make(map[string]string, len(current.Annotations)+1)
	for k, v := range current.Annotations {
		next.Annotations[k] = v
	}
	next.Annotations[rl.LeaderElectionRecordAnnotationKey] = string(raw)
	e, err := el.Client.UpdateEndpoints(el.ctx(ctx), &next)
	if err != nil {
		return conversion.Error(err)
	}
	el.mu.Lock()
	el.e = e
	el.mu.Unlock()
	return nil
}

// RecordEvent logs a leadership change.
//
// Ours: upstream records an Event on the lock object; the 2014 API has no
// events.
func (el *EndpointsLock) RecordEvent(s string) {
	glog.Infof("leader election: %s %s (%s)", el.LockConfig.Identity, s, el.Describe())
}

// Describe names the lock object.
func (el *EndpointsLock) Describe() string {
	return el.Namespace + "/" + el.Name
}

// Identity returns this candidate's identity.
func (el *EndpointsLock) Identity() string {
	return el.LockConfig.Identity
}
