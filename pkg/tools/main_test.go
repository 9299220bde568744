package tools

import (
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
	code := etcdtest.MainWithMember(m, func(e *etcdtest.Embedded) { sharedEtcd, etcdURL = e, e.ClientURL() })
	closeBenchServer()
	os.Exit(code)
}
