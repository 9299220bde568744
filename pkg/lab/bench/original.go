package bench

// The original v0.4 binaries as variants (legacy-original,
// stack-original): they are looked for where make original puts them, and
// held to the expectations of our port of 2014.

import (
	"github.com/kube-rewind/kube-rewind/pkg/lab/original"
	"github.com/kube-rewind/kube-rewind/pkg/lab/scenario"
)

// originalDir is where the original v0.4 binaries are looked for.
func (o Options) originalDir() string {
	if o.OriginalDir != "" {
		return o.OriginalDir
	}
	return original.DirBeside(o.BinDir)
}

// designOf names the design a variant must show, by its name: the
// original v0.4 binaries are held to what our 2014 port shows. A name no
// variant has is taken for a design of its own.
func designOf(variant string) string {
	if v, err := VariantByName(variant); err == nil {
		return v.Design
	}
	return variant
}

// is2014 says whether a variant is held to the 2014 design's
// expectations: our port, or the original v0.4 binaries.
func is2014(variant string) bool {
	return designOf(variant) == scenario.Legacy.Design
}
