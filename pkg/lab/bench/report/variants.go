package report

import (
	"github.com/kube-rewind/kube-rewind/pkg/lab/scenario"
)

// designOf names the design a variant must show, by its name: the
// original v0.4 binaries are held to what our 2014 port shows. A name no
// variant has is taken for a design of its own.
func designOf(variant string) string {
	if v, err := scenario.VariantByName(variant); err == nil {
		return v.Design
	}
	return variant
}

// is2014 says whether a variant is held to the 2014 design's
// expectations: our port, or the original v0.4 binaries.
func is2014(variant string) bool {
	return designOf(variant) == scenario.Legacy.Design
}
