package e2e

import (
	"testing"

	"github.com/kube-rewind/kube-rewind/pkg/history"
	"github.com/kube-rewind/kube-rewind/pkg/lab/scenario"
	"github.com/kube-rewind/kube-rewind/pkg/lab/stack/designtest"
)

// unassertedEffects names the changes whose effect this test does not
// assert, and why: either no scenario of our stack shows it reliably, or
// the figure is a duration, which a busy machine may blur.
var unassertedEffects = map[string]string{
	"expectations": "whether a sync runs on a cache that has not yet seen its creates is a race of milliseconds on loopback: the default history run saw it at N=200, a quick one at N=100 did not (rcbench history reports what it measures)",
	"burst-cap":    "its figure is a goroutine peak, which shows only above 500 pods and moves with the machine's load",
	"qps":          "its figure is a duration",
}

// TestEveryFixShowsItsEffectWhenSwitchedOff runs, for each change of
// pkg/history that today's manager can run without, its scenario at the
// test size with the change and without it, and checks that the figure
// moves the way the catalogue says. Modern build only: the switches are
// the modern controller-manager's.
func TestEveryFixShowsItsEffectWhenSwitchedOff(t *testing.T) {
	t.Parallel()
	if designtest.Design != "modern" {
		t.Skip("the switches belong to the modern controller-manager")
	}
	for _, c := range history.Changes {
		if c.Scenario == "" || !c.Switchable() {
			continue
		}
		if why, ok := unassertedEffects[c.Name]; ok {
			t.Logf("%s: not asserted: %s", c.Name, why)
			continue
		}
		c := c
		t.Run(c.Name, func(t *testing.T) {
			t.Parallel()
			// Today's manager as it ships, client limit included: the
			// history run measures that, and an effect may need it: run
			// unthrottled, wait-for-caches showed no extra pod without
			// the change in one run of three.
			// Two changes shown by one scenario share the run with the
			// change (sharedRun); a figure that is a duration is
			// measured on two runs side by side instead, so that both
			// meet the same machine.
			off := scenario.Modern
			off.Name = "without-" + c.Name
			off.ManagerArgs = append(append([]string{}, off.ManagerArgs...), "-without="+c.Name)
			var with, without map[string]float64
			t.Run("pair", func(t *testing.T) {
				t.Run("with", func(t *testing.T) {
					t.Parallel()
					with = runVariant(t, c.Scenario, scenario.Modern, !timed[c.Figure])
				})
				t.Run("without", func(t *testing.T) {
					t.Parallel()
					without = runVariant(t, c.Scenario, off, false)
				})
			})
			if with == nil || without == nil {
				t.FailNow()
			}
			w, o := with[c.Figure], without[c.Figure]
			t.Logf("%s: %s with %.2f, without %.2f", c.Name, c.Figure, w, o)
			if c.WithoutMore && !(o > w) || !c.WithoutMore && !(o < w) {
				t.Errorf("%s: %s is %.2f with the change and %.2f without; want it %s without (%s)",
					c.Name, c.Figure, w, o, map[bool]string{true: "higher", false: "lower"}[c.WithoutMore], c.Without)
			}
		})
	}
}

// timed names the figures asserted above that are durations.
var timed = map[string]bool{"resize_to_running": true}

// runVariant runs a scenario at its test size and returns its results:
// shared, the run another test asks for too (sharedRun), or else one of
// its own.
func runVariant(t *testing.T, name string, v scenario.Variant, shared bool) map[string]float64 {
	t.Helper()
	if shared {
		return scenario.ResultMap(sharedRun(t, name, v, variantSize(name)))
	}
	results, err := runOnce(t, name, v, variantSize(name))
	if err != nil {
		t.Fatal(err)
	}
	return scenario.ResultMap(results)
}

// variantSize is the size runVariant runs a scenario at: its test size,
// with scale-up at 100 pods. The figures asserted there are request and
// pod counts, which 100 pods show as well as 1 000.
func variantSize(name string) scenario.Size {
	sz := testSizes[name]
	if name == "scale-up" {
		sz.Replicas = 100
	}
	return sz
}
