package report

import (
	"bufio"
	"fmt"
	"io"
	"strings"
)

// writeMarkdown writes the document as Markdown; charts are the SVG files
// under charts/.
func writeMarkdown(w io.Writer, d *document) error {
	bw := bufio.NewWriter(w)
	fmt.Fprintf(bw, "# %s\n\n", d.title)
	for _, b := range d.blocks {
		switch b := b.(type) {
		case heading:
			fmt.Fprintf(bw, "%s %s\n\n", strings.Repeat("#", b.level), b.text)
		case paragraph:
			fmt.Fprintf(bw, "%s\n\n", b.text)
		case note:
			fmt.Fprintf(bw, "> **Note:** %s\n\n", b.text)
		case bullets:
			for _, it := range b.items {
				fmt.Fprintf(bw, "- %s\n", it)
			}
			fmt.Fprintln(bw)
		case table:
			writeMarkdownTable(bw, b)
		case figure:
			fmt.Fprintf(bw, "![%s](charts/%s.svg)\n\n*%s*\n\n", b.chart.Title, b.chart.Name, b.chart.Caption)
		}
	}
	return bw.Flush()
}

func writeMarkdownTable(w io.Writer, t table) {
	cell := func(s string) string { return strings.ReplaceAll(s, "|", "\\|") }
	var head, rule []string
	for i, h := range t.header {
		head = append(head, cell(h))
		if i < len(t.numeric) && t.numeric[i] {
			rule = append(rule, "---:")
		} else {
			rule = append(rule, "---")
		}
	}
	fmt.Fprintf(w, "| %s |\n|%s|\n", strings.Join(head, " | "), strings.Join(rule, "|"))
	for _, row := range t.rows {
		var cells []string
		for _, c := range row {
			cells = append(cells, cell(c))
		}
		fmt.Fprintf(w, "| %s |\n", strings.Join(cells, " | "))
	}
	fmt.Fprintln(w)
}
