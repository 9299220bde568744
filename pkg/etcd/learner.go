package etcd

import (
	"context"
	"fmt"
	"os"
	"strings"
	"time"

	clientv3 "go.etcd.io/etcd/client/v3"
	"go.uber.org/zap"
)

// Ours: the laboratory's reader. A member that joins the cluster as a
// learner receives every write the voting members commit, applies it to
// a v2 store of its own with etcd's window of the last 1000 events, and
// serves watches from that store; it never votes, so no write waits for
// it. The laboratory's pod watches (the hollow nodes', the benchmark's)
// read a learner in a process of the laboratory's, not the member the
// apiserver stores in: that member shares its process with the
// apiserver, and in the burst of a scale-up neither etcd's stream watch
// (dropped as soon as 100 events wait for its handler) nor a long poll
// (one request an event, each waiting its turn behind the burst) kept up
// with 1000 events there. The voting members pay for the learner what
// they pay a follower: the entries they commit, sent in batches; the
// apiserver's own watches and reads still go to them, as in 2014. The
// laboratory sees a change once the leader's message carrying it has
// reached the learner and been applied, a little after the apiserver's
// own watches could.

// StartLearner adds a member to the cluster whose client URLs are members,
// as a learner, and runs it in this process, ready once it has joined;
// cfg.DataDir must be new, and cfg.PeerPort a free port. Close stops it and
// takes it out of the cluster again (etcd takes one learner at a time).
func StartLearner(cfg Config, members []string) (*Server, error) {
	if cfg.DataDir == "" {
		return nil, fmt.Errorf("etcd: a data directory is required")
	}
	if err := os.MkdirAll(cfg.DataDir, 0o700); err != nil {
		return nil, fmt.Errorf("etcd: cannot create data directory: %v", err)
	}
	if cfg.PeerPort == 0 {
		// The cluster must know the learner's peer URL before it runs.
		return nil, fmt.Errorf("etcd: a learner needs its peer port chosen")
	}
	name := fmt.Sprintf("learner-%d-%d", os.Getpid(), cfg.PeerPort)
	ec, lists := newConfig(cfg, name)
	c, err := clientv3.New(clientv3.Config{Endpoints: members, DialTimeout: 10 * time.Second, Logger: zap.NewNop()})
	if err != nil {
		return nil, fmt.Errorf("etcd: cannot reach the cluster at %v to join it: %v", members, err)
	}
	defer c.Close()
	peer := loopbackURL(cfg.PeerPort)
	var added *clientv3.MemberAddResponse
	// A cluster that has just started, or just lost a member, refuses a
	// new one for a moment: it is asked again for up to 30 s.
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(200 * time.Millisecond) {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		added, err = c.MemberAddAsLearner(ctx, []string{peer.String()})
		cancel()
		if err == nil {
			break
		}
		if time.Now().After(deadline) {
			return nil, fmt.Errorf("etcd: the cluster at %v did not take a learner: %v", members, err)
		}
	}
	var initial []string
	for _, m := range added.Members {
		n := m.Name
		if m.ID == added.Member.ID {
			n = name
		}
		if n == "" {
			continue // a member added and not yet started
		}
		for _, u := range m.PeerURLs {
			initial = append(initial, n+"="+u)
		}
	}
	ec.InitialCluster = strings.Join(initial, ",")
	ec.ClusterState = "existing"
	srv, err := serve(ec, lists, cfg)
	if err != nil {
		removeMember(members, added.Member.ID)
		return nil, err
	}
	srv.leave = func() { removeMember(members, added.Member.ID) }
	return srv, nil
}

// removeMember takes member id out of the cluster at members, if it
// answers within a few seconds: a cluster someone else runs is left as the
// learner found it, and one the laboratory stopped does not matter.
func removeMember(members []string, id uint64) {
	c, err := clientv3.New(clientv3.Config{Endpoints: members, DialTimeout: 2 * time.Second, Logger: zap.NewNop()})
	if err != nil {
		return
	}
	defer c.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	c.MemberRemove(ctx, id)
}
