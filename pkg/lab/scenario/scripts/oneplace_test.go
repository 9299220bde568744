package scripts_test

import (
	"bytes"
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/kube-rewind/kube-rewind/pkg/lab/bench"
	"github.com/kube-rewind/kube-rewind/pkg/lab/bench/benchtest"
	"github.com/kube-rewind/kube-rewind/pkg/lab/bench/runner"
	"github.com/kube-rewind/kube-rewind/pkg/lab/demo"
	"github.com/kube-rewind/kube-rewind/pkg/lab/demo/live"
	"github.com/kube-rewind/kube-rewind/pkg/lab/scenario"
	"github.com/kube-rewind/kube-rewind/pkg/lab/scenario/scripts"
	"github.com/kube-rewind/kube-rewind/pkg/lab/stack"
)

// drainScript deletes nothing: the test only reads what is said of the
// scenario, never runs it.
type drainScript struct{}

func (drainScript) Steps(sz scenario.Size) []scenario.Step {
	return []scenario.Step{{Title: "Drain", Say: "Nothing happens.", Run: func(context.Context, *scenario.Env) error { return nil }}}
}

func (drainScript) Results(*scenario.Env) []scenario.Result { return nil }

func (drainScript) Expect(scenario.Variant, scenario.Size, map[string]float64) error { return nil }

// TestANewScenarioNeedsNothingButItsScript adds a scenario no package has
// heard of to the catalogue, as a new script file would, and finds it in
// make bench's default plan on its own variants, sizes and runs, on talk
// mode's page measured as it says, and in make demo's list with its
// length.
func TestANewScenarioNeedsNothingButItsScript(t *testing.T) {
	scripts.Register(t, &scenario.Scenario{
		Name:       "drain",
		Figure:     "pod_deletes",
		Live:       scenario.LiveFigure{Measure: scenario.MeasureDeleted, Label: "pods deleted", Step: 2},
		Title:      "A controller drained",
		Reproduces: "nothing: a scenario of the tests",
		Explain:    "A controller of N is resized to 0.",
		Full:       []scenario.Size{{Label: "N=10", Replicas: 10}, {Label: "N=100", Replicas: 100}},
		Quick:      []scenario.Size{{Label: "N=10", Replicas: 10}},
		Cluster:    stack.Config{Nodes: 1, ControllerManagers: 1},
		Bench:      &scenario.Bench{Default: true, Variants: scenario.LegacyAndModern, DefaultSizes: scenario.QuickSizes, DefaultRuns: 2},
		TalkLength: 72 * time.Second,
		Script:     drainScript{},
	})

	if !slices.Contains(bench.DefaultScenarios(false), "drain") || slices.Contains(bench.DefaultScenarios(true), "drain") {
		t.Errorf("make bench selects %v, and with -quick %v; want drain in the first only", bench.DefaultScenarios(false), bench.DefaultScenarios(true))
	}
	p, err := bench.BuildPlan(runner.Options{BinDir: benchtest.BothDesigns(t)})
	if err != nil {
		t.Fatal(err)
	}
	var runs []string
	for _, it := range p.Items {
		if it.Scenario.Name != "drain" {
			continue
		}
		var vs []string
		for _, v := range it.Variants {
			vs = append(vs, v.Name)
		}
		runs = append(runs, fmt.Sprintf("%s %s ×%d", it.Size.Label, strings.Join(vs, ","), it.Runs))
	}
	if got, want := strings.Join(runs, "; "), "N=10 legacy,modern ×2"; got != want {
		t.Errorf("make bench runs drain as %q, want %q", got, want)
	}

	sc, err := scripts.Get("drain")
	if err != nil {
		t.Fatal(err)
	}
	fig := demo.TalkOf(sc, sc.Full[0], nil).Figure
	if want := (demo.Figure{Key: "dl", Label: "pods deleted", Row: "pod deletes", Step: 2}); fig != want {
		t.Errorf("talk mode's page measures %+v, want %+v", fig, want)
	}

	if s, ok := live.TalkSeconds("drain"); !ok || s != 72 {
		t.Errorf("drain plays for %v s (%v), want 72", s, ok)
	}
	var list bytes.Buffer
	live.WriteList(&list)
	line := ""
	for _, l := range strings.Split(list.String(), "\n") {
		if strings.HasPrefix(l, "drain ") {
			line = l
		}
	}
	if !strings.HasSuffix(line, "plays 1 min 12 s at N=10 · A controller drained") {
		t.Errorf("make demo lists drain as %q", line)
	}
}

// TestEveryScenarioHasAPlaceOfItsOwn: two script files at one place would
// leave their order to the order Go initialises files in.
func TestEveryScenarioHasAPlaceOfItsOwn(t *testing.T) {
	seen := map[int]bool{}
	for _, p := range scripts.Places() {
		if seen[p] {
			t.Errorf("two scenarios at place %d: give each its own (described)", p)
		}
		seen[p] = true
	}
	want := []string{"scale-up", "scale-down", "partial-scale-down", "idle", "churn", "api-errors", "watch-drop",
		"two-managers", "restart", "crash", "overlap", "recreate", "watch-window"}
	if got := scripts.Names(); !slices.Equal(got, want) {
		t.Errorf("the scenarios in order: %v, want %v", got, want)
	}
}
