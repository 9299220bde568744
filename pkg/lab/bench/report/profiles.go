package report

import (
	"fmt"
	"strings"

	"github.com/kube-rewind/kube-rewind/pkg/lab/bench/results"
	"github.com/kube-rewind/kube-rewind/pkg/lab/scenario"
)

// profilesSection writes the top entries of every merged profile.
func profilesSection(d *document, profiles []results.ProfileSummary) {
	if len(profiles) == 0 {
		return
	}
	d.h(2, "profiles", "Where the CPU went")
	d.p(fmt.Sprintf("CPU profiles (-profile) of the span each run measures, merged from back-to-back profiles of %v; "+
		"the %d functions with the most CPU of their own (flat), with what they called included (cum). The merged "+
		"profiles are in the report's run directories (`go tool pprof -top <file>`).", scenario.ProfileChunk, results.ProfileTop))
	for _, p := range profiles {
		d.h(3, "", fmt.Sprintf("%s %s %s #%d: %s", p.Scenario, p.Size, p.Variant, p.Run, p.Process))
		d.p(fmt.Sprintf("%s CPU s sampled over %s s of profile, from %s (%s s to %s s of the run); `%s`.",
			results.FormatNumber(p.CPU), results.FormatNumber(p.Profiled), p.Span, results.FormatNumber(p.From), results.FormatNumber(p.To), p.Path))
		if len(p.Activities) > 0 {
			d.p("By what it was doing: each sample counts for the innermost of its functions whose package names an activity, " +
				"the runtime's own passed over (its memory allocation counts for what allocated); what names none is listed by package.")
			at := table{header: []string{"activity", "CPU", "share"}, numeric: []bool{false, true, true}}
			for i, a := range p.Activities {
				if i == results.ProfileTop {
					break
				}
				at.rows = append(at.rows, []string{a.Function, results.FormatNumber(a.Flat) + " s", percent(a.Flat, p.CPU)})
			}
			d.table(at)
		}
		if len(p.Parts) > 0 {
			d.p("By the laboratory's job: each sample counts for the job its goroutine was started for (a profiler label, " +
				"pkg/lab/stack's parts.go), whatever it was doing.")
			pt := table{header: []string{"job", "CPU", "share"}, numeric: []bool{false, true, true}}
			for _, a := range p.Parts {
				pt.rows = append(pt.rows, []string{a.Function, results.FormatNumber(a.Flat) + " s", percent(a.Flat, p.CPU)})
			}
			d.table(pt)
		}
		t := table{header: []string{"function", "flat", "flat %", "cum", "cum %"}, numeric: []bool{false, true, true, true, true}}
		for _, r := range p.Top {
			t.rows = append(t.rows, []string{"`" + shortFunction(r.Function) + "`", results.FormatNumber(r.Flat) + " s", percent(r.Flat, p.CPU),
				results.FormatNumber(r.Cum) + " s", percent(r.Cum, p.CPU)})
		}
		d.table(t)
	}
}

func percent(v, total float64) string {
	if total <= 0 {
		return "–"
	}
	return fmt.Sprintf("%.1f %%", 100*v/total)
}

// shortFunction drops the module path of a function's package.
func shortFunction(name string) string {
	for _, prefix := range []string{"github.com/kube-rewind/kube-rewind/", "go.etcd.io/etcd/"} {
		name = strings.TrimPrefix(name, prefix)
	}
	return name
}
