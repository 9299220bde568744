package runner

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/kube-rewind/kube-rewind/pkg/etcd/etcdtest"
	"github.com/kube-rewind/kube-rewind/pkg/lab/bench/results"
	"github.com/kube-rewind/kube-rewind/pkg/lab/scenario"
	"github.com/kube-rewind/kube-rewind/pkg/lab/scenario/scripts"
	"github.com/kube-rewind/kube-rewind/pkg/lab/stack/stacktest"
)

// requireEtcd skips t without an etcd binary, or fails it where
// KUBE_REWIND_REQUIRE_ETCD=1 (CI), as the other external-etcd tests do.
func requireEtcd(t *testing.T) {
	t.Helper()
	if _, reason := etcdtest.Binary(); reason != "" {
		if os.Getenv(etcdtest.RequireEnv) == "1" {
			t.Fatalf("%s=1 but %s", etcdtest.RequireEnv, reason)
		}
		t.Skipf("skipping: %s (set %s=1 to make this a failure)", reason, etcdtest.RequireEnv)
	}
}

func TestAScaleUpOnThreeExternalEtcdMembersConvergesAndLeavesNoData(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a real cluster and three etcd members")
	}
	requireEtcd(t)
	bin := stacktest.BinDir(t)
	runDir := filepath.Join(t.TempDir(), "run")
	r := New(Options{BinDir: bin}, nil)
	urls, read, stop, err := r.externalEtcd(runDir, 3)
	if err != nil {
		t.Fatal(err)
	}
	defer stop()
	if len(urls) != 3 {
		t.Fatalf("client URLs %v, want three", urls)
	}
	sc, err := scripts.Get("scale-up")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	sz := scenario.Size{Label: "N=100,etcd3", Replicas: 100, Period: 10 * time.Second}
	out, err := scenario.Run(ctx, sc, scenario.Legacy, sz, scenario.Options{BinDir: bin, Dir: runDir, EtcdServers: urls, ReadMember: read})
	if err != nil {
		t.Fatal(err)
	}
	// The laboratory read the last member's log, asking it for its
	// commit index, and says so.
	if want := "member " + read.Name + " of the 3"; !strings.HasPrefix(out.ReaderOf, want) {
		t.Errorf("the laboratory read %q, want %s's log", out.ReaderOf, want)
	}
	if lab := labShare(out); lab.Reader != results.ReaderWAL {
		t.Errorf("the laboratory read pods with %q, want the log's reader", lab.Reader)
	}
	if res := scenario.ResultMap(out.Results); res["manager_bytes"] <= 0 {
		t.Errorf("the manager's bytes were not counted: %v", res["manager_bytes"])
	}
	if _, err := os.Stat(filepath.Join(runDir, "etcd")); !os.IsNotExist(err) {
		t.Errorf("the apiserver kept an embedded etcd's data beside the external members: %v", err)
	}
	stop()
	if _, err := os.Stat(filepath.Join(runDir, "etcd3")); !os.IsNotExist(err) {
		t.Errorf("the members' data outlived the run: %v", err)
	}
}
