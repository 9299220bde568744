package scripts

import (
	"fmt"

	"github.com/kube-rewind/kube-rewind/pkg/lab/scenario"
)

// catalogue lists every scenario by the function that describes it, in
// the order reports and talk mode present them. A scenario's description
// is all there is of it: make bench, talk mode and the results page read
// its plan line, live figure, length and headline figures from it.
var catalogue = []func() *scenario.Scenario{
	scaleUp, scaleDown, partialScaleDown,
	idle, churn, apiErrors, watchDrop,
	twoManagers, restart, crash, overlap, recreate, watchWindow,
}

// All returns every scenario, in the order reports and talk mode present
// them.
func All() []*scenario.Scenario {
	out := make([]*scenario.Scenario, 0, len(catalogue))
	for _, describe := range catalogue {
		out = append(out, describe())
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
