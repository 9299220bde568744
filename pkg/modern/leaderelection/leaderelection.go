package leaderelection

import (
	"context"
	"os"
	"time"

	"github.com/golang/glog"
	"github.com/google/uuid"
	"github.com/kube-rewind/kube-rewind/pkg/api"
	"github.com/kube-rewind/kube-rewind/pkg/client"
	"github.com/kube-rewind/kube-rewind/pkg/modern/resourcelock"
	"k8s.io/client-go/tools/leaderelection"
	rl "k8s.io/client-go/tools/leaderelection/resourcelock"
)

// Timing is how a candidate paces the election, as
// kube-controller-manager's --leader-elect-* flags do.
type Timing struct {
	// LeaseDuration is how long a non-leader waits after the last renewal
	// it saw before taking over.
	LeaseDuration time.Duration
	// RenewDeadline is how long the leader keeps retrying a renewal before
	// it gives up leading.
	RenewDeadline time.Duration
	// RetryPeriod is how often candidates try to acquire or renew the
	// lease.
	RetryPeriod time.Duration
}

// Lead runs run while this process holds the lock, taken and renewed
// through c, and exits the process when it loses it; it does not return.
//
// Ours: upstream gives leader election a client of its own with
// "leader-election" appended to the user agent. Callers here pass a client
// named "leader-election" outright, so that the apiserver's per-component
// request counts keep lease renewals apart from the controllers' work.
func Lead(c client.Interface, t Timing, run func(ctx context.Context)) {
	hostname, err := os.Hostname()
	if err != nil {
		glog.Fatalf("cannot name this candidate: %v", err)
	}
	// The hostname alone would let two managers on one machine (every
	// demo here) claim to be the same leader.
	id := hostname + "_" + uuid.New().String()
	// Ours: the lock lives in the default namespace; kube-system came
	// later than 2014's API, which has no namespace besides default.
	lock := &resourcelock.EndpointsLock{
		Namespace:  api.NamespaceDefault,
		Name:       "kube-controller-manager",
		Client:     c,
		LockConfig: rl.ResourceLockConfig{Identity: id},
	}
	glog.Infof("leader election as %s on endpoints %s", id, lock.Describe())
	leaderelection.RunOrDie(context.Background(), leaderelection.LeaderElectionConfig{
		Lock:          lock,
		LeaseDuration: t.LeaseDuration,
		RenewDeadline: t.RenewDeadline,
		RetryPeriod:   t.RetryPeriod,
		Name:          "kube-controller-manager",
		Callbacks: leaderelection.LeaderCallbacks{
			OnStartedLeading: func(ctx context.Context) {
				glog.Infof("leading as %s: starting controllers", id)
				run(ctx)
			},
			// A manager that lost its lease may still have requests in
			// flight and caches others no longer trust; like upstream,
			// it exits and lets its supervisor start it afresh.
			OnStoppedLeading: func() {
				glog.Errorf("leader election lost by %s; exiting", id)
				glog.Flush()
				os.Exit(1)
			},
		},
	})
}
