// Package pagetest holds the helpers that the tests of talk mode's pages
// share, in pkg/lab/demo, demo/live and demo/deck: a headless Chromium and
// its tabs, what a page measures of its own layout, a file's address, the
// pixels of running pods in a screenshot, and the shipped recordings.
// Nothing outside tests imports it.
//
// Ours: not part of 2014.
package pagetest
