package history

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	catalogue "github.com/kube-rewind/kube-rewind/pkg/history"
	"github.com/kube-rewind/kube-rewind/pkg/lab/bench/benchtest"
	"github.com/kube-rewind/kube-rewind/pkg/lab/bench/charts"
	"github.com/kube-rewind/kube-rewind/pkg/lab/bench/report"
	"github.com/kube-rewind/kube-rewind/pkg/lab/bench/results"
	"github.com/kube-rewind/kube-rewind/pkg/lab/bench/runner"
	"github.com/kube-rewind/kube-rewind/pkg/lab/sampler"
	"github.com/kube-rewind/kube-rewind/pkg/lab/scenario"
)

// historyRuns fakes runs in which every change has its expected
// effect: its figure is 10 with the change and 20 without it (5 where
// the figure should fall), and the timeline figures grow as changes go.
type historyRuns struct{}

func (historyRuns) Run(ctx context.Context, sc *scenario.Scenario, v scenario.Variant, sz scenario.Size, opts scenario.Options) (*scenario.Outcome, error) {
	off := map[string]bool{}
	for _, a := range v.ManagerArgs {
		if list, ok := strings.CutPrefix(a, "-without="); ok {
			for _, n := range strings.Split(list, ",") {
				off[n] = true
			}
		}
	}
	figures := map[string]float64{}
	for _, name := range results.TimelineFigures {
		figures[name] = float64(10 + len(off))
	}
	for _, c := range catalogue.Changes {
		if c.Scenario != sc.Name {
			continue
		}
		value := 10.0
		if off[c.Name] {
			value = map[bool]float64{true: 20, false: 5}[c.WithoutMore]
		}
		figures[c.Figure] = value
	}
	var results []scenario.Result
	for name, value := range figures {
		results = append(results, scenario.Result{Name: name, Unit: "requests", Value: value, LowerIsBetter: true})
	}
	return &scenario.Outcome{Scenario: sc.Name, Variant: v, Size: sz, Results: results,
		Rec: sampler.NewRecorder(time.Now()), Marks: map[string]float64{}}, nil
}

