package scenario

import (
	"strings"
	"testing"

	"github.com/kube-rewind/kube-rewind/pkg/lab/stack"
)

// TestAnAblationIsAParityRunWithOneThingSetOtherwise: each ablation's
// control run is its parity variant (today's, or v0.4's binaries') with
// only its one field changed, stands for no side, and no other variant
// has one.
func TestAnAblationIsAParityRunWithOneThingSetOtherwise(t *testing.T) {
	for _, a := range Ablations {
		parity := StackTodayParity
		if a.On == Originals {
			parity = StackOriginalParity
		}
		name := parity.Name + "-with-" + a.Key
		v, err := VariantByName(name)
		if err != nil {
			t.Fatal(err)
		}
		if v.Name != name || v.Ablation != a.Key || !v.Ablated(a.Key) || v.WholeStack != "" || !v.Parity {
			t.Errorf("%s: %+v", name, v)
		}
		// The meter is the one ablation a field of the variant sets.
		if v.Unmetered != (parity.Unmetered && a.Key != AblateMeter) {
			t.Errorf("%s: unmetered %t", name, v.Unmetered)
		}
		base, got, ok := AblationOf(name)
		if !ok || base != parity.Name || got != a {
			t.Errorf("AblationOf(%q) = %q, %q, %t", name, base, got.Key, ok)
		}
		if a.Low <= 0 || a.High < a.Low || a.Why == "" || a.Says == "" {
			t.Errorf("%s predicts nothing usable: %+v", a.Key, a)
		}
		if !strings.Contains(Help(), a.Key) {
			t.Errorf("the variants' help leaves out %s", a.Key)
		}
	}
	for _, bad := range []string{
		LegacyParity.Name + "-with-meter",
		StackTodayUnthrottled.Name + "-with-meter",
		StackTodayParity.Name + "-with-no-such-thing",
		StackTodayParity.Name + "-with-meter-with-sparse-nodes",
		StackTodayParity.Name + "-with-" + AblateSerialBinds,
		StackOriginalParity.Name + "-with-" + AblateDirectBinder,
		LegacyParity.Name + "-with-" + AblateSparseNodes,
	} {
		if _, err := VariantByName(bad); err == nil {
			t.Errorf("%s: no error", bad)
		}
	}
	if _, _, ok := AblationOf(StackTodayParity.Name); ok {
		t.Errorf("the parity variant itself is no ablation")
	}
}

// TestAKeyNamesOneAblationForEachLauncher: the meter and the sparse nodes
// are ablated on both today's stack and v0.4's binaries, each with its
// own prediction, and the control run's name finds the one of its
// launcher.
func TestAKeyNamesOneAblationForEachLauncher(t *testing.T) {
	for _, key := range []string{AblateMeter, AblateSparseNodes} {
		_, today, ok1 := AblationOf(StackTodayParity.Name + "-with-" + key)
		_, v04, ok2 := AblationOf(StackOriginalParity.Name + "-with-" + key)
		if !ok1 || !ok2 || today.on() != TodayStack || v04.on() != Originals || today.Why == v04.Why {
			t.Errorf("%s: today's %+v, v0.4's %+v", key, today, v04)
		}
	}
	// At parity v0.4's apiserver has no meter, and its control run puts
	// it back.
	v, err := VariantByName(StackOriginalParity.Name + "-with-" + AblateMeter)
	if err != nil || v.Unmetered || !StackOriginalParity.Unmetered || StackOriginalParity.CountsRequests() || !v.CountsRequests() {
		t.Errorf("the meter of v0.4's parity: %+v, %v", v, err)
	}
	// Ten times the nodes, on either stack.
	sc, sz := &Scenario{Cluster: stack.Config{Nodes: 10}}, Size{Replicas: 1000}
	for _, name := range []string{StackTodayParity.Name, StackOriginalParity.Name} {
		v, err := VariantByName(name + "-with-" + AblateSparseNodes)
		if err != nil {
			t.Fatal(err)
		}
		base, _ := VariantByName(name)
		if got, want := v.parityNodes(sc, sz), 10*base.parityNodes(sc, sz); got != want || want != 100 {
			t.Errorf("%s: %d nodes with sparse nodes, want %d", name, got, want)
		}
	}
}
