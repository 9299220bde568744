package registry

import (
	"fmt"
	"strings"

	apierrors "github.com/kube-rewind/kube-rewind/pkg/api/errors"
	"github.com/kube-rewind/kube-rewind/pkg/labels"
)

// SelectorKeys returns the keys a selector's terms name, in its canonical
// order: "a=1,b!=2" names a and b.
func SelectorKeys(selector labels.Selector) []string {
	text := selector.String()
	if text == "" {
		return nil
	}
	var keys []string
	for _, term := range strings.Split(text, ",") {
		if i := strings.Index(term, "!="); i >= 0 {
			keys = append(keys, term[:i])
		} else if i := strings.Index(term, "="); i >= 0 {
			keys = append(keys, term[:i])
		}
	}
	return keys
}

// CheckFields returns a 400 naming the first key of field that kind cannot
// be selected by, or nil when every key is allowed.
//
// Ours: v0.4 matched unknown fields as if they were empty, so a misspelt
// field selector silently selected nothing (or everything, with "!=").
func CheckFields(kind string, field labels.Selector, allowed ...string) error {
	for _, key := range SelectorKeys(field) {
		ok := false
		for _, a := range allowed {
			if key == a {
				ok = true
				break
			}
		}
		if !ok {
			if len(allowed) == 0 {
				return apierrors.NewBadRequest(fmt.Sprintf("field selectors are not supported on %s (got %q)", kind, field.String()))
			}
			return apierrors.NewBadRequest(fmt.Sprintf("%s cannot be selected by field %q; supported fields: %s", kind, key, strings.Join(allowed, ", ")))
		}
	}
	return nil
}
