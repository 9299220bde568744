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

// MainWithEmbedded is the body of a TestMain that shares one embedded
// member among all tests of a package: it starts the member, puts its
// client URL in *clientURL, runs the tests and stops the member. It returns
// the exit code for os.Exit.
func MainWithEmbedded(m *testing.M, clientURL *string) int {
	return MainWithMember(m, func(e *Embedded) { *clientURL = e.ClientURL() })
}

// MainWithMember is MainWithEmbedded for tests that need the member itself
// (to dial it in process, say): started gets it before the tests run.
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
