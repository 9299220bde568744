package labels

// Follows kubernetes/kubernetes pkg/labels/selector.go as of v0.4 (October
// 2014): a selector is a conjunction of "k=v", "k==v" and "k!=v" terms.

import (
	"fmt"
	"sort"
	"strings"
)

// Selector matches a set of labels.
type Selector interface {
	// Matches reports whether the labels satisfy every term.
	Matches(Labels) bool
	// Empty reports whether the selector has no terms and so matches all.
	Empty() bool
	// RequiresExactMatch returns the value that an "=" term demands of label.
	RequiresExactMatch(label string) (value string, found bool)
	// String returns the selector in the form ParseSelector reads.
	String() string
}

// Everything returns a selector that matches all labels.
func Everything() Selector {
	return andTerm{}
}

type hasTerm struct {
	label, value string
}

func (t *hasTerm) Matches(ls Labels) bool { return ls.Get(t.label) == t.value }
func (t *hasTerm) Empty() bool            { return false }
func (t *hasTerm) String() string         { return t.label + "=" + t.value }
func (t *hasTerm) RequiresExactMatch(label string) (string, bool) {
	if t.label == label {
		return t.value, true
	}
	return "", false
}

type notHasTerm struct {
	label, value string
}

func (t *notHasTerm) Matches(ls Labels) bool { return ls.Get(t.label) != t.value }
func (t *notHasTerm) Empty() bool            { return false }
func (t *notHasTerm) String() string         { return t.label + "!=" + t.value }
func (t *notHasTerm) RequiresExactMatch(label string) (string, bool) {
	return "", false
}

type andTerm []Selector

func (t andTerm) Matches(ls Labels) bool {
	for _, q := range t {
		if !q.Matches(ls) {
			return false
		}
	}
	return true
}

func (t andTerm) Empty() bool {
	for _, q := range t {
		if !q.Empty() {
			return false
		}
	}
	return true
}

func (t andTerm) String() string {
	terms := make([]string, 0, len(t))
	for _, q := range t {
		terms = append(terms, q.String())
	}
	return strings.Join(terms, ",")
}

func (t andTerm) RequiresExactMatch(label string) (string, bool) {
	for _, q := range t {
		if value, found := q.RequiresExactMatch(label); found {
			return value, true
		}
	}
	return "", false
}

// SelectorFromSet returns a selector requiring every pair of ls; a nil or
// empty set selects everything. Terms come sorted by key so that the
// selector prints the same way every time.
func SelectorFromSet(ls Set) Selector {
	if ls == nil {
		return Everything()
	}
	keys := make([]string, 0, len(ls))
	for k := range ls {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	items := make(andTerm, 0, len(keys))
	for _, k := range keys {
		items = append(items, &hasTerm{label: k, value: ls[k]})
	}
	return items
}

// ParseSelector reads a comma-separated list of "k=v", "k==v" and "k!=v"
// terms. An empty string selects everything. Terms are sorted, so the
// result prints back in a canonical order.
//
// Ours: v0.4 sorted the terms as written, so "a==c,a=b" printed as
// "a=c,a=b", which parsed again printed as "a=b,a=c"; here the terms are
// sorted as they print. And v0.4 read "a!==b" as the key "a!" equal to
// "b", which prints as "a!=b" and so came back from a client as its
// opposite; a key ending in '!' is refused.
func ParseSelector(selector string) (Selector, error) {
	if selector == "" {
		return Everything(), nil
	}
	parts := strings.Split(selector, ",")
	sort.Strings(parts)
	items := make(andTerm, 0, len(parts))
	for _, part := range parts {
		if part == "" {
			continue
		}
		if lhs, rhs, ok := try(part, "!="); ok {
			items = append(items, &notHasTerm{label: lhs, value: rhs})
		} else if lhs, rhs, ok := try(part, "=="); ok && !strings.HasSuffix(lhs, "!") {
			items = append(items, &hasTerm{label: lhs, value: rhs})
		} else if lhs, rhs, ok := try(part, "="); ok && !strings.HasSuffix(lhs, "!") {
			items = append(items, &hasTerm{label: lhs, value: rhs})
		} else {
			return nil, fmt.Errorf("invalid selector: '%s'; can't understand '%s'", selector, part)
		}
	}
	sort.SliceStable(items, func(i, j int) bool { return items[i].String() < items[j].String() })
	return items, nil
}

// try splits part around exactly one op, with no second "=" on either side.
func try(part, op string) (lhs, rhs string, ok bool) {
	pieces := strings.Split(part, op)
	if len(pieces) == 2 && !strings.Contains(pieces[0], "=") && !strings.Contains(pieces[1], "=") {
		return pieces[0], pieces[1], true
	}
	return "", "", false
}
