package validation

import (
	"strings"
	"unicode"

	errs "github.com/kube-rewind/kube-rewind/pkg/api/errors"
)

// The allowed forms of label keys and values, as errors state them.
const (
	FormLabelKey   = "a label key must be 1 to 253 characters without '=', ',', '!', control characters or surrounding spaces"
	FormLabelValue = "a label value must be at most 63 characters without '=', ',', '!' or control characters"
)

// validateLabels refuses label keys and values that a selector could not
// express.
//
// Ours: 2014 stored any label; one with '=' or ',' in it could never be
// selected again, and one with a control character (a newline, an escape
// sequence) could rewrite the terminal of whoever listed it with kubecfg.
func validateLabels(field string, set map[string]string) errs.ErrorList {
	allErrs := errs.ErrorList{}
	for k, v := range set {
		if k == "" || len(k) > 253 || strings.ContainsAny(k, "=,!") || strings.TrimSpace(k) != k || hasControl(k) {
			allErrs = append(allErrs, errs.NewFieldInvalidForm(field, k, FormLabelKey))
		}
		if len(v) > 63 || strings.ContainsAny(v, "=,!") || hasControl(v) {
			allErrs = append(allErrs, errs.NewFieldInvalidForm(field+"["+k+"]", v, FormLabelValue))
		}
	}
	return allErrs
}

// hasControl reports whether s holds a control or formatting character
// (a newline, an escape, a bidirectional override): nothing a name needs,
// and everything a forged table row or terminal sequence does.
func hasControl(s string) bool {
	return strings.IndexFunc(s, func(r rune) bool {
		return unicode.IsControl(r) || unicode.Is(unicode.Cf, r)
	}) >= 0
}
