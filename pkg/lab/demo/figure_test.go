package demo

import (
	"testing"

	"github.com/kube-rewind/kube-rewind/pkg/lab/scenario"
	"github.com/kube-rewind/kube-rewind/pkg/lab/scenario/scripts"
)

func TestEveryScenarioDeclaresAFigureThePageMeasuresLive(t *testing.T) {
	for _, sc := range scripts.All() {
		fig := scenarioFigure(sc.Name)
		if declaredFigure(sc) == "" || fig.Key == keyGoroutines || fig.Row == "" {
			t.Errorf("%s declares the figure %q; the page shows %+v", sc.Name, declaredFigure(sc), fig)
		}
	}
}

// A measure the figurer does not know would show the goroutine count
// under the scenario's label.
func TestEveryScenarioMeasuresItsFigureInAWayThePageKnows(t *testing.T) {
	known := map[string]bool{}
	for _, k := range []string{keyPeakGoroutines, keyListsPerMin, keyLists, keyReplacement, keyPostsPerMin, keyWatches,
		keyCreated, keyCreatedSince, keyExtra, keyDeleted, keyRunningDeleted, keyToRunning} {
		known[k] = true
	}
	for _, sc := range scripts.All() {
		if fig := scenarioFigure(sc.Name); !known[fig.Key] || fig.Label == "" {
			t.Errorf("%s: the page measures %+v", sc.Name, fig)
		}
	}
}

// TestTheFigureIsWhatTheScenarioSaysOrElseTheGoroutineCount checks that
// the page takes the figure from the scenario alone: its measure, label,
// unit and step from its LiveFigure, its row from the result it declares,
// and the goroutine count where it lacks either.
func TestTheFigureIsWhatTheScenarioSaysOrElseTheGoroutineCount(t *testing.T) {
	sc := &scenario.Scenario{Name: "drain", Figure: "resize_to_running",
		Live: scenario.LiveFigure{Measure: scenario.MeasureToRunning, Label: "drained", Unit: "s", Step: 2, Onward: true}}
	want := Figure{Key: keyToRunning, Label: "drained", Unit: "s", Row: "resize to running", Step: 2, Onward: true}
	if got := figureOf(sc); got != want {
		t.Errorf("the page measures %+v, want %+v", got, want)
	}

	for _, sc := range []*scenario.Scenario{
		{Name: "quiet", Figure: "pod_creates"},
		{Name: "unsaid", Live: scenario.LiveFigure{Measure: scenario.MeasureCreated, Label: "pods created"}},
	} {
		if got := figureOf(sc); got != figureGoroutines {
			t.Errorf("%s: the page measures %+v, want the goroutine count", sc.Name, got)
		}
	}
}
