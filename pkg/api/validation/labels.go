package validation

import (
	"strings"
	"unicode"

	errs "github.com/kube-rewind/kube-rewind/pkg/api/errors"
)

// The allowed forms of label keys, label values and selector values, as
// errors state them.
const (
	FormLabelKey      = "a label key must be 1 to 253 characters without '=', ',', '!', control characters or surrounding spaces"
	FormLabelValue    = "a label value must hold no control characters"
	FormSelectorValue = "a selector value must hold no '=', ',', '!' or control characters"
)

// validateLabels checks the labels of an object. v0.4 stored any label, and
// a label value is only ever compared, never parsed or made into a key, so
// values such as "redisslave,redis-master" (the v0.5 guestbook's "uses"
// label) are accepted as they were.
//
// Ours: keys are refused when a selector could not name them ('=', ',' or
// '!', or blank edges), and keys and values when they hold a control
// character (a newline, an escape sequence), which would rewrite the
// terminal of whoever listed the object with kubecfg. v0.4 stored both; a
// 2014 manifest that used one is refused with 422.
func validateLabels(field string, set map[string]string) errs.ErrorList {
	allErrs := errs.ErrorList{}
	for k, v := range set {
		if !validLabelKey(k) {
			allErrs = append(allErrs, errs.NewFieldInvalidForm(field, k, FormLabelKey))
		}
		if hasControl(v) {
			allErrs = append(allErrs, errs.NewFieldInvalidForm(field+"["+k+"]", v, FormLabelValue))
		}
	}
	return allErrs
}

// validateSelector checks a selector that the 2014 manager and endpoints
// controller send as a `labels=` query: each term is key=value and the
// terms are joined by ','.
//
// Ours: v0.4 stored any selector. One whose value held ',' or '=' (or '!')
// could not be written as a query, so the manager's LIST of its pods failed
// at every tick and the controller never got a replica; it is refused with
// 422 here instead.
func validateSelector(field string, set map[string]string) errs.ErrorList {
	allErrs := errs.ErrorList{}
	for k, v := range set {
		if !validLabelKey(k) {
			allErrs = append(allErrs, errs.NewFieldInvalidForm(field, k, FormLabelKey))
		}
		if strings.ContainsAny(v, "=,!") || hasControl(v) {
			allErrs = append(allErrs, errs.NewFieldInvalidForm(field+"["+k+"]", v, FormSelectorValue))
		}
	}
	return allErrs
}

func validLabelKey(k string) bool {
	return k != "" && len(k) <= 253 && !strings.ContainsAny(k, "=,!") && strings.TrimSpace(k) == k && !hasControl(k)
}

// hasControl reports whether s holds a control or formatting character
// (a newline, an escape, a bidirectional override): nothing a name needs,
// and everything a forged table row or terminal sequence does.
func hasControl(s string) bool {
	return strings.IndexFunc(s, func(r rune) bool {
		return unicode.IsControl(r) || unicode.Is(unicode.Cf, r)
	}) >= 0
}
