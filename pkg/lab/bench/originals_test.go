package bench

import (
	"bytes"
	"strings"
	"testing"
)

// sizeOf is a size summary of two variants' runs of some figures, each
// given as its values per variant.
func sizeOf(label string, figures map[string][2][]float64, units map[string]string, variants [2]string) SizeSummary {
	sz := SizeSummary{Label: label}
	for i, v := range variants {
		vs := VariantSummary{Variant: v}
		for name, values := range figures {
			vs.Runs = len(values[i])
			vs.Figures = append(vs.Figures, Figure{Name: name, Unit: units[name], Stats: Summarize(values[i])})
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
	sum := &Summary{Scenarios: []ScenarioSummary{{
		Name: "scale-up",
		Sizes: []SizeSummary{sizeOf("N=100", map[string][2][]float64{
			"status_writes":   {{9, 9, 9}, {9, 9, 9}},
			"time_to_running": {{4, 5, 6}, {5, 6, 7}},
			"peak_rss":        {{34, 34.5, 35}, {40, 40.4, 41}},
		}, map[string]string{"status_writes": "requests", "time_to_running": "s", "peak_rss": "MiB"}, pair)},
	}, {
		Name: "idle",
		Sizes: []SizeSummary{sizeOf("M=10,k=10", map[string][2][]float64{
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
	c := OriginalCheck{Unit: "MiB", Ours: Summarize([]float64{34}), Theirs: Summarize([]float64{40})}
	verdict, why := judge(c, "the binary")
	if verdict != verdictNotJudged || why != "the binary" {
		t.Errorf("judge = %q, %q; want not judged, with the reason", verdict, why)
	}
	c.Unit = "requests"
	if verdict, _ := judge(c, ""); verdict != verdictDiffers {
		t.Errorf("a count of one run each: %q, want differs", verdict)
	}
}

// TestAnOriginalRunDifferentlyTakesTheReasonsOfTheOneItRuns checks that a
// variant running another's binary is explained by that one's reasons
// where it has none of its own.
func TestAnOriginalRunDifferentlyTakesTheReasonsOfTheOneItRuns(t *testing.T) {
	for original, as := range map[string]string{"upstream-unthrottled": "upstream", "stack-original": "legacy-original"} {
		for _, figure := range []string{"peak_rss", "peak_goroutines"} {
			want := departureFor(as, "scale-up", figure)
			if got := departureFor(original, "scale-up", figure); want == "" || (got != want && original != "stack-original") || got == "" {
				t.Errorf("%s scale-up %s: reason %q, want %s's (%q)", original, figure, got, as, want)
			}
		}
	}
}
