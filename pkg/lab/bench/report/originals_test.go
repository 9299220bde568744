package report

import (
	"bytes"
	"strings"
	"testing"

	"github.com/kube-rewind/kube-rewind/pkg/lab/bench/findings"
	"github.com/kube-rewind/kube-rewind/pkg/lab/bench/results"
	"github.com/kube-rewind/kube-rewind/pkg/lab/scenario"
)

// TestTheOriginalsAreCheckedAgainstOurPortOf2014 pairs each original
// variant with legacy for "Checked against the originals", with a reason
// for the figures they are known to differ by.
func TestTheOriginalsAreCheckedAgainstOurPortOf2014(t *testing.T) {
	pairs := originalPairs([]string{"legacy", "legacy-original", "stack-original"})
	if len(pairs) != 2 || pairs[0] != [2]string{"legacy", "legacy-original"} || pairs[1] != [2]string{"legacy", "stack-original"} {
		t.Errorf("pairs %v, want legacy beside legacy-original and stack-original", pairs)
	}
	for _, f := range []string{"peak_rss", "apiserver_cpu", "time_to_running"} {
		if _, ok := departureFor("stack-original", "scale-up", f); !ok {
			t.Errorf("stack-original's scale-up %s has no reason to differ", f)
		}
	}
	if !findings.Is2014(scenario.StackOriginal) || findings.Is2014(scenario.Upstream) {
		t.Error("the originals are held to the 2014 design, upstream to today's")
	}
}

// sizeOf is a size summary of two variants' runs of some figures, each
// given as its values per variant.
func sizeOf(label string, figures map[string][2][]float64, units map[string]string, variants [2]string) results.SizeSummary {
	sz := results.SizeSummary{Label: label}
	for i, v := range variants {
		vs := results.VariantSummary{Variant: v}
		for name, values := range figures {
			vs.Runs = len(values[i])
			vs.Figures = append(vs.Figures, results.Figure{Name: name, Unit: units[name], Stats: results.Summarize(values[i])})
		}
		sz.Variants = append(sz.Variants, vs)
	}
	return sz
}

// TestEachHeadlineFigureOfAPortStandsBesideItsOriginal checks the verdicts
// of "Checked against the originals": equal counts are the same,
// overlapping runs within the spread, a time of single runs not judged, a
// difference with a known reason gives it, and one without is flagged on
// the page.
func TestEachHeadlineFigureOfAPortStandsBesideItsOriginal(t *testing.T) {
	pair := [2]string{"modern", "upstream"}
	sum := &results.Summary{Scenarios: []results.ScenarioSummary{{
		Name: "scale-up",
		Sizes: []results.SizeSummary{sizeOf("N=100", map[string][2][]float64{
			"status_writes":   {{9, 9, 9}, {9, 9, 9}},
			"time_to_running": {{4, 5, 6}, {5, 6, 7}},
			"peak_rss":        {{34, 34.5, 35}, {40, 40.4, 41}},
		}, map[string]string{"status_writes": "requests", "time_to_running": "s", "peak_rss": "MiB"}, pair)},
	}, {
		Name: "idle",
		Sizes: []results.SizeSummary{sizeOf("M=10,k=10", map[string][2][]float64{
			"requests_per_min":  {{30}, {36}},
			"cpu_per_min":       {{0.15}, {0.2}},
			"manager_rss":       {{35}, {40}},
			"status_writes_per": {{0}, {0}},
		}, map[string]string{"requests_per_min": "req/min", "cpu_per_min": "CPU s/min"}, pair)},
	}}}
	sum.Options.Variants = []string{"legacy", "modern", "upstream"}

	got := map[string]OriginalCheck{}
	for _, c := range originalChecks(sum) {
		if c.Port != "modern" || c.Original != "upstream" {
			t.Errorf("%s set beside %s, want modern beside upstream only", c.Port, c.Original)
		}
		got[c.Scenario+" "+c.Figure] = c
	}
	for key, want := range map[string]string{
		"scale-up status_writes":   verdictSame,
		"scale-up time_to_running": verdictWithin,
		"scale-up peak_rss":        verdictDiffers,
		"idle requests_per_min":    verdictDiffers,
	} {
		if got[key].Verdict != want {
			t.Errorf("%s: %q, want %q", key, got[key].Verdict, want)
		}
	}
	if c := got["scale-up peak_rss"]; c.Why == "" || c.Ratio == nil || *c.Ratio < 1.1 {
		t.Errorf("peak_rss: reason %q, ratio %v; want the binary's reason and upstream about 1.17 times ours", c.Why, c.Ratio)
	}
	if c := got["idle requests_per_min"]; c.Why != "" {
		t.Errorf("a difference no departure explains was given the reason %q", c.Why)
	}

	var md bytes.Buffer
	if err := writeMarkdown(&md, buildResults(sum, nil, nil)); err != nil {
		t.Fatal(err)
	}
	page := md.String()
	for _, want := range []string{"## Checked against the originals", "### modern beside upstream", "| upstream ÷ ours |",
		"differs: **NOT EXPLAINED**", "1 difference(s) beyond the spread have no known reason"} {
		if !strings.Contains(page, want) {
			t.Errorf("the results page lacks %q", want)
		}
	}

	sum.Options.Variants = []string{"legacy", "modern"}
	if checks := originalChecks(sum); len(checks) != 0 {
		t.Errorf("without upstream in the run, %d checks", len(checks))
	}
}

