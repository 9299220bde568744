package scripts

import (
	"testing"

	"github.com/kube-rewind/kube-rewind/pkg/lab/scenario"
)

// Register adds sc after the scenarios of the catalogue until the test
// ends, as a new scenario would be added to it.
func Register(t testing.TB, sc *scenario.Scenario) {
	t.Helper()
	saved := catalogue
	catalogue = append(catalogue[:len(catalogue):len(catalogue)], func() *scenario.Scenario {
		c := *sc
		return &c
	})
	t.Cleanup(func() { catalogue = saved })
}
