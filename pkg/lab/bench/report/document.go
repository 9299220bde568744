package report

import (
	"github.com/kube-rewind/kube-rewind/pkg/lab/bench/charts"
)

// The report is built once as a list of blocks and then written twice, as
// Markdown and as HTML, so the two always say the same. Text is plain;
// `backticks` mark code in both.

type block interface{ isBlock() }

type heading struct {
	level int
	text  string
	id    string
}

type paragraph struct{ text string }

// note is a paragraph set apart: what was not measured, interruptions.
type note struct{ text string }

type bullets struct{ items []string }

type table struct {
	header []string
	rows   [][]string
	// numeric marks the columns to align right.
	numeric []bool
	// class names the table for the HTML report's styles.
	class string
	// rowClass, where set, marks a row: "no" for a finding that does
	// not hold, which the HTML report highlights.
	rowClass []string
}

type figure struct{ chart charts.Chart }

func (heading) isBlock() {}

func (paragraph) isBlock() {}

func (note) isBlock() {}

func (bullets) isBlock() {}

func (table) isBlock() {}

func (figure) isBlock() {}

type document struct {
	title  string
	blocks []block
}

func (d *document) h(level int, id, text string) {
	d.blocks = append(d.blocks, heading{level, text, id})
}

func (d *document) p(text string) { d.blocks = append(d.blocks, paragraph{text}) }

func (d *document) note(text string) { d.blocks = append(d.blocks, note{text}) }

func (d *document) list(items ...string) { d.blocks = append(d.blocks, bullets{items}) }

func (d *document) table(t table) { d.blocks = append(d.blocks, t) }

func (d *document) figure(c charts.Chart) { d.blocks = append(d.blocks, figure{c}) }

// figures returns the charts of the document's figures.
func (d *document) figures() []charts.Chart {
	var out []charts.Chart
	for _, b := range d.blocks {
		if f, ok := b.(figure); ok {
			out = append(out, f.chart)
		}
	}
	return out
}
