package findings

import (
	"fmt"
	"strings"

	"github.com/kube-rewind/kube-rewind/pkg/lab/bench/results"
)

func truth(b bool) *bool { return &b }

// median returns the median of a figure of a variant at a size, if run.
func MedianOf(sz *results.SizeSummary, variant, figure string) (results.Figure, bool) {
	v, ok := sz.Variant(variant)
	if !ok || v.Runs == 0 {
		return results.Figure{}, false
	}
	return v.Figure(figure)
}

// LargestSize returns the size of a scenario with the most replicas.
func LargestSize(sc *results.ScenarioSummary) *results.SizeSummary {
	var best *results.SizeSummary
	for i := range sc.Sizes {
		if best == nil || sc.Sizes[i].Replicas > best.Replicas {
			best = &sc.Sizes[i]
		}
	}
	return best
}

// RangeText writes a figure's median, with its range where several runs
// differ.
func RangeText(f results.Figure) string {
	if len(f.Values) < 2 || f.Min == f.Max {
		return results.FormatNumber(f.Median)
	}
	return fmt.Sprintf("%s (%s–%s)", results.FormatNumber(f.Median), results.FormatNumber(f.Min), results.FormatNumber(f.Max))
}

// checks collects the failed checks of a finding, so that a NO says which,
// and why each failed: a reason, held to its prediction.
type checks struct {
	ran    bool
	failed []string
	// reasons are the failed checks' reasons with their judgements, in
	// order; a failed check with no reason leaves a nil judgement.
	reasons []judgedReason
}

// reason is a stated cause of a failed check and what it predicts: the
// direction and the size of the difference it accounts for.
type reason struct {
	why     string
	predict results.Prediction
}

// judgedReason is a failed check's reason, if it has one, and its
// prediction held against the measurement.
type judgedReason struct {
	check, why string
	judgement  *results.Judgement
}

// check records one check that has no reason to offer when it fails: a
// failure of it is NOT EXPLAINED. note, when set, says what such a
// failure would point at (a defect to look for), which is no explanation.
func (c *checks) check(ok bool, format string, args ...interface{}) {
	c.ran = true
	if !ok {
		msg := fmt.Sprintf(format, args...)
		c.failed = append(c.failed, msg)
		c.reasons = append(c.reasons, judgedReason{check: msg})
	}
}

// checkBecause records one check and, when it fails, the reason it has
// for failing, held to its prediction of theirs against ours (in unit).
func (c *checks) checkBecause(ok bool, r reason, sides results.Sides, unit string, ours, theirs float64, format string, args ...interface{}) {
	c.ran = true
	if ok {
		return
	}
	msg := fmt.Sprintf(format, args...)
	c.failed = append(c.failed, msg)
	j := r.predict.Judge(sides, unit, ours, theirs)
	c.reasons = append(c.reasons, judgedReason{check: msg, why: r.why, judgement: &j})
}

// alsoBecause adds a second reason to the last failed check, held to its
// own prediction; what is labels it.
func (c *checks) alsoBecause(r reason, sides results.Sides, unit string, ours, theirs float64, what string) {
	j := r.predict.Judge(sides, unit, ours, theirs)
	c.reasons = append(c.reasons, judgedReason{check: what, why: r.why, judgement: &j})
}

// settle sets the finding's Holds, Verdict, Why and Explained from the
// checks: the summary when they all passed, or the failed checks and the
// summary in brackets, with each one's reason, what it predicts and what
// was measured. A failed check without a reason, or whose reason's
// prediction the measurement misses, makes the finding NOT EXPLAINED;
// unexplained, when set, says what such a failure would point at.
func (c *checks) settle(f *results.Finding, summary, unexplained string) {
	f.Verdict = summary
	if !c.ran {
		return
	}
	f.Holds = truth(len(c.failed) == 0)
	if len(c.failed) == 0 {
		return
	}
	f.Verdict = strings.Join(c.failed, "; ") + " (" + summary + ")"
	ok := true
	var parts []string
	for _, r := range c.reasons {
		switch {
		case r.judgement == nil:
			ok = false
			parts = append(parts, "**NOT EXPLAINED**: "+r.check+": no known reason.")
		case !r.judgement.Holds:
			ok = false
			f.Judgements = append(f.Judgements, *r.judgement)
			parts = append(parts, fmt.Sprintf("**NOT EXPLAINED**: %s: its reason predicts %s; measured %s. The reason given: %s.%s",
				r.check, r.judgement.Predicted, r.judgement.Measured, strings.TrimSuffix(r.why, "."), ControlText(r.judgement)))
		default:
			f.Judgements = append(f.Judgements, *r.judgement)
			parts = append(parts, fmt.Sprintf("%s: %s. Predicted: %s; measured: %s.%s", r.check, strings.TrimSuffix(r.why, "."),
				r.judgement.Predicted, r.judgement.Measured, ControlText(r.judgement)))
		}
	}
	if !ok && unexplained != "" {
		parts = append(parts, unexplained)
	}
	f.Explained = truth(ok)
	f.Why = strings.Join(parts, " ")
}

// ControlText names the run that tests a reason's cause, if it has one.
func ControlText(j *results.Judgement) string {
	if j == nil || j.Control == "" {
		return ""
	}
	return " Control run: " + j.Control + "."
}
