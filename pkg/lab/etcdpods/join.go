package etcdpods

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/kube-rewind/kube-rewind/pkg/etcd"
	clientv3 "go.etcd.io/etcd/client/v3"
	"go.uber.org/zap"
	"k8s.io/apimachinery/pkg/util/wait"
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

// learner is a member run in this process as a learner of a cluster.
type learner struct {
	*etcd.Server
	// leave takes it out of its cluster.
	leave func()
}

// startLearner adds a member to the cluster whose client URLs are members,
// as a learner, and runs it in this process with its data in dir (new),
// its peer listener on peerPort (free, on loopback) and its client
// listener on clientPort (0: any free one), ready once it
// has joined; handlers are served on its client listener. Close stops it
// and takes it out of the cluster again (etcd takes one learner at a
// time).
func startLearner(members []string, dir string, peerPort, clientPort int, handlers map[string]http.Handler) (*learner, error) {
	if peerPort == 0 {
		// The cluster must know the learner's peer URL before it runs.
		return nil, fmt.Errorf("a learner needs its peer port chosen")
	}
	c, err := clientv3.New(clientv3.Config{Endpoints: members, DialTimeout: 10 * time.Second, Logger: zap.NewNop()})
	if err != nil {
		return nil, fmt.Errorf("cannot reach the etcd cluster at %v to join it: %v", members, err)
	}
	defer c.Close()
	name := fmt.Sprintf("learner-%d-%d", os.Getpid(), peerPort)
	peer := "http://127.0.0.1:" + strconv.Itoa(peerPort)
	var added *clientv3.MemberAddResponse
	var refused error
	// A cluster that has just started, or just lost a member, refuses a
	// new one for a moment: it is asked again for up to 30 s. A member
	// that joins before the cluster has decided its version refuses to
	// start ("incompatible with current running cluster": it finds no
	// member with a version to check its own against), so the cluster is
	// first asked for its version, as long.
	wait.PollUntilContextTimeout(context.Background(), 200*time.Millisecond, 30*time.Second, true, func(ctx context.Context) (bool, error) {
		ctx, cancel := context.WithTimeout(ctx, 5*time.Second)
		defer cancel()
		if refused = versionDecided(ctx, members); refused != nil {
			return false, nil
		}
		added, refused = c.MemberAddAsLearner(ctx, []string{peer})
		return refused == nil, nil
	})
	if refused != nil {
		return nil, fmt.Errorf("the etcd cluster at %v did not take a learner: %v", members, refused)
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
	srv, err := etcd.Start(etcd.Config{DataDir: dir, PeerPort: peerPort, ClientPort: clientPort, NoFsync: true,
		Name: name, Join: strings.Join(initial, ","), Handlers: handlers})
	if err != nil {
		removeMember(members, added.Member.ID)
		return nil, err
	}
	return &learner{Server: srv, leave: func() { removeMember(members, added.Member.ID) }}, nil
}

// versionDecided says whether a member of members answers with the
// cluster's version, which a single member decides a moment after it
// starts; before that it answers "not_decided".
func versionDecided(ctx context.Context, members []string) error {
	var last error
	for _, m := range members {
		req, err := http.NewRequestWithContext(ctx, "GET", strings.TrimSuffix(m, "/")+"/version", nil)
		if err != nil {
			return err
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			last = err
			continue
		}
		var v struct {
			Cluster string `json:"etcdcluster"`
		}
		err = json.NewDecoder(resp.Body).Decode(&v)
		resp.Body.Close()
		if err == nil && v.Cluster != "" && v.Cluster != "not_decided" {
			return nil
		}
		last = fmt.Errorf("%s: the cluster's version is not decided yet (%q, %v)", m, v.Cluster, err)
	}
	return last
}

// Close stops the learner and takes it out of its cluster.
func (l *learner) Close() {
	l.Server.Close()
	l.leave()
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
