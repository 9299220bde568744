package labels

// Follows kubernetes/kubernetes pkg/labels/labels.go as of v0.4 (October 2014).

import (
	"sort"
	"strings"
)

// Labels lets a selector read the labels of an object.
type Labels interface {
	// Get returns the value of label, or "" when it is absent.
	Get(label string) string
}

// Set is a map of label to value; it implements Labels.
type Set map[string]string

// String returns the pairs as "k=v" sorted by key and joined with commas.
func (ls Set) String() string {
	keys := make([]string, 0, len(ls))
	for k := range ls {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	parts := make([]string, 0, len(keys))
	for _, k := range keys {
		parts = append(parts, k+"="+ls[k])
	}
	return strings.Join(parts, ",")
}

// Get returns the value of label, or "" when it is absent.
func (ls Set) Get(label string) string {
	return ls[label]
}

// AsSelector returns a selector that requires every pair of the set.
func (ls Set) AsSelector() Selector {
	return SelectorFromSet(ls)
}
