package report

import (
	"bufio"
	"fmt"
	"io"
	"strings"

	"github.com/kube-rewind/kube-rewind/pkg/lab/mdtable"
)

// writeMarkdown writes the document as Markdown; charts are the SVG files
// under charts/.
func writeMarkdown(w io.Writer, d *document) error {
	bw := bufio.NewWriter(w)
	fmt.Fprintf(bw, "# %s\n\n", d.title)
	for _, b := range d.blocks {
		writeMarkdownBlock(bw, b)
	}
	return bw.Flush()
}

// writeMarkdownBlock writes one block of the document and the blank line
// that ends it; the HTML report renders each block's Markdown from here.
func writeMarkdownBlock(bw *bufio.Writer, b block) {
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

// writeMarkdownTable writes t as Markdown, its numeric columns aligned
// right.
func writeMarkdownTable(w io.Writer, t table) {
	md := mdtable.Table{Header: t.header, Rows: t.rows}
	for _, numeric := range t.numeric {
		align := mdtable.Left
		if numeric {
			align = mdtable.Right
		}
		md.Align = append(md.Align, align)
	}
	mdtable.Write(w, md)
}
