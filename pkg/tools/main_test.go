package tools

import (
	"os"
	"testing"

	"github.com/kube-rewind/kube-rewind/pkg/etcd/etcdtest"
)

// etcdURL is the client URL of the embedded etcd member the tests of this
// package share.
var etcdURL string

func TestMain(m *testing.M) {
	code := etcdtest.MainWithEmbedded(m, &etcdURL)
	closeBenchServer()
	os.Exit(code)
}
