// Package mdtable writes the Markdown tables of the pages the laboratory
// writes: the benchmark's reports and results pages, the LIST cost page and
// the mutation score, so that a cell holding a | stays in its cell on every
// one of them. It imports nothing of the laboratory, so that the test tools,
// which must not depend on the benchmark, may use it too.
//
// Ours: not part of 2014.
package mdtable
