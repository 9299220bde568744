// Package scripts defines, once, each situation the project replays: what
// cluster it needs, the steps it takes (each with a sentence saying what
// happens and what to look for), the figures it reports, and the outcome
// each design must show, written in the framework of pkg/lab/scenario.
//
// Each scenario is a function that returns its description, its sizes and
// its Script (steps, results, expectation), and with them what the rest
// of the lab reads of it: how make bench runs it by default
// (scenario.Bench), the figure talk mode's page measures live
// (scenario.LiveFigure), its figures in the results page's headline and,
// where examples/talk holds no recording of it, how long it plays at talk
// size. All lists them in the order reports and talk mode present them,
// and Get finds one by name: a new scenario is one function, added to the
// catalogue All reads, and nothing else.
//
// It sits above pkg/lab/scenario and imports it; the framework imports no
// scenario. The packages that run scenarios (bench, demo, the end-to-end
// tests) import both.
//
// Ours: not part of 2014.
package scripts
