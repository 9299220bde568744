// Package validation checks objects before they are stored and fills in the
// defaults 2014 filled in while checking (port protocol TCP, restart policy
// Always). Each problem is one field error, so a 422 lists every bad field
// at once.
//
// Follows kubernetes/kubernetes pkg/api/validation as of v0.4 (October 2014).
// Ours: the id checks in ids.go, which v0.4 did not have.
package validation
