package leaderelection

import (
	"context"
	"flag"
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

// Config is a candidate's part in the election: whether it takes part,
// and how it paces it, as kube-controller-manager's --leader-elect flags
// say.
type Config struct {
	// Elect says whether to take part and act only while leading.
	Elect bool
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

// RegisterFlags registers on fs the flags that set c, with today's
// defaults, each help text ending in note: -leader_elect and its
// timings, spelled with the 2014 binaries' underscores where upstream has
// dashes (--leader-elect-lease-duration).
func RegisterFlags(fs *flag.FlagSet, note string) *Config {
	c := &Config{}
	fs.BoolVar(&c.Elect, "leader_elect", true, "Take part in a leader election and act only while leading"+note+".")
	fs.DurationVar(&c.LeaseDuration, "leader_elect_lease_duration", 15*time.Second, "How long a non-leader waits after the last renewal it saw before taking over"+note+".")
	fs.DurationVar(&c.RenewDeadline, "leader_elect_renew_deadline", 10*time.Second, "How long the leader keeps retrying a renewal before it gives up leading"+note+".")
	fs.DurationVar(&c.RetryPeriod, "leader_elect_retry_period", 2*time.Second, "How often candidates try to acquire or renew the lease"+note+".")
	return c
}

// Lead runs run while this process holds the lock, taken and renewed
// through c, and exits the process when it loses it; it does not return.
//
// Ours: upstream gives leader election a client of its own with
// "leader-election" appended to the user agent. Callers here pass a client
// named "leader-election" outright, so that the apiserver's per-component
// request counts keep lease renewals apart from the controllers' work.
func Lead(c client.Interface, cfg *Config, run func(ctx context.Context)) {
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
		LeaseDuration: cfg.LeaseDuration,
		RenewDeadline: cfg.RenewDeadline,
		RetryPeriod:   cfg.RetryPeriod,
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