// TestAHistoryRunReportsEveryChangeWithAndWithout runs the whole history
// pipeline on faked runs and checks the report: one row per change in
// date order, each with its date, PRs and two figures, the effect seen,
// the changes no run can measure said why, and the timeline chart.
func TestAHistoryRunReportsEveryChangeWithAndWithout(t *testing.T) {
	f := &benchtest.Runs{}
	published := filepath.Join(t.TempDir(), "published")
	r, _ := benchtest.Runner(t, runner.Options{Quick: true, Publish: published, Commit: "abc1234"}, f)
	r.Scenarios = historyRuns{}
	dir, hs, err := Run(context.Background(), r)
	if err != nil {
		t.Fatal(err)
	}
	if len(hs.Changes)+len(hs.Unmeasured) != len(catalogue.Changes) {
		t.Errorf("%d measured + %d unmeasured changes, want all %d", len(hs.Changes), len(hs.Unmeasured), len(catalogue.Changes))
	}
	order := catalogue.Names()
	last := -1
	for _, row := range hs.Changes {
		i := indexOf(order, row.Name)
		if i < last {
			t.Errorf("%s out of date order", row.Name)
		}
		last = i
		if row.Date == "" || len(row.Refs) == 0 || row.With == nil || row.Without == nil {
			t.Errorf("%s: row without a date, refs or both figures: %+v", row.Name, row)
			continue
		}
		if row.Appeared != appearedYes {
			t.Errorf("%s: effect %q, want yes (with %v, without %v)", row.Name, row.Appeared, row.With.Median, row.Without.Median)
		}
		// Every figure here counts a cost: better with the change, unless
		// the change costs it, when the row says what it buys.
		c, _ := catalogue.Get(row.Name)
		want := "with it"
		if !c.WithoutMore {
			want = "without it: " + c.Cost
		}
		if row.Better != want {
			t.Errorf("%s: better %q, want %q", row.Name, row.Better, want)
		}
	}
	for _, row := range hs.Unmeasured {
		if row.Note == "" {
			t.Errorf("%s is not measured and does not say why", row.Name)
		}
	}
	if len(hs.Timeline) < 3 || hs.Timeline[len(hs.Timeline)-1].Variant != "legacy" || len(hs.Timeline[1].Figures) == 0 {
		t.Errorf("timeline %+v: want today, steps and 2014, with figures", hs.Timeline)
	}
	md, err := os.ReadFile(filepath.Join(dir, "report.md"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(md), "| with | without | better |") {
		t.Error("report.md's table of changes has no column saying which side is better")
	}
	for _, row := range hs.Changes {
		// The row names its scenario and its figure, so that a pair of
		// numbers never stands bare.
		cells := "| " + row.Scenario + " " + row.Size + " | " + strings.ReplaceAll(row.Figure, "_", " ") + " | "
		if !strings.Contains(string(md), cells) {
			t.Errorf("report.md's row of %s does not name its scenario and figure as %q", row.Name, cells)
		}
	}
	for _, c := range catalogue.Changes {
		if !strings.Contains(string(md), "`"+c.Name+"`") {
			t.Errorf("report.md does not name %s", c.Name)
		}
	}
	for _, name := range []string{"report.html", "history.json", "charts/" + charts.TimelineName + ".svg"} {
		if _, err := os.Stat(filepath.Join(dir, name)); err != nil {
			t.Error(err)
		}
	}
	// -publish copies report.md as RESULTS.md, with the chart it draws.
	page, err := os.ReadFile(filepath.Join(published, report.ResultsFile))
	if err != nil || !bytes.Equal(page, md) {
		t.Errorf("report.md not published as %s (%v)", report.ResultsFile, err)
	}
	if !strings.Contains(string(page), "Commit abc1234.") {
		t.Error("the published report does not name its commit")
	}
	if _, err := os.Stat(filepath.Join(published, "charts", charts.TimelineName+".svg")); err != nil {
		t.Errorf("the timeline chart was not published: %v", err)
	}
	data, _ := os.ReadFile(filepath.Join(dir, "history.json"))
	var back results.HistorySummary
	if err := json.Unmarshal(data, &back); err != nil || len(back.Changes) != len(hs.Changes) {
		t.Errorf("history.json does not read back: %v", err)
	}
}

func indexOf(list []string, s string) int {
	for i, x := range list {
		if x == s {
			return i
		}
	}
	return -1
}

// TestAppearedTellsAnEffectFromNoise checks the verdict of a row.
func TestAppearedTellsAnEffectFromNoise(t *testing.T) {
	for _, tc := range []struct {
		more          bool
		with, without []float64
		want          string
	}{
		{true, []float64{1, 2}, []float64{5, 6}, appearedYes},
		{true, []float64{1, 5}, []float64{4, 6}, appearedNoise},
		{true, []float64{5}, []float64{5}, appearedNo},
		{false, []float64{9}, []float64{0}, appearedYes},
		{false, []float64{0}, []float64{9}, appearedNo},
	} {
		if got := appeared(tc.more, results.Summarize(tc.with), results.Summarize(tc.without)); got != tc.want {
			t.Errorf("appeared(%v, %v, %v) = %q, want %q", tc.more, tc.with, tc.without, got, tc.want)
		}
	}
}

// TestAReasonForAnEffectNotShownIsHeldToItsPrediction holds "expectations
// not shown" (a missed race repeats no create) to creates as it predicts,
// fewer without expectations (the other way) and half as many again (out
// of its range): only the first is explained.
func TestAReasonForAnEffectNotShownIsHeldToItsPrediction(t *testing.T) {
	for _, tc := range []struct {
		with, without []float64
		explained     bool
		want          string
	}{
		{[]float64{200, 200}, []float64{200, 200}, true, "measured: without it ÷ with it 1.00"},
		{[]float64{200, 200}, []float64{150, 150}, false, "measured without it ÷ with it 0.75"},
		{[]float64{200, 200}, []float64{200, 400}, false, "measured without it ÷ with it 1.50"},
	} {
		note, j := explainNoEffect("expectations", "requests", results.Summarize(tc.with), results.Summarize(tc.without))
		if j == nil || j.Holds != tc.explained || strings.Contains(note, "NOT EXPLAINED") == tc.explained {
			t.Errorf("with %v, without %v: %q (%+v), want explained %v", tc.with, tc.without, note, j, tc.explained)
		}
		if !strings.Contains(note, "without it ÷ with it between 1.00 and 1.10") || !strings.Contains(note, tc.want) {
			t.Errorf("with %v, without %v: %q lacks the prediction or %q", tc.with, tc.without, note, tc.want)
		}
	}
	if note, _ := explainNoEffect("no-such-change", "requests", results.Summarize([]float64{1}), results.Summarize([]float64{1})); !strings.Contains(note, "NOT EXPLAINED") {
		t.Errorf("an effect not shown with no reason: %q", note)
	}
	for name, r := range whyNoEffect {
		c, err := catalogue.Get(name)
		if err != nil {
			t.Errorf("a reason for %s, which the catalogue lacks: %v", name, err)
			continue
		}
		if units := map[string]string{"status_writes": "requests", "time_to_create": "s", "pod_creates": "requests", "peak_goroutines": "goroutines",
			"extra_pods": "pods", "deletes_during_overlap": "requests"}; units[c.Figure] != r.predict.Unit {
			t.Errorf("%s: its reason speaks of %s, its figure %s is in %s", name, r.predict.Unit, c.Figure, units[c.Figure])
		}
	}
}

// TestTheReasonsHoldOnThePublishedHistory holds the reasons for an effect
// not shown to the rows of the last published history run
// (examples/history/RESULTS.md) whose effect did not appear, or only
// within noise.
func TestTheReasonsHoldOnThePublishedHistory(t *testing.T) {
	raw, err := os.ReadFile(filepath.Join("..", "..", "..", "..", "examples", "history", "RESULTS.md"))
	if err != nil {
		t.Fatal(err)
	}
	cellRe := regexp.MustCompile(`^([\d.]+) ([^(]*?)(?: \(([\d.]+)–([\d.]+)\))?$`)
	stats := func(cell string) (results.Stats, string, bool) {
		m := cellRe.FindStringSubmatch(cell)
		if m == nil {
			return results.Stats{}, "", false
		}
		median, _ := strconv.ParseFloat(m[1], 64)
		values := []float64{median}
		if m[3] != "" {
			lo, _ := strconv.ParseFloat(m[3], 64)
			hi, _ := strconv.ParseFloat(m[4], 64)
			values = []float64{lo, hi}
		}
		return results.Summarize(values), m[2], true
	}
	col := map[string]int{}
	judged := 0
	for _, line := range strings.Split(string(raw), "\n") {
		if !strings.HasPrefix(line, "| ") {
			continue
		}
		cells := strings.Split(strings.Trim(line, "| "), " | ")
		if cells[0] == "date" {
			for i, c := range cells {
				col[c] = i
			}
			continue
		}
		if len(col) == 0 || len(cells) <= col["appeared"] {
			continue
		}
		if a := cells[col["appeared"]]; a != appearedNo && a != appearedNoise {
			continue
		}
		name := strings.Trim(cells[col["change"]], "`")
		with, unit, ok1 := stats(cells[col["with"]])
		without, _, ok2 := stats(cells[col["without"]])
		if !ok1 || !ok2 {
			t.Fatalf("%s: cannot read %q and %q", name, cells[col["with"]], cells[col["without"]])
		}
		note, j := explainNoEffect(name, unit, with, without)
		judged++
		t.Logf("%s: %s", name, note)
		if j == nil || !j.Holds {
			t.Errorf("%s, published: %s", name, note)
		}
	}
	if judged == 0 {
		t.Error("no row of the published history had an effect not shown: the page was not read")
	}
}
