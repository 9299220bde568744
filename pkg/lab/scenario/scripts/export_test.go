package scripts

import (
	"slices"
	"testing"

	"github.com/kube-rewind/kube-rewind/pkg/lab/scenario"
)

// Register adds sc after the scenarios of the catalogue until the test
// ends, as a new script file would add it (described).
func Register(t testing.TB, sc *scenario.Scenario) {
	t.Helper()
	saved := catalogue
	last := 0
	for _, e := range catalogue {
		last = max(last, e.place)
	}
	catalogue = slices.Clone(catalogue)
	described(last+10, func() *scenario.Scenario {
		c := *sc
		return &c
	})
	t.Cleanup(func() { catalogue = saved })
}

// Places are the catalogue's places, in the order the script files add
// them.
func Places() []int {
	var out []int
	for _, e := range catalogue {
		out = append(out, e.place)
	}
	return out
}
