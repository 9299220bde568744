// Package testreport reports on the tests themselves: which tests a run of
// make test skipped and why, checked against the short list of skips CI
// allows (.ci/skips-allowed), and what mutation testing left alive in the
// subject packages (make mutate), written as a page.
//
// Ours: not part of 2014.
package testreport
