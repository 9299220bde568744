package demo

import (
	"math"
	"strings"
	"time"

	"github.com/kube-rewind/kube-rewind/pkg/lab/scenario"
	"github.com/kube-rewind/kube-rewind/pkg/lab/scenario/scripts"
	"github.com/kube-rewind/kube-rewind/pkg/lab/stats"
)

// Each scenario is about one figure: the goroutines of a scale-up, the
// LISTs of an idle cluster, the replacement time of churn. The page shows
// it in a highlighted tile on each side, as the results table defines it
// (Row): over the same step, in the same unit. Once the results are in,
// the tile shows the table's own value, so that tile and table agree; on
// the way there it shows the figure as measured so far. The page charts it
// beside the pods running, on one scale for both designs.

// Figure names the live figure a scenario is about.
type Figure struct {
	// Key is what the recording and the page's script call it.
	Key string `json:"key"`
	// Label is what the tile and the chart call it.
	Label string `json:"label"`
	// Unit follows the value on the tile, when the label does not say it.
	Unit string `json:"unit,omitempty"`
	// Row is the results row that reports the same figure, as the table
	// names it (spaces, not underscores): the result the scenario
	// declares as its figure.
	Row string `json:"row,omitempty"`
	// Step is the step the figure measures, 1-based; 0 means the whole
	// run. Before that step the tile shows "–", after it what it measured.
	Step int `json:"step,omitempty"`
	// Onward measures from Step to the end of the run, not Step alone.
	Onward bool `json:"onward,omitempty"`
}

// The live figures: each scenario says in its script which one it is about
// (scenario.LiveFigure), and the page computes it the way its results row
// is, from the controller-manager's own series (sampler), over its step.
// The keys are the scenario package's measures, as recordings and the
// page's script call them.
const (
	keyPeakGoroutines = string(scenario.MeasurePeakGoroutines)
	keyListsPerMin    = string(scenario.MeasureListsPerMin)
	keyLists          = string(scenario.MeasureLists)
	keyReplacement    = string(scenario.MeasureReplacement)
	keyPostsPerMin    = string(scenario.MeasurePostsPerMin)
	keyWatches        = string(scenario.MeasureWatches)
	keyCreated        = string(scenario.MeasureCreated)
	keyCreatedSince   = string(scenario.MeasureCreatedSince)
	keyExtra          = string(scenario.MeasureExtra)
	keyDeleted        = string(scenario.MeasureDeleted)
	keyRunningDeleted = string(scenario.MeasureRunningDeleted)
	keyToRunning      = string(scenario.MeasureToRunning)
	// keyGoroutines is the goroutine count now: the figure of a scenario
	// that names no live figure.
	keyGoroutines = "go"
)

// declaredFigure is the result the scenario sc declares it is about, as
// its results name it; empty when it declares none.
func declaredFigure(sc *scenario.Scenario) string { return sc.Figure }

// figureGoroutines is the figure of a scenario that declares none.
var figureGoroutines = Figure{Key: keyGoroutines, Label: "goroutines"}

// scenarioFigure returns the figure the named scenario is about (see
// figureOf).
func scenarioFigure(name string) Figure {
	sc, err := scripts.Get(name)
	if err != nil {
		return figureGoroutines
	}
	return figureOf(sc)
}

// figureOf returns the figure sc is about: the result it declares,
// measured live as its LiveFigure says; the goroutine count where it
// lacks either.
func figureOf(sc *scenario.Scenario) Figure {
	row, live := declaredFigure(sc), sc.Live
	if row == "" || live.Measure == "" {
		return figureGoroutines
	}
	return Figure{
		Key: string(live.Measure), Label: live.Label, Unit: live.Unit,
		Row:  strings.ReplaceAll(row, "_", " "),
		Step: live.Step, Onward: live.Onward,
	}
}

// none marks a figure with nothing to count yet: the page shows "–".
const none = -1

// chartValue is what the chart plots for a side: the goroutine count for
// a peak of goroutines (its line shows the storm, its top the peak), the
// figure itself otherwise, and nothing (0) before there is a figure.
func chartValue(key string, s Side) float64 {
	switch key {
	case keyPeakGoroutines, keyGoroutines:
		return float64(s.Goroutines)
	}
	return math.Max(0, s.Fig)
}

// FormatFigure prints a figure as its tile does, as the results table
// prints its row, "–" when there is none yet.
func FormatFigure(v float64) string {
	if v < 0 {
		return "–"
	}
	return formatValue(v)
}

// figurer fills in the figure of each side of each frame, from the frames
// so far: live, as the hub publishes them, and once over the frames of a
// recording made before frames carried the figure. One computation serves
// both, so that a replay shows what the live page showed.
type figurer struct {
	fig Figure
	// period is the managers' sync period in seconds: a rate a minute is
	// shown once a step has run that long, so that it spans a tick.
	period float64
	// old derives, for a recording made before frames carried them, the
	// managers' LISTs since the start (from the LISTs of the last minute)
	// and the replacement times (from the pod counts, to a frame's
	// precision).
	old   bool
	sides [2]figureSide
}

// figureSide is a side's part of the figurer: the window the figure
// measures and what it has seen of it.
type figureSide struct {
	open, closed bool
	// start is the side at the window's first frame, at time t0.
	start Side
	t0    float64
	// peak is the largest goroutine count seen in the window.
	peak int
	// ran is when every pod the step asked for ran; 0 until then.
	ran   float64
	value float64

	// For old recordings: when the side came up, its LIST totals so far,
	// the times of its deletions and of its replacements running, and its
	// pods that ran before the first deletion (running plus deleted).
	up     float64
	lists  [][2]float64
	dels   []float64
	runs   []float64
	before int
}

