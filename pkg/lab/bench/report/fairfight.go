package report

import (
	"fmt"
	"strings"

	"github.com/kube-rewind/kube-rewind/pkg/lab/bench/charts"
	"github.com/kube-rewind/kube-rewind/pkg/lab/bench/findings"
	"github.com/kube-rewind/kube-rewind/pkg/lab/bench/results"
	"github.com/kube-rewind/kube-rewind/pkg/lab/sampler"
	"github.com/kube-rewind/kube-rewind/pkg/lab/scenario"
)

// fairFightSection writes "The fair fight": every ablation of today's
// stack at parity beside its parity run, judged, and the waterfall from
// 2014's time to today's; nothing where no ablation ran.
func fairFightSection(d *document, sum *results.Summary) {
	runs := findings.AblationRuns(sum)
	falls := findings.Waterfalls(sum, runs)
	if len(runs) == 0 && len(falls) == 0 {
		return
	}
	d.h(3, "fair-fight", "The fair fight: the gap, cause by cause")
	d.p(fmt.Sprintf("At parity both stacks get the same work: as many nodes (one per %d pods, at least the scenario's own), "+
		"%d concurrent status writers in the simulated kubelets and no delay from binding to running, no limit on "+
		"requests in flight, no meter, and the laboratory reading both from their etcd member's write-ahead log (v0.4's "+
		"binaries too: their apiserver stores in an etcd member of its own, whose log is read as the others' are). Each ablation is a control run of today's stack at parity, "+
		"`%s-with-<ablation>`, or of v0.4's binaries at parity, `%s-with-<ablation>`, that sets one thing otherwise and predicted its effect on the time to all running "+
		"before it ran. A difference inside the two runs' spread counts as none.",
		scenario.ParityPodsPerNode, scenario.ParityStatusWriters, scenario.StackTodayParity.Name, scenario.StackOriginalParity.Name))
	if len(runs) > 0 {
		t := table{header: []string{"where", "ablation", "predicted", "with it (s)", "at parity (s)", "measured", "held"},
			numeric: []bool{false, false, false, true, true, false, false}}
		for _, r := range runs {
			held := "yes"
			if !r.Judgement.Holds {
				held = "**NOT EXPLAINED**"
				t.rowClass = append(t.rowClass, "no")
			} else {
				t.rowClass = append(t.rowClass, "")
			}
			measured := r.Judgement.Measured
			t.rows = append(t.rows, []string{r.Where, r.Ablation.Says, r.Judgement.Predicted,
				findings.RangeText(r.With), findings.RangeText(r.Without), measured, held})
		}
		d.table(t)
		if f, ok := findings.AblationFinding(runs); ok {
			d.p("Verdict: " + f.Verdict + ".")
			if f.Why != "" {
				d.p(f.Why)
			}
		}
	}
	for _, w := range falls {
		d.h(4, "waterfall-"+results.Slug(w.Where+" "+w.Steps[0].Label), fmt.Sprintf("%s: from %s to today's stack", w.Where, w.Steps[0].Label))
		var bars []charts.Step
		for _, s := range w.Steps {
			bars = append(bars, charts.Step{Label: s.Short, Seconds: s.Seconds, Total: s.Total})
		}
		name := "waterfall_" + results.Slug(w.Where+" "+w.Steps[0].Label)
		if c, ok := charts.Waterfall(name, fmt.Sprintf("%s: from %s to today's stack", w.Where, w.Steps[0].Label), bars, false); ok {
			d.figure(c)
		}
		t := table{header: []string{"step", "seconds", "running total", "how"}, numeric: []bool{false, true, true, false}}
		total := 0.0
		for _, s := range w.Steps {
			size := fmt.Sprintf("%+.2f", s.Seconds)
			if s.Total {
				total = s.Seconds
				size = fmt.Sprintf("%.2f", s.Seconds)
			} else {
				total += s.Seconds
			}
			t.rows = append(t.rows, []string{s.Label, size, fmt.Sprintf("%.2f", total), s.Note})
		}
		d.table(t)
		switch {
		case w.Gap <= 0:
			d.p(fmt.Sprintf("At parity today's stack was no slower: %+.2f s.", w.Gap))
		case w.Unexplained:
			d.note(fmt.Sprintf("**NOT EXPLAINED**: %.2f s of the %.2f s gap at parity (%.0f %%) is named by no ablation, over the %.0f %% "+
				"the laboratory allows; kube-apiserver's CPU profile (run with -profile) says where its CPU went.", w.Left, w.Gap, 100*w.Left/w.Gap, 100*findings.LeftAllowed))
		default:
			d.p(fmt.Sprintf("The ablations name all but %.2f s of the %.2f s gap at parity (%.0f %%).", w.Left, w.Gap, 100*w.Left/w.Gap))
		}
		if text := whereTheCPUWent(sum.Profiles, w.Where); text != "" {
			d.p(text)
		}
		if text := theLaboratorysJobs(sum.Profiles, w.Where); text != "" {
			d.p(text)
		}
	}
}

