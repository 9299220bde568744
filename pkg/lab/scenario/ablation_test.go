package scenario

import (
	"strings"
	"testing"
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
		if !ok || base != parity.Name || got.Key != a.Key {
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
		StackOriginalParity.Name + "-with-" + AblateMeter,
	} {
		if _, err := VariantByName(bad); err == nil {
			t.Errorf("%s: no error", bad)
		}
	}
	if _, _, ok := AblationOf(StackTodayParity.Name); ok {
		t.Errorf("the parity variant itself is no ablation")
	}
}
