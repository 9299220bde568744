package report

import (
	"bytes"
	"strings"
	"testing"

	"github.com/kube-rewind/kube-rewind/pkg/lab/bench/findings"
	"github.com/kube-rewind/kube-rewind/pkg/lab/bench/results"
)

// stacksSummary is a benchmark of scale-up on both comparisons' variants.
func stacksSummary() *results.Summary {
	runs := func(variant string, figures ...results.Figure) results.VariantSummary {
		return results.VariantSummary{Variant: variant, Runs: 1, Figures: figures}
	}
	return &results.Summary{Scenarios: []results.ScenarioSummary{{Name: "scale-up", Sizes: []results.SizeSummary{{
		Label: "N=1000", Replicas: 1000, Variants: []results.VariantSummary{
			runs("legacy", fig("peak_goroutines", 3000), fig("hollow_node_cpu", 2)),
			runs("modern", fig("peak_goroutines", 400), fig("hollow_node_cpu", 2)),
			runs("stack-today", fig("peak_goroutines", 950), fig("kwok_cpu", 1)),
		}}}}}}
}

// TestTheReportSetsTheWholeStacksSideBySideApartFromTheDesigns: the
// stack comparison has its section, with 2014's stack beside today's and
// the figures not measured on one side marked; the findings and the
// scenario's own tables, the design alone, leave today's stack out.
func TestTheReportSetsTheWholeStacksSideBySideApartFromTheDesigns(t *testing.T) {
	sum := stacksSummary()
	for _, f := range findings.Findings(sum) {
		if strings.Contains(f.Measured, "stack-today") {
			t.Errorf("finding %q judges stack-today: %s", f.Topic, f.Measured)
		}
	}
	var md bytes.Buffer
	if err := writeMarkdown(&md, buildDocument(sum, nil, nil)); err != nil {
		t.Fatal(err)
	}
	page := md.String()
	design := strings.Index(page, "## The design alone")
	stacks := strings.Index(page, "## Stack against stack")
	if design < 0 || stacks < 0 {
		t.Fatalf("the report lacks a section of its two comparisons:\n%s", page)
	}
	for _, want := range []string{
		stacksText,
		"| figure | process | legacy | stack-today |",
		"| kwok_cpu | cluster | – | 1 |",
		"| hollow_node_cpu | cluster | 2 | – |",
	} {
		if !strings.Contains(page[stacks:], want) {
			t.Errorf("the stack section lacks %q:\n%s", want, page[stacks:])
		}
	}
	own := page[strings.Index(page, "### scale-up N=1000\n"):]
	own = own[:strings.Index(own, "\n## ")]
	if strings.Contains(own, "stack-today") {
		t.Errorf("the scenario's own table, the design alone, shows stack-today:\n%s", own)
	}
}

// TestWithoutTodaysStackTheSectionSaysHowToRunIt: a run of the designs
// alone still names the other comparison, and says how to run it.
func TestWithoutTodaysStackTheSectionSaysHowToRunIt(t *testing.T) {
	sum := stacksSummary()
	sum.Scenarios[0].Sizes[0].Variants = sum.Scenarios[0].Sizes[0].Variants[:2]
	var md bytes.Buffer
	if err := writeMarkdown(&md, buildDocument(sum, nil, nil)); err != nil {
		t.Fatal(err)
	}
	if page := md.String(); !strings.Contains(page, "## Stack against stack") || !strings.Contains(page, "-variants=legacy,stack-today") {
		t.Errorf("without today's stack the report does not say how to compare the stacks:\n%s", page)
	}
}

// TestTheResultsPageSaysWhichComparisonEachColumnBelongsTo: a page with a
// column of today's stack says which comparison it is; one without says
// nothing of it. The columns are the variants that ran, as each was
// described when it ran, whatever the options named.
func TestTheResultsPageSaysWhichComparisonEachColumnBelongsTo(t *testing.T) {
	sum := stacksSummary()
	if line := comparisonLine(sum); !strings.Contains(line, "stack-today ran on today's whole control plane") || !strings.Contains(line, "Stack against stack") {
		t.Errorf("comparisonLine = %q", line)
	}
	sum.Scenarios[0].Sizes[0].Variants = sum.Scenarios[0].Sizes[0].Variants[:2]
	sum.Options.Variants = []string{"legacy", "modern", "stack-today"}
	if line := comparisonLine(sum); line != "" {
		t.Errorf("a run of our stack alone names the other comparison: %q", line)
	}
}