// theLaboratorysJobs names, from the profiles of the laboratory's own
// process beside each stack at parity at where, what it spent its CPU on,
// by job: its share of each corner, v0.4's status reads in 2014's, and in
// runs made before v0.4's member served its v2 API on a listener of its
// own, the etcd front.
func theLaboratorysJobs(profiles []results.ProfileSummary, where string) string {
	parts := eachParityProfile(profiles, where, sampler.ProcessSelf, func(v string, p results.ProfileSummary) string {
		if len(p.Parts) == 0 {
			return ""
		}
		var jobs []string
		for _, a := range p.Parts {
			jobs = append(jobs, fmt.Sprintf("%s %s CPU s", a.Function, results.FormatNumber(a.Flat)))
		}
		return fmt.Sprintf("beside %s (run %d) it sampled %s CPU s: %s", v, p.Run, results.FormatNumber(p.CPU), strings.Join(jobs, ", "))
	})
	if len(parts) == 0 {
		return ""
	}
	return "The laboratory's own process (rcbench), by job (the profiles section has each run's): " + strings.Join(parts, "; ") +
		". Its CPU shares the two cores with the stack it measures, so a job of it is a cost of that corner the stack's own figures leave out."
}

// whereTheCPUWent names, from the apiserver profiles of v0.4's binaries,
// 2014's port and today's stack at parity at where ("scale-up N=1000"), what each spent
// its CPU on, by activity: what the ablations leave, named.
func whereTheCPUWent(profiles []results.ProfileSummary, where string) string {
	parts := eachParityProfile(profiles, where, sampler.ProcessAPIServer, func(v string, p results.ProfileSummary) string {
		var top []string
		for i, a := range p.Activities {
			if i == 5 {
				break
			}
			top = append(top, fmt.Sprintf("%s %s", a.Function, percent(a.Flat, p.CPU)))
		}
		return fmt.Sprintf("%s's apiserver (run %d) sampled %s CPU s: %s", v, p.Run, results.FormatNumber(p.CPU), strings.Join(top, ", "))
	})
	if len(parts) == 0 {
		return ""
	}
	return "Where the apiservers' CPU went, by activity (the profiles section has the functions): " + strings.Join(parts, "; ") + "."
}

// eachParityProfile says, for v0.4's binaries, our port and today's
// stack at parity in that order, what say makes of the first profile of
// process at where that sampled any CPU, leaving out a stack it has none
// of or whose profile say makes nothing of.
func eachParityProfile(profiles []results.ProfileSummary, where, process string, say func(variant string, p results.ProfileSummary) string) []string {
	var out []string
	for _, v := range []string{scenario.StackOriginalParity.Name, scenario.LegacyParity.Name, scenario.StackTodayParity.Name} {
		for _, p := range profiles {
			if p.Scenario+" "+p.Size != where || p.Variant != v || p.Process != process || p.CPU <= 0 {
				continue
			}
			if text := say(v, p); text != "" {
				out = append(out, text)
				break
			}
		}
	}
	return out
}
