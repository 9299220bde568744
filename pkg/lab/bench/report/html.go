package report

import (
	"bufio"
	"encoding/base64"
	"fmt"
	"html"
	"io"
	"regexp"
	"strings"

	"codeberg.org/go-fonts/liberation/liberationsansregular"
	"github.com/kube-rewind/kube-rewind/pkg/lab/bench/charts"
)

// fontFace embeds Liberation Sans, the typeface the charts were laid out
// with, so that their labels fit on machines that have neither it nor
// Arial. It costs about 550 KB once per page.
func fontFace() string {
	return "@font-face{font-family:'Liberation Sans';src:url(data:font/ttf;base64," +
		base64.StdEncoding.EncodeToString(liberationsansregular.TTF) + ") format('truetype')}\n"
}

// The HTML report stands alone: styles in the page, every chart inline as
// SVG, the charts' typeface embedded once, no scripts and nothing fetched
// from anywhere.

const htmlStyle = `body{font-family:'Liberation Sans',Arial,Helvetica,sans-serif;max-width:1000px;margin:2em auto;padding:0 1em;color:#222;line-height:1.45}
h1{font-size:1.7em}h2{margin-top:2em;border-bottom:1px solid #ddd;padding-bottom:.2em}h3{margin-top:1.5em}
table{border-collapse:collapse;margin:1em 0;font-size:.9em}th,td{border:1px solid #ccc;padding:.3em .55em;vertical-align:top}
th{background:#f3f3f3;text-align:left}td.num{text-align:right;white-space:nowrap}
.note{background:#fff4e0;border-left:4px solid #e69f00;padding:.5em .8em}
figure{margin:1.2em 0}figure svg{max-width:100%;height:auto}figcaption{font-size:.85em;color:#555}
code{background:#f3f3f3;padding:0 .2em}
table.findings td:nth-child(2){min-width:13em;font-weight:600}table.findings td:nth-child(3){color:#555}
tr.no td{background:#fde8e4}tr.no td:nth-child(2){border-left:4px solid #c0392b}tr.no strong{color:#a5281b}
.legacy{color:#D55E00}.modern{color:#0072B2}.modern-unthrottled{color:#009E73}`

var (
	codeSpan   = regexp.MustCompile("`([^`]+)`")
	strongSpan = regexp.MustCompile(`\*\*([^*]+)\*\*`)
)

// inline escapes text and turns `code` into <code> and **text** into
// <strong>.
func inline(s string) string {
	s = codeSpan.ReplaceAllString(html.EscapeString(s), "<code>$1</code>")
	return strongSpan.ReplaceAllString(s, "<strong>$1</strong>")
}

// inlineSVG fits an SVG for embedding: no XML prologue, and a width that
// follows the page.
func inlineSVG(svg []byte) string {
	s := string(svg)
	if i := strings.Index(s, "<svg"); i >= 0 {
		s = s[i:]
	}
	s = regexp.MustCompile(`<svg width="[^"]*" height="[^"]*"`).ReplaceAllString(s, `<svg`)
	return s
}

// writeHTML writes the document as one self-contained page.
func writeHTML(w io.Writer, d *document) error {
	bw := bufio.NewWriter(w)
	fmt.Fprintf(bw, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>%s</title>\n<style>\n%s\n</style>\n</head>\n<body>\n<h1>%s</h1>\n",
		html.EscapeString(d.title), fontFace()+htmlStyle, html.EscapeString(d.title))
	for _, b := range d.blocks {
		switch b := b.(type) {
		case heading:
			fmt.Fprintf(bw, "<h%d id=\"%s\">%s</h%d>\n", b.level, html.EscapeString(b.id), inline(b.text), b.level)
		case paragraph:
			fmt.Fprintf(bw, "<p>%s</p>\n", inline(b.text))
		case note:
			fmt.Fprintf(bw, "<p class=\"note\"><strong>Note:</strong> %s</p>\n", inline(b.text))
		case bullets:
			fmt.Fprintln(bw, "<ul>")
			for _, it := range b.items {
				fmt.Fprintf(bw, "<li>%s</li>\n", inline(it))
			}
			fmt.Fprintln(bw, "</ul>")
		case table:
			writeHTMLTable(bw, b)
		case figure:
			fmt.Fprintf(bw, "<figure id=\"%s\">\n%s<figcaption>%s</figcaption>\n</figure>\n", html.EscapeString(b.chart.Name), inlineSVG(b.chart.SVG), inline(b.chart.Caption))
		}
	}
	fmt.Fprintln(bw, "</body>\n</html>")
	return bw.Flush()
}

func writeHTMLTable(w io.Writer, t table) {
	if t.class != "" {
		fmt.Fprintf(w, "<table class=\"%s\">\n<thead><tr>\n", html.EscapeString(t.class))
	} else {
		fmt.Fprintln(w, "<table>\n<thead><tr>")
	}
	for _, h := range t.header {
		class := ""
		if charts.HasColor(h) {
			class = fmt.Sprintf(" class=\"%s\"", h)
		}
		fmt.Fprintf(w, "<th%s>%s</th>", class, inline(h))
	}
	fmt.Fprintln(w, "</tr></thead>\n<tbody>")
	for r, row := range t.rows {
		if r < len(t.rowClass) && t.rowClass[r] != "" {
			fmt.Fprintf(w, "<tr class=\"%s\">", html.EscapeString(t.rowClass[r]))
		} else {
			fmt.Fprint(w, "<tr>")
		}
		for i, c := range row {
			if i < len(t.numeric) && t.numeric[i] {
				fmt.Fprintf(w, "<td class=\"num\">%s</td>", inline(c))
			} else {
				fmt.Fprintf(w, "<td>%s</td>", inline(c))
			}
		}
		fmt.Fprintln(w, "</tr>")
	}
	fmt.Fprintln(w, "</tbody>\n</table>")
}