// TestATimeOfOneRunEachIsNotJudgedButKeepsItsReason checks that a single
// run of a time cannot make a difference, while its known reason is still
// said.
func TestATimeOfOneRunEachIsNotJudgedButKeepsItsReason(t *testing.T) {
	c := OriginalCheck{Original: "upstream", Unit: "MiB", Ours: results.Summarize([]float64{34}), Theirs: results.Summarize([]float64{40})}
	verdict, why, j := judge(c, &departure{why: "the binary", predict: results.Difference("MiB", 4, 10)})
	if verdict != verdictNotJudged || why != "the binary" || j == nil || !j.Holds {
		t.Errorf("judge = %q, %q, %+v; want not judged, with the reason and its prediction borne out", verdict, why, j)
	}
	c.Unit = "requests"
	if verdict, _, _ := judge(c, nil); verdict != verdictDiffers {
		t.Errorf("a count of one run each: %q, want differs", verdict)
	}
}

// TestAnOriginalRunDifferentlyTakesTheReasonsOfTheOneItRuns checks that a
// variant running another's binary is explained by that one's reasons
// where it has none of its own.
func TestAnOriginalRunDifferentlyTakesTheReasonsOfTheOneItRuns(t *testing.T) {
	for original, as := range map[string]string{"upstream-unthrottled": "upstream", "stack-original": "legacy-original"} {
		for _, figure := range []string{"peak_rss", "peak_goroutines"} {
			want, ok := departureFor(as, "scale-up", figure)
			got, found := departureFor(original, "scale-up", figure)
			if !ok || !found || got.why != want.why {
				t.Errorf("%s scale-up %s: reason %q, want %s's (%q)", original, figure, got.why, as, want.why)
			}
		}
	}
	// v0.4's binaries at parity have reasons of their own, which name
	// the density that makes its binds dearer, and no meter.
	for _, figure := range []string{"time_to_running", "apiserver_cpu", "peak_goroutines", "peak_sockets", "peak_rss"} {
		whole, _ := departureFor("stack-original", "scale-up", figure)
		got, found := departureFor("stack-original-parity", "scale-up", figure)
		if !found || got.why == whole.why || !strings.Contains(strings.ToLower(got.why), "at parity") {
			t.Errorf("stack-original-parity scale-up %s: reason %q, want its own", figure, got.why)
		}
	}
	// Where it has none of its own, it takes v0.4's whole stack's.
	departures := []departure{{original: "stack-original", scenario: "restart", figure: "time_to_running", why: "stand-in"}}
	if got, ok := departureIn(departures, "stack-original-parity", "restart", "time_to_running"); !ok || got.why != "stand-in" {
		t.Errorf("stack-original-parity took no reason of stack-original's: %+v", got)
	}
}

// upstreamRSS is a run of scale-up in which upstream's peak RSS and
// goroutines stand beside modern's, three runs each, with no overlap.
func upstreamRSS(oursRSS, theirsRSS []float64) *results.Summary {
	sum := &results.Summary{Scenarios: []results.ScenarioSummary{{
		Name: "scale-up",
		Sizes: []results.SizeSummary{sizeOf("N=100", map[string][2][]float64{
			"peak_rss":        {oursRSS, theirsRSS},
			"peak_goroutines": {{163, 165, 165}, {168, 168, 169}},
		}, map[string]string{"peak_rss": "MiB", "peak_goroutines": "goroutines"}, [2]string{"modern", "upstream"})},
	}}}
	sum.Options.Variants = []string{"modern", "upstream"}
	return sum
}

func checkOf(t *testing.T, sum *results.Summary, figure string) OriginalCheck {
	t.Helper()
	for _, c := range originalChecks(sum) {
		if c.Figure == figure {
			return c
		}
	}
	t.Fatalf("no check of %s", figure)
	return OriginalCheck{}
}

