package loadtest

import (
	"os"
	"testing"

	"github.com/kube-rewind/kube-rewind/pkg/etcd/etcdtest"
)

var etcdURL string

func TestMain(m *testing.M) {
	os.Exit(etcdtest.MainWithEmbedded(m, &etcdURL))
}
