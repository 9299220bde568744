package scripts

import (
	"fmt"
	"slices"

	"github.com/kube-rewind/kube-rewind/pkg/lab/scenario"
)

// entry is a scenario of the catalogue: the function that describes it,
// and its place in the order reports and talk mode present them.
type entry struct {
	place    int
	describe func() *scenario.Scenario
}

// catalogue holds every scenario, which each script file adds beside the
// function that describes it (described). A scenario's description is all
// there is of it: make bench, talk mode and the results page read its
// plan line, live figure, length and headline figures from it, so that a
// new scenario is its file alone.
var catalogue []entry

// described adds describe's scenario to the catalogue at place: reports
// and talk mode present the scenarios by place, smallest first.
func described(place int, describe func() *scenario.Scenario) struct{} {
	catalogue = append(catalogue, entry{place, describe})
	return struct{}{}
}

// All returns every scenario, in the order reports and talk mode present
// them.
func All() []*scenario.Scenario {
	entries := slices.Clone(catalogue)
	slices.SortStableFunc(entries, func(a, b entry) int { return a.place - b.place })
	out := make([]*scenario.Scenario, 0, len(entries))
	for _, e := range entries {
		out = append(out, e.describe())
	}
	return out
}

// Get returns the named scenario.
func Get(name string) (*scenario.Scenario, error) {
	for _, sc := range All() {
		if sc.Name == name {
			return sc, nil
		}
	}
	return nil, fmt.Errorf("no scenario named %q (known: %v)", name, Names())
}

// Names returns the scenario names in presentation order.
func Names() []string {
	var names []string
	for _, sc := range All() {
		names = append(names, sc.Name)
	}
	return names
}