// TestAReasonWhosePredictionFailsIsNotExplained holds the peak-RSS reason
// ("upstream's RSS is 4 to 10 MiB higher") to a difference the other way
// and to one too large: each is marked NOT EXPLAINED on the page, with
// the prediction and the measurement, while the difference it predicts is
// explained.
func TestAReasonWhosePredictionFailsIsNotExplained(t *testing.T) {
	for _, tc := range []struct {
		name           string
		ours, theirs   []float64
		explained      bool
		measuredInPage string
	}{
		{"as predicted", []float64{36.9, 37.3, 37.5}, []float64{43.0, 43.1, 43.2}, true, "upstream − ours +5.80 MiB"},
		{"the other way", []float64{36.9, 37.3, 37.5}, []float64{30.0, 31.3, 31.5}, false, "upstream − ours −6 MiB"},
		{"out of range", []float64{36.9, 37.3, 37.5}, []float64{96.0, 97.3, 98.0}, false, "upstream − ours +60 MiB"},
	} {
		sum := upstreamRSS(tc.ours, tc.theirs)
		c := checkOf(t, sum, "peak_rss")
		if c.Verdict != verdictDiffers || c.Judgement == nil {
			t.Fatalf("%s: verdict %q, judgement %+v; want a difference judged against its reason", tc.name, c.Verdict, c.Judgement)
		}
		if explained(c) != tc.explained || c.Judgement.Holds != tc.explained {
			t.Errorf("%s: explained %v, want %v (%+v)", tc.name, explained(c), tc.explained, c.Judgement)
		}
		var md bytes.Buffer
		if err := writeMarkdown(&md, buildResults(sum, nil, nil)); err != nil {
			t.Fatal(err)
		}
		page := md.String()
		for _, want := range []string{"upstream − ours between +4 and +10 MiB (upstream higher)", tc.measuredInPage} {
			if !strings.Contains(page, want) {
				t.Errorf("%s: the page lacks %q", tc.name, want)
			}
		}
		if got := strings.Contains(page, "differs: **NOT EXPLAINED**"); got == tc.explained {
			t.Errorf("%s: NOT EXPLAINED on the page: %v, want %v", tc.name, got, !tc.explained)
		}
		if got := originalsSummary(originalChecks(sum)); strings.Contains(got[0], "NOT EXPLAINED") == tc.explained {
			t.Errorf("%s: the run facts say %q", tc.name, got[0])
		}
	}
}

// TestAReasonIsBoundToItsFigure plants a reason on another figure: the
// peak-RSS reason moved to the goroutine peak, and a departureFor that
// ignores the figure (so that every upstream figure gets the first
// reason). Either must leave the goroutine peak NOT EXPLAINED, as the
// reason speaks of MiB.
func TestAReasonIsBoundToItsFigure(t *testing.T) {
	sum := upstreamRSS([]float64{36.9, 37.3, 37.5}, []float64{43.0, 43.1, 43.2})
	if c := checkOf(t, sum, "peak_goroutines"); !explained(c) {
		t.Fatalf("the goroutine peak's own reason does not explain it: %+v", c.Judgement)
	}

	moved := append([]departure{}, departures...)
	var rss departure
	for i, d := range moved {
		if d.original == "upstream" && d.figure == "peak_rss" {
			rss = d
		}
		if d.original == "upstream" && d.figure == "peak_goroutines" {
			moved = append(moved[:i:i], moved[i+1:]...)
			break
		}
	}
	rss.figure = "peak_goroutines"
	moved = append([]departure{rss}, moved...)
	c := checkOf(t, sum, "peak_goroutines")
	d, ok := departureIn(moved, "upstream", "scale-up", "peak_goroutines")
	if !ok {
		t.Fatal("the planted reason was not found")
	}
	c.Verdict, c.Why, c.Judgement = judge(c, &d)
	if explained(c) || !strings.Contains(c.Judgement.Measured, "another figure's reason") {
		t.Errorf("the peak-RSS reason moved to the goroutine peak explains it: %+v", c.Judgement)
	}

	// Every reason of every original speaks of its own figure's unit,
	// which the headline's figures carry: a reason keyed to the wrong
	// figure, or found for the wrong one, has the wrong unit.
	units := map[string]string{"peak_rss": "MiB", "peak_goroutines": "goroutines", "peak_sockets": "sockets",
		"status_writes": "requests", "apiserver_cpu": "CPU s", "time_to_running": "s"}
	for _, want := range departures {
		for figure, unit := range units {
			got, ok := departureFor(want.original, want.scenario, figure)
			if !ok {
				continue
			}
			if got.predict.Unit != unit {
				t.Errorf("%s %s %s: its reason speaks of %s, the figure is in %s", want.original, want.scenario, figure, got.predict.Unit, unit)
			}
			if figure == want.figure && got.why != want.why {
				t.Errorf("%s %s %s: reason %q, want its own", want.original, want.scenario, figure, got.why)
			}
		}
	}
}
