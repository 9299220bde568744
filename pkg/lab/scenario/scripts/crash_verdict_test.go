package scripts

import (
	"fmt"
	"strings"
	"testing"

	"github.com/kube-rewind/kube-rewind/pkg/etcd/etcdtest"
	"github.com/kube-rewind/kube-rewind/pkg/lab/scenario"
)

// TestTheCrashScenarioFailsARunThatLostAnythingOrEndedOffCount holds the
// scenario's verdict to what it claims: a run passes only with nothing
// lost or unreadable, something acknowledged to check, and exactly N pods
// at the end.
func TestTheCrashScenarioFailsARunThatLostAnythingOrEndedOffCount(t *testing.T) {
	sc, err := Get("crash")
	if err != nil {
		t.Fatal(err)
	}
	sz := crashSize(100, CrashAPIServer)
	good := func() map[string]float64 {
		return map[string]float64{"acked_creates": 60, "acked_binds": 100, "final_active": 100}
	}
	if err := sc.Script.Expect(scenario.Legacy, sz, good()); err != nil {
		t.Errorf("a clean run failed: %v", err)
	}
	for _, bad := range []string{"acked_lost", "binds_lost", "unreadable_objects"} {
		r := good()
		r[bad] = 1
		if sc.Script.Expect(scenario.Modern, sz, r) == nil {
			t.Errorf("a run with %s 1 passed", bad)
		}
	}
	for _, tc := range []struct{ figure, why string }{{"acked_creates", "nothing acknowledged to check"}, {"final_active", "no pod at the end"}} {
		r := good()
		r[tc.figure] = 0
		if sc.Script.Expect(scenario.Legacy, sz, r) == nil {
			t.Errorf("a run with %s passed", tc.why)
		}
	}
}

// TestTheCrashScenarioKillsEtcdMembersOnlyWhereThereAreSome: the full
// sizes add the runs on three external etcd members when an etcd binary
// is installed, each on three members and labelled by what is killed.
func TestTheCrashScenarioKillsEtcdMembersOnlyWhereThereAreSome(t *testing.T) {
	sc, err := Get("crash")
	if err != nil {
		t.Fatal(err)
	}
	describe := func(sizes []scenario.Size) string {
		var out []string
		for _, sz := range sizes {
			out = append(out, fmt.Sprintf("%s %s members %d", sz.Label, sz.Crash, sz.EtcdMembers))
		}
		return strings.Join(out, "; ")
	}
	if got := describe(sc.Sizes(true, false)); got != "N=100 apiserver members 0" {
		t.Errorf("quick sizes: %s", got)
	}
	want := "N=1000 apiserver members 0"
	if bin, _ := etcdtest.Binary(); bin != "" {
		want += "; N=1000,etcd3-one etcd-member members 3; N=1000,etcd3-all etcd-all members 3"
	}
	if got := describe(sc.Sizes(false, false)); got != want {
		t.Errorf("full sizes: %s, want %s", got, want)
	}
}
