package findings

import (
	"slices"

	"github.com/kube-rewind/kube-rewind/pkg/lab/bench/results"
	"github.com/kube-rewind/kube-rewind/pkg/lab/scenario"
)

// Is2014 says whether a variant is held to the 2014 design's
// expectations: our port, or the original v0.4 binaries.
func Is2014(v scenario.Variant) bool { return v.Design == scenario.Legacy.Design }

// DesignAlone returns the sizes of sc without the variants that ran on
// today's stack, which belong to the other comparison.
func DesignAlone(sizes []results.SizeSummary) []results.SizeSummary {
	out := make([]results.SizeSummary, 0, len(sizes))
	for _, sz := range sizes {
		sz.Variants = slices.DeleteFunc(slices.Clone(sz.Variants), func(v results.VariantSummary) bool { return v.Of().OnToday() })
		if len(sz.Variants) > 0 {
			out = append(out, sz)
		}
	}
	return out
}

// DesignAloneSummary returns sum with only the design comparison's
// variants, for the findings.
func DesignAloneSummary(sum *results.Summary) *results.Summary {
	out := *sum
	out.Scenarios = nil
	for _, sc := range sum.Scenarios {
		sc.Sizes = DesignAlone(sc.Sizes)
		out.Scenarios = append(out.Scenarios, sc)
	}
	return &out
}
