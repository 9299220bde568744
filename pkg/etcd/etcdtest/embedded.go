package etcdtest

import (
	"fmt"
	"os"
	"testing"

	"github.com/kube-rewind/kube-rewind/pkg/etcd"
)

// Embedded is an embedded etcd member living in a temporary directory.
type Embedded struct {
	*etcd.Server
	dir string
}

// StartEmbedded starts a member with fast ticks and without fsync in a new
// temporary directory.
func StartEmbedded() (*Embedded, error) {
	dir, err := os.MkdirTemp("", "kube-rewind-etcd-")
	if err != nil {
		return nil, err
	}
	s, err := etcd.Start(etcd.Config{DataDir: dir, FastTicks: true, NoFsync: true})
	if err != nil {
		os.RemoveAll(dir)
		return nil, err
	}
	return &Embedded{Server: s, dir: dir}, nil
}

// Close stops the member and removes its directory.
func (e *Embedded) Close() {
	e.Server.Close()
	os.RemoveAll(e.dir)
}

// New starts a member for one test and stops it, removing its directory,
// when the test ends. Cleanups registered after New run before it: a
// client of the member closes its idle connections there
// (tools.CloseIdleConnections), or Close waits for them to time out.
func New(tb testing.TB) *Embedded {
	tb.Helper()
	e, err := StartEmbedded()
	if err != nil {
		tb.Fatalf("cannot start an embedded etcd for the test: %v", err)
	}
	tb.Cleanup(e.Close)
	return e
}

// MainWithMember is the body of a TestMain that shares one embedded member
// among all tests of a package, for tests that need a member that outlives
// each of them (a server started once, say): it starts the member, hands it
// to started, runs the tests and stops the member. It returns the exit code
// for os.Exit.
func MainWithMember(m *testing.M, started func(*Embedded)) int {
	e, err := StartEmbedded()
	if err != nil {
		fmt.Fprintf(os.Stderr, "cannot start the embedded etcd for the tests: %v\n", err)
		return 1
	}
	defer e.Close()
	started(e)
	return m.Run()
}
