package history

import (
	"fmt"
	"regexp"
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
	// PRs are the kubernetes/kubernetes pull requests that made it, as
	// "#n": the one that made the change first, then those it was built on
	// or that completed it.
	PRs []string
	// Merged says, for each of PRs in the same order, when it merged and
	// which public pages show it.
	Merged []Merge
	// Date is when PRs[0] merged, Merged[0].Date: the change's place in
	// the history.
	Date string
	// What says in one sentence what changed and why.
	What string
	// Scenario names the pkg/lab/scenario/scripts scenario that shows the effect;
	// empty when no scenario does (Unshown says why).
	Scenario string
	// Figure is the scenario's result that shows the effect. Every one
	// counts a cost, so lower is better.
	Figure string
	// WithoutMore says which way Figure moves when the change is switched
	// off: up (true) or down (false).
	WithoutMore bool
	// With and Without say what the scenario must show either way.
	With, Without string
	// Cost says, for a change whose figure is better without it
	// (WithoutMore false: the change costs that figure), what the change
	// buys at that price.
	Cost string
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

// Merge is when one pull request merged, as far as public pages show it.
type Merge struct {
	// PR is the pull request, "#n".
	PR string
	// Date is the day it merged, YYYY-MM-DD in UTC, where a page shows the
	// day (its merge commit). Otherwise it is what the pages bound it to:
	// "2017-08/09" (August or September 2017) or "2021", and Known says
	// what they show.
	Date string
	// Known says what the pages show when they do not give the day.
	Known string
	// Brought says what this pull request brought to the change.
	Brought string
	// Sources are the public pages a reader can open to check Date.
	Sources []Source
}

// Pinned reports whether the merge's day is known.
func (m Merge) Pinned() bool { return dayPattern.MatchString(m.Date) }

var dayPattern = regexp.MustCompile(`^\d{4}-\d{2}-\d{2}$`)

// Source is a public page: a merge commit, a pull request, a changelog or
// release notes.
type Source struct {
	URL string
	// Shows says what the page shows: "merge commit", or the line that
	// dates the change.
	Shows string
}

// commit is the source that pins a merge: its merge commit upstream.
func commit(sha string) Source {
	return Source{URL: "https://github.com/kubernetes/kubernetes/commit/" + sha, Shows: "merge commit"}
}

// pull is a kubernetes/kubernetes pull request's page, for what its thread
// shows.
func pull(n, shows string) Source {
	return Source{URL: "https://github.com/kubernetes/kubernetes/pull/" + n, Shows: shows}
}

// changelog is a line of a kubernetes/kubernetes CHANGELOG file.
func changelog(minor, shows string) Source {
	return Source{URL: "https://github.com/kubernetes/kubernetes/blob/master/CHANGELOG/CHANGELOG-" + minor + ".md", Shows: shows}
}

// DateSource returns the first page that shows the change's date.
func (c Change) DateSource() Source {
	if len(c.Merged) == 0 || len(c.Merged[0].Sources) == 0 {
		return Source{}
	}
	return c.Merged[0].Sources[0]
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
