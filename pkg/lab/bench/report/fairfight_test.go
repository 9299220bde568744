package report

import (
	"bytes"
	"strings"
	"testing"

	"github.com/kube-rewind/kube-rewind/pkg/lab/bench/results"
	"github.com/kube-rewind/kube-rewind/pkg/lab/sampler"
	"github.com/kube-rewind/kube-rewind/pkg/lab/scenario"
	"github.com/kube-rewind/kube-rewind/pkg/lab/stack"
)

// TestTheFairFightSectionDrawsItsWaterfallAndJudgesEachAblation: with a
// 2014 parity run, today's at parity and as run before, and two
// ablations, the section draws the waterfall, writes its steps as a
// table, and marks the ablation whose prediction missed.
func TestTheFairFightSectionDrawsItsWaterfallAndJudgesEachAblation(t *testing.T) {
	run := func(name string, times ...float64) results.VariantSummary {
		return results.VariantSummary{Variant: name, Runs: len(times), Figures: []results.Figure{
			{Name: "time_to_running", Unit: "s", Stats: results.Summarize(times)}}}
	}
	sum := &results.Summary{Scenarios: []results.ScenarioSummary{{Name: "scale-up", Sizes: []results.SizeSummary{{
		Label: "N=1000", Replicas: 1000, Variants: []results.VariantSummary{
			run(scenario.LegacyParity.Name, 2.9, 3.0, 3.1),
			run(scenario.StackTodayParity.Name, 5.9, 6.0, 6.1),
			run(scenario.StackTodayUnthrottled.Name, 9.8, 10.0, 10.2),
			run(scenario.StackTodayParity.Name+"-with-"+scenario.AblateDirectBinder, 3.4, 3.5, 3.6),
			run(scenario.StackTodayParity.Name+"-with-"+scenario.AblateLimits, 8.9, 9.0, 9.1),
		}}}}}}
	d := &document{}
	fairFightSection(d, sum)
	figs := d.figures()
	if len(figs) != 1 || !bytes.Contains(figs[0].SVG, []byte("kube-scheduler")) {
		t.Fatalf("%d figures; want the waterfall, with kube-scheduler's bar", len(figs))
	}
	var md bytes.Buffer
	if err := writeMarkdown(&md, d); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"charts/" + figs[0].Name + ".svg", "| kube-scheduler, against binding directly | +2.50 |",
		"priority and fairness and inflight limits on", "**NOT EXPLAINED**"} {
		if !strings.Contains(md.String(), want) {
			t.Errorf("the section lacks %q:\n%s", want, md.String())
		}
	}

	// The results page, which make publish commits, holds the section
	// and its waterfall too: the fair fight's page is that page.
	page := buildResults(sum, nil, nil)
	md.Reset()
	if err := writeMarkdown(&md, page); err != nil {
		t.Fatal(err)
	}
	if pf := page.figures(); len(pf) != 1 || !strings.Contains(md.String(), "charts/"+pf[0].Name+".svg") ||
		!strings.Contains(md.String(), "The fair fight: the gap, cause by cause") {
		t.Errorf("the results page lacks the fair fight or its waterfall (%d figures):\n%s", len(pf), md.String())
	}
}

// TestTheFairFightNamesWhereEachApiserverAndTheLaboratorySpentTheirCPU:
// beside the waterfall, the apiservers' profiles by activity, v0.4's
// included, and the laboratory's own profile by job in each corner.
func TestTheFairFightNamesWhereEachApiserverAndTheLaboratorySpentTheirCPU(t *testing.T) {
	row := func(name string, v float64) results.ProfileRow { return results.ProfileRow{Function: name, Flat: v} }
	profiles := []results.ProfileSummary{
		{Scenario: "scale-up", Size: "N=1000", Variant: scenario.StackOriginalParity.Name, Run: 1, Process: sampler.ProcessAPIServer, CPU: 20,
			Activities: []results.ProfileRow{row("encoding and decoding", 9), row("conversion and defaulting", 4)}},
		{Scenario: "scale-up", Size: "N=1000", Variant: scenario.StackOriginalParity.Name, Run: 1, Process: sampler.ProcessSelf, CPU: 7,
			Parts: []results.ProfileRow{row(stack.PartEtcdFront, 4), row(stack.PartStatusReads, 2), row(results.PartsRest, 1)}},
		{Scenario: "scale-up", Size: "N=1000", Variant: scenario.LegacyParity.Name, Run: 2, Process: sampler.ProcessSelf, CPU: 1.5,
			Parts: []results.ProfileRow{row(stack.PartPodReader, 1), row(results.PartsRest, 0.5)}},
		{Scenario: "scale-up", Size: "N=10000", Variant: scenario.LegacyParity.Name, Run: 1, Process: sampler.ProcessSelf, CPU: 9,
			Parts: []results.ProfileRow{row(stack.PartPodReader, 9)}},
	}
	cpu := whereTheCPUWent(profiles, "scale-up N=1000")
	if !strings.Contains(cpu, "stack-original-parity's apiserver (run 1) sampled 20 CPU s: encoding and decoding 45.0 %") {
		t.Errorf("v0.4's apiserver left out: %s", cpu)
	}
	jobs := theLaboratorysJobs(profiles, "scale-up N=1000")
	for _, want := range []string{"beside stack-original-parity (run 1) it sampled 7 CPU s: the etcd front 4 CPU s, v0.4's pod status reads 2 CPU s",
		"beside legacy-parity (run 2) it sampled 1.50 CPU s: the pod reader 1 CPU s"} {
		if !strings.Contains(jobs, want) {
			t.Errorf("the laboratory's jobs lack %q: %s", want, jobs)
		}
	}
	if strings.Contains(jobs, "9 CPU s") {
		t.Errorf("another size's profile read: %s", jobs)
	}
	d := &document{}
	profilesSection(d, profiles[1:2])
	var md bytes.Buffer
	if err := writeMarkdown(&md, d); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(md.String(), "| the etcd front | 4 s | 57.1 % |") {
		t.Errorf("the profiles section gives no table of the laboratory's jobs:\n%s", md.String())
	}
}
