package scenario

import "fmt"

// All returns every scenario, in the order reports and talk mode present
// them.
func All() []*Scenario {
	return []*Scenario{
		scaleUp(), scaleDown(), partialScaleDown(),
		idle(), churn(), apiErrors(), watchDrop(),
		twoManagers(), restart(), crash(), overlap(), recreate(), watchWindow(),
	}
}

// Get returns the named scenario.
func Get(name string) (*Scenario, error) {
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
