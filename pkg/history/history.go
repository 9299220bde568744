package history

import (
	"fmt"
	"strings"
)

// Change is one change between the 2014 manager and today's.
type Change struct {
	// Name is the flag word: -without=<Name>, "(history: <Name>)".
	Name string
	// Title is a few words.
	Title string
	// Issues are the kubernetes/kubernetes issues that asked for it, as
	// "#n", so that a search for the number finds its story here.
	Issues []string
	// PRs are the kubernetes/kubernetes pull requests that made it, the
	// first one first, as "#n".
	PRs []string
	// Date is when the first PR merged, as precisely as it was checked:
	// 2015-04-03, or 2015-04 where only the month is known.
	Date string
	// DateSource says where Date was checked, or that it could not be.
	DateSource string
	// What says in one sentence what changed and why.
	What string
	// Scenario names the pkg/lab/scenario scenario that shows the effect;
	// empty when no scenario does (Unshown says why).
	Scenario string
	// Figure is the scenario's result that shows the effect.
	Figure string
	// WithoutMore says which way Figure moves when the change is switched
	// off: up (true) or down (false).
	WithoutMore bool
	// With and Without say what the scenario must show either way.
	With, Without string
	// Unshown says why no scenario shows the effect, when none does.
	Unshown string
	// Code is where the change lives in this repository.
	Code []Place
	// Switch says what -without=<Name> does; empty when the change cannot
	// be switched off honestly (NoSwitch says why).
	Switch string
	// NoSwitch says why the change has no switch.
	NoSwitch string
}

// Place is a declaration in a file of this repository.
type Place struct {
	File string
	// Decl is a function, method (Type.Method), type or constant name.
	Decl string
}

// Refs returns the change's issue and PR numbers as "#n" strings, PRs
// first.
func (c Change) Refs() []string {
	return append(append([]string{}, c.PRs...), c.Issues...)
}

// Switchable reports whether controller-manager-modern can switch the
// change off.
func (c Change) Switchable() bool { return c.Switch != "" }

// Get returns the named change.
func Get(name string) (Change, error) {
	for _, c := range Changes {
		if c.Name == name {
			return c, nil
		}
	}
	return Change{}, fmt.Errorf("no change named %q in the history (known: %s)", name, strings.Join(Names(), ", "))
}

// Names returns every change's name, in date order.
func Names() []string {
	out := make([]string, len(Changes))
	for i, c := range Changes {
		out[i] = c.Name
	}
	return out
}

// SwitchNames returns the names of the changes that can be switched off,
// in date order.
func SwitchNames() []string {
	var out []string
	for _, c := range Changes {
		if c.Switchable() {
			out = append(out, c.Name)
		}
	}
	return out
}

// ParseWithout reads a -without list: comma-separated change names. It
// refuses an unknown name, and a change that cannot be switched off,
// naming the valid ones.
func ParseWithout(list string) (map[string]bool, error) {
	off := map[string]bool{}
	for _, name := range strings.Split(list, ",") {
		name = strings.TrimSpace(name)
		if name == "" {
			continue
		}
		c, err := Get(name)
		if err != nil {
			return nil, fmt.Errorf("-without: no change named %q (valid: %s)", name, strings.Join(SwitchNames(), ", "))
		}
		if !c.Switchable() {
			return nil, fmt.Errorf("-without: %q cannot be switched off: %s (valid: %s)", name, c.NoSwitch, strings.Join(SwitchNames(), ", "))
		}
		off[name] = true
	}
	return off, nil
}

// FormatWithout writes a set of switched-off changes back as a -without
// list, in date order.
func FormatWithout(off map[string]bool) string {
	var names []string
	for _, n := range Names() {
		if off[n] {
			names = append(names, n)
		}
	}
	return strings.Join(names, ",")
}
