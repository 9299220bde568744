package scenario

import (
	"context"
	"time"

	"github.com/kube-rewind/kube-rewind/pkg/api"
	"github.com/kube-rewind/kube-rewind/pkg/api/errors"
	"github.com/kube-rewind/kube-rewind/pkg/client"
	"github.com/kube-rewind/kube-rewind/pkg/lab/stack"
	"github.com/kube-rewind/kube-rewind/pkg/labels"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/client-go/util/retry"
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

// WALReaderOf says whose log the laboratory's reader reads, "" without
// one.
func (o ourCluster) WALReaderOf() string { return o.st.WALReaderOf() }

func (o ourCluster) Processes() []*stack.Process { return o.st.Processes() }

// conflictBackoff spaces the writes of a Resize that keeps conflicting:
// 21 writes, 50 ms apart, about a second in all.
var conflictBackoff = wait.Backoff{Steps: 21, Duration: 50 * time.Millisecond, Factor: 1}

// retryConflicts runs write until it succeeds, fails otherwise than by a
// conflict, has run conflictBackoff.Steps times, or ctx ends, and returns
// the last error. Each write says itself whether its error was a conflict:
// ours is a pkg/api/errors status and today's an apimachinery one, and
// neither package's IsConflict knows the other's.
func retryConflicts(ctx context.Context, write func() (conflict bool, err error)) error {
	var conflict bool
	var err error
	// OnError returns the last error too, except one that wraps a
	// cancelled context, which it swaps for the conflict before it; err
	// keeps what the write said.
	retry.OnError(conflictBackoff, func(error) bool { return conflict }, func() error {
		// The backoff sleeps without ctx: a cancelled run stops at the
		// next write instead, 50 ms late at most.
		if conflict && ctx.Err() != nil {
			conflict, err = false, ctx.Err()
		} else {
			conflict, err = write()
		}
		return err
	})
	return err
}
