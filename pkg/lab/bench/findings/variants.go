package findings

import (
	"slices"

	"github.com/kube-rewind/kube-rewind/pkg/lab/bench/results"
	"github.com/kube-rewind/kube-rewind/pkg/lab/scenario"
)

// DesignOf names the design a variant must show, by its name: the
// original v0.4 binaries are held to what our 2014 port shows. A name no
// variant has is taken for a design of its own.
func DesignOf(variant string) string {
	if v, err := scenario.VariantByName(variant); err == nil {
		return v.Design
	}
	return variant
}

// Is2014 says whether a variant is held to the 2014 design's
// expectations: our port, or the original v0.4 binaries.
func Is2014(variant string) bool {
	return DesignOf(variant) == scenario.Legacy.Design
}

// OnTodayStack says whether a variant ran on today's stack.
func OnTodayStack(variant string) bool {
	v, err := scenario.VariantByName(variant)
	return err == nil && v.OnToday()
}

// DesignAlone returns the sizes of sc without the variants that ran on
// today's stack, which belong to the other comparison.
func DesignAlone(sizes []results.SizeSummary) []results.SizeSummary {
	out := make([]results.SizeSummary, 0, len(sizes))
	for _, sz := range sizes {
		sz.Variants = slices.DeleteFunc(slices.Clone(sz.Variants), func(v results.VariantSummary) bool { return OnTodayStack(v.Variant) })
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