// newFigurer returns a figurer of fig; period is the sync period, as
// Talk.Period says it.
func newFigurer(fig Figure, period string, old bool) *figurer {
	p, err := time.ParseDuration(period)
	if err != nil || p <= 0 {
		p = 10 * time.Second
	}
	return &figurer{fig: fig, period: p.Seconds(), old: old}
}

// inWindow reports whether frame f is in the stretch the figure measures.
func (fg *figurer) inWindow(f *Frame, s Side) bool {
	if fg.fig.Step == 0 {
		return s.Ready
	}
	if fg.fig.Onward {
		return f.Step >= fg.fig.Step && (f.Phase == PhaseRunning || f.Phase == PhaseDone)
	}
	return f.Step == fg.fig.Step && f.Phase == PhaseRunning
}

// apply fills in f's figures.
func (fg *figurer) apply(f *Frame) {
	for i := range f.Sides {
		if i >= len(fg.sides) {
			break
		}
		s, st := &f.Sides[i], &fg.sides[i]
		if fg.old {
			st.derive(f.T, s)
		}
		in := fg.inWindow(f, *s)
		switch {
		case in && !st.open:
			st.open, st.start, st.t0, st.peak = true, *s, f.T, s.Goroutines
			// Over the whole run, counts start from nothing, as the
			// results count from the cluster's start.
			if fg.fig.Step == 0 {
				st.start = Side{}
			}
		case !in && st.open:
			st.closed = true
		}
		if !st.open {
			s.Fig = none
			continue
		}
		if !st.closed {
			st.value = fg.measure(st, f.T, *s)
		}
		s.Fig = st.value
	}
}

// measure is the figure of a side at time t, its window open.
func (fg *figurer) measure(st *figureSide, t float64, s Side) float64 {
	elapsed := t - st.t0
	perMinute := func(n int) float64 {
		if elapsed < fg.period {
			return none
		}
		return float64(n) * 60 / elapsed
	}
	switch fg.fig.Key {
	case keyPeakGoroutines:
		// Over the whole run it is the sampler's own peak, start-up
		// included, as the results take it.
		if fg.fig.Step == 0 {
			return float64(s.PeakGoroutines)
		}
		st.peak = max(st.peak, s.Goroutines)
		// The sampler's peak can fall between two frames: a peak above
		// the one at the window's start was reached inside it.
		if s.PeakGoroutines > st.start.PeakGoroutines {
			st.peak = max(st.peak, s.PeakGoroutines)
		}
		return float64(st.peak)
	case keyListsPerMin:
		return perMinute(s.Totals["LIST"] - st.start.Totals["LIST"])
	case keyPostsPerMin:
		return perMinute(s.PodPosts - st.start.PodPosts)
	case keyLists:
		return float64(s.Totals["LIST"] - st.start.Totals["LIST"])
	case keyCreatedSince:
		return float64(s.Created - st.start.Created)
	case keyWatches:
		// An old recording's totals hold only the LISTs rebuilt.
		if fg.old || s.Totals == nil {
			return none
		}
		return float64(s.Totals["WATCH"] - st.start.Totals["WATCH"])
	case keyReplacement:
		if s.Replacement <= 0 {
			return none
		}
		return s.Replacement
	case keyCreated:
		return float64(s.Created)
	case keyExtra:
		return float64(s.Extra)
	case keyDeleted:
		return float64(s.Deleted - st.start.Deleted)
	case keyRunningDeleted:
		return float64(max(0, st.start.Running-s.Running))
	case keyToRunning:
		if st.ran == 0 && s.Desired != st.start.Desired && s.Running >= s.Desired {
			st.ran = t
		}
		if st.ran > 0 {
			return st.ran - st.t0
		}
		return elapsed
	}
	return float64(s.Goroutines)
}

// derive fills in, for a frame of an old recording, what frames now carry:
// the managers' LISTs since the start, rebuilt from the LISTs of the last
// minute (ListsLastMin counts from zero in the first minute, then is the
// total less the total a minute earlier), and the median replacement time,
// pairing the k-th deletion with the k-th pod to run after the first
// deletion, as the sampler does, each timed by the frame that first shows
// it.
func (st *figureSide) derive(t float64, s *Side) {
	if !s.Ready {
		return
	}
	if st.up == 0 {
		st.up = t
	}
	if s.Totals == nil {
		lists := s.ListsLastMin
		if t-st.up >= 60 {
			for i := len(st.lists) - 1; i >= 0; i-- {
				if st.lists[i][0] <= t-60 {
					lists += int(st.lists[i][1])
					break
				}
			}
		}
		st.lists = append(st.lists, [2]float64{t, float64(lists)})
		s.Totals = map[string]int{"LIST": lists}
	}
	for len(st.dels) < s.Deleted {
		st.dels = append(st.dels, t)
	}
	if s.Deleted == 0 {
		st.before = s.Running
	}
	for len(st.runs) < s.Running+s.Deleted-st.before {
		st.runs = append(st.runs, t)
	}
	var lat []float64
	for k := 0; k < min(len(st.dels), len(st.runs)); k++ {
		lat = append(lat, math.Max(0, st.runs[k]-st.dels[k]))
	}
	s.Replacement = none
	if len(lat) > 0 {
		s.Replacement = stats.Median(lat)
	}
}
