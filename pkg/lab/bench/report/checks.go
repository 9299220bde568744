package report

import (
	"fmt"
	"strings"

	"github.com/kube-rewind/kube-rewind/pkg/lab/bench/results"
)

func truth(b bool) *bool { return &b }

// median returns the median of a figure of a variant at a size, if run.
func medianOf(sz *results.SizeSummary, variant, figure string) (results.Figure, bool) {
	v, ok := sz.Variant(variant)
	if !ok || v.Runs == 0 {
		return results.Figure{}, false
	}
	return v.Figure(figure)
}

// largestSize returns the size of a scenario with the most replicas.
func largestSize(sc *results.ScenarioSummary) *results.SizeSummary {
	var best *results.SizeSummary
	for i := range sc.Sizes {
		if best == nil || sc.Sizes[i].Replicas > best.Replicas {
			best = &sc.Sizes[i]
		}
	}
	return best
}

func rangeText(f results.Figure) string {
	if len(f.Values) < 2 || f.Min == f.Max {
		return results.FormatNumber(f.Median)
	}
	return fmt.Sprintf("%s (%s–%s)", results.FormatNumber(f.Median), results.FormatNumber(f.Min), results.FormatNumber(f.Max))
}

// checks collects the failed checks of a finding, so that a NO says which.
type checks struct {
	ran    bool
	failed []string
}

// check records one check, and the reason when it fails.
func (c *checks) check(ok bool, format string, args ...interface{}) {
	c.ran = true
	if !ok {
		c.failed = append(c.failed, fmt.Sprintf(format, args...))
	}
}

// settle sets the finding's Holds, Verdict and Why from the checks: the
// summary when they all passed, or the failed checks and the summary in
// brackets, with why. Without checks the summary is the verdict.
func (c *checks) settle(f *results.Finding, summary, why string) {
	f.Verdict = summary
	if !c.ran {
		return
	}
	f.Holds = truth(len(c.failed) == 0)
	if len(c.failed) > 0 {
		f.Verdict = strings.Join(c.failed, "; ") + " (" + summary + ")"
		f.Why = why
	}
}
