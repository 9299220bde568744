package scenario

import (
	"context"
	"time"

	"github.com/kube-rewind/kube-rewind/pkg/api"
	"github.com/kube-rewind/kube-rewind/pkg/api/errors"
	"github.com/kube-rewind/kube-rewind/pkg/client"
	"github.com/kube-rewind/kube-rewind/pkg/lab/stack"
	"github.com/kube-rewind/kube-rewind/pkg/labels"
)

// Cluster is the control plane a scenario's steps act on, whichever stack
// runs it: ours, reached with our 2014 client (ourCluster), or today's,
// with v1 objects through client-go (todayCluster, today.go). Steps that
// need no more than this run on both; the sampler reads both the same way
// (sampler.Cluster).
type Cluster interface {
	// CreateController creates a replication controller, given as 2014's.
	CreateController(ctx context.Context, rc *api.ReplicationController) error
	// Resize sets a controller's replicas as kubecfg resize does (read,
	// then write), reading again when it changed in between.
	Resize(ctx context.Context, id string, replicas int) error
	// Desired returns the sum of every controller's replicas, read from
	// the apiserver as the scenario's client.
	Desired(ctx context.Context) (int, error)
	// Stop stops every process the cluster started.
	Stop()
	// Processes are the processes the cluster started, to name one that
	// exited by itself when a step fails.
	Processes() []*stack.Process
}

// ourCluster is our stack and the scenario's client of it.
type ourCluster struct {
	st *stack.Stack
	c  client.Interface
}

func (o ourCluster) CreateController(ctx context.Context, rc *api.ReplicationController) error {
	_, err := o.c.CreateReplicationController(api.WithNamespace(ctx, api.NamespaceDefault), rc)
	return err
}

func (o ourCluster) Resize(ctx context.Context, id string, replicas int) error {
	return retryConflicts(ctx, func() (bool, error) {
		rc, err := o.c.GetReplicationController(api.NewDefaultContext(), id)
		if err != nil {
			return false, err
		}
		rc.DesiredState.Replicas = replicas
		_, err = o.c.UpdateReplicationController(api.NewDefaultContext(), rc)
		return errors.IsConflict(err), err
	})
}

func (o ourCluster) Desired(ctx context.Context) (int, error) {
	list, err := o.c.ListReplicationControllers(api.WithNamespace(ctx, api.NamespaceDefault), labels.Everything())
	if err != nil {
		return 0, err
	}
	n := 0
	for _, rc := range list.Items {
		n += rc.DesiredState.Replicas
	}
	return n, nil
}

func (o ourCluster) Stop() { o.st.Stop() }

func (o ourCluster) Processes() []*stack.Process { return o.st.Processes() }

// retryConflicts runs write until it succeeds, fails otherwise than by a
// conflict, or has conflicted 20 times, 50 ms apart.
func retryConflicts(ctx context.Context, write func() (conflict bool, err error)) error {
	for attempt := 0; ; attempt++ {
		conflict, err := write()
		if err == nil || !conflict || attempt >= 20 {
			return err
		}
		if err := Sleep(ctx, 50*time.Millisecond); err != nil {
			return err
		}
	}
}
