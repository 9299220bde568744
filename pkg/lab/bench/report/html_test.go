package report

import (
	"bytes"
	"regexp"
	"strings"
	"testing"

	"github.com/kube-rewind/kube-rewind/pkg/lab/bench/charts"
)

func TestTheHTMLReportRendersEachBlocksMarkdownAndKeepsItsMarks(t *testing.T) {
	d := &document{title: "old & new"}
	d.h(2, "findings", "Findings")
	d.h(3, "", "`apiserver` profile")
	d.p("a `x<y` and **bold** text")
	d.note("not measured")
	d.list("first", "second")
	d.table(table{
		header:   []string{"figure", "legacy", "modern"},
		rows:     [][]string{{"a|b", "1", "2"}, {"c", "3", "4"}},
		numeric:  []bool{false, true, true},
		class:    "findings",
		rowClass: []string{"", "no"},
	})
	d.figure(charts.Chart{Name: "scale-up_N=10_pods", Title: "pods", Caption: "pods **running**",
		SVG: []byte(`<?xml version="1.0"?>` + "\n" + `<svg width="640pt" height="400pt" viewBox="0 0 640 400"></svg>`)})
	var out bytes.Buffer
	if err := writeHTML(&out, d); err != nil {
		t.Fatal(err)
	}
	page := out.String()
	for _, tc := range []struct {
		name string
		want string
	}{
		{"the title is escaped in the window title", "<title>old &amp; new</title>"},
		{"the title heads the page", "<h1>old &amp; new</h1>"},
		{"a heading keeps its anchor", `<h2 id="findings">Findings</h2>`},
		{"a heading without an anchor has none", "<h3><code>apiserver</code> profile</h3>"},
		{"code and bold render, code escaped", "<p>a <code>x&lt;y</code> and <strong>bold</strong> text</p>"},
		{"a note is set apart", `<blockquote class="note">`},
		{"a note says it is one", "<strong>Note:</strong> not measured"},
		{"bullets are a list", "<li>second</li>"},
		{"a table keeps its class", `<table class="findings">`},
		{"a variant's column header takes its colour", `class="legacy"`},
		{"a finding that does not hold is highlighted", `<tr class="no">`},
		{"an escaped pipe is a pipe in its cell", "<td>a|b</td>"},
		{"a chart is drawn inline under its name", `<figure id="scale-up_N=10_pods">` + "\n" + `<svg viewBox="0 0 640 400"></svg>`},
		{"a chart's caption is rendered", "<figcaption><p>pods <strong>running</strong></p>\n</figcaption>"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if !strings.Contains(page, tc.want) {
				t.Errorf("the page lacks %q", tc.want)
			}
		})
	}
	for _, unwanted := range []string{"**", "`", "<?xml", "charts/scale-up_N=10_pods.svg", "| ---"} {
		if strings.Contains(page, unwanted) {
			t.Errorf("the page holds %q, Markdown or a file the page should not need", unwanted)
		}
	}
	// The numeric columns are aligned right by the Markdown and kept on
	// one line by the page's class for them.
	if got := len(regexp.MustCompile(`<td [^>]*class="num"[^>]*>[1-4]</td>`).FindAllString(page, -1)); got != 4 {
		t.Errorf("%d cells are marked numeric, want the 4 of the two numeric columns", got)
	}
}
