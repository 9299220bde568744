package tools

import (
	"fmt"
	"os"
	"testing"

	"github.com/kube-rewind/kube-rewind/pkg/etcd/etcdtest"
)

// etcdURL is the client URL of the embedded etcd member the tests of this
// package share, and sharedEtcd that member.
var (
	etcdURL    string
	sharedEtcd *etcdtest.Embedded
)

func TestMain(m *testing.M) {
	e, err := etcdtest.StartEmbedded()
	if err != nil {
		fmt.Fprintf(os.Stderr, "cannot start the embedded etcd for the tests: %v\n", err)
		os.Exit(1)
	}
	sharedEtcd, etcdURL = e, e.ClientURL()
	code := m.Run()
	CloseIdleConnections()
	e.Close()
	closeBenchServer()
	os.Exit(code)
}
