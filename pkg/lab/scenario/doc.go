// Package scenario defines, once, each situation the project replays: what
// cluster it needs, the steps it takes (each with a sentence saying what
// happens and what to look for), the figures it reports, and the outcome
// each design must show. make bench runs them many times and measures;
// talk mode runs one on both designs side by side and narrates; the tests
// run them small and check the outcomes.
//
// Each scenario is a function that returns its description, its sizes and
// its Script (steps, results, expectation); All lists them in the order
// reports and talk mode present them.
//
// Ours: not part of 2014.
package scenario
