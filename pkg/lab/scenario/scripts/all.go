package scripts

import (
	"fmt"

	"github.com/kube-rewind/kube-rewind/pkg/lab/scenario"
)

// All returns every scenario, in the order reports and talk mode present
// them.
func All() []*scenario.Scenario {
	return []*scenario.Scenario{
		scaleUp(), scaleDown(), partialScaleDown(),
		idle(), churn(), apiErrors(), watchDrop(),
		twoManagers(), restart(), crash(), overlap(), recreate(), watchWindow(),
	}
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
