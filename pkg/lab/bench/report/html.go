package report

import (
	"bufio"
	"bytes"
	"encoding/base64"
	"fmt"
	"html/template"
	"io"
	"regexp"
	"strings"

	"codeberg.org/go-fonts/liberation/liberationsansregular"
	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	east "github.com/yuin/goldmark/extension/ast"
	gmtext "github.com/yuin/goldmark/text"

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
// from anywhere. Its text is report.md's, block by block, rendered by the
// same Markdown renderer as the project's pages.

const htmlStyle = `body{font-family:'Liberation Sans',Arial,Helvetica,sans-serif;max-width:1000px;margin:2em auto;padding:0 1em;color:#222;line-height:1.45}
h1{font-size:1.7em}h2{margin-top:2em;border-bottom:1px solid #ddd;padding-bottom:.2em}h3{margin-top:1.5em}
table{border-collapse:collapse;margin:1em 0;font-size:.9em}th,td{border:1px solid #ccc;padding:.3em .55em;vertical-align:top}
th{background:#f3f3f3;text-align:left}td.num{text-align:right;white-space:nowrap}
.note{background:#fff4e0;border-left:4px solid #e69f00;padding:.5em .8em;margin:1em 0}.note p{margin:0}
figure{margin:1.2em 0}figure svg{max-width:100%;height:auto}figcaption{font-size:.85em;color:#555}figcaption p{margin:.3em 0}
code{background:#f3f3f3;padding:0 .2em}
table.findings td:nth-child(2){min-width:13em;font-weight:600}table.findings td:nth-child(3){color:#555}
tr.no td{background:#fde8e4}tr.no td:nth-child(2){border-left:4px solid #c0392b}tr.no strong{color:#a5281b}
.legacy{color:#D55E00}.modern{color:#0072B2}.modern-unthrottled{color:#009E73}`

// htmlMarkdown renders the report's Markdown as the docs site renders the
// project's pages, and a code host report.md: GitHub Flavored Markdown.
var htmlMarkdown = goldmark.New(goldmark.WithExtensions(extension.GFM))

// htmlPage lays out the report: the title, then each block either as its
// rendered Markdown or, for a chart, as inline SVG above its caption,
// where report.md links the chart's file instead.
var htmlPage = template.Must(template.New("report.html").Parse(`<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>{{.Title}}</title>
<style>
{{.Style}}
</style>
</head>
<body>
{{range .Blocks}}{{with .Chart}}<figure id="{{.Name}}">
{{.SVG}}<figcaption>{{.Caption}}</figcaption>
</figure>
{{else}}{{.HTML}}{{end}}{{end}}</body>
</html>
`))

// htmlBlock is one block of the page: Markdown rendered, or a chart.
type htmlBlock struct {
	HTML  template.HTML
	Chart *htmlChart
}

// htmlChart is a chart drawn in the page, its caption rendered.
type htmlChart struct {
	Name    string
	SVG     template.HTML
	Caption template.HTML
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
	page := struct {
		Title  string
		Style  template.CSS
		Blocks []htmlBlock
	}{Title: d.title, Style: template.CSS(fontFace() + htmlStyle)}
	// The title is the Markdown's first heading, with no anchor.
	for _, b := range append([]block{heading{level: 1, text: d.title}}, d.blocks...) {
		hb, err := htmlBlockOf(b)
		if err != nil {
			return err
		}
		page.Blocks = append(page.Blocks, hb)
	}
	return htmlPage.Execute(w, page)
}

// htmlBlockOf renders one block: a chart's caption alone, any other block
// from the Markdown report.md holds for it.
func htmlBlockOf(b block) (htmlBlock, error) {
	if f, ok := b.(figure); ok {
		caption, err := renderMarkdown([]byte(f.chart.Caption), nil)
		return htmlBlock{Chart: &htmlChart{
			Name: f.chart.Name,
			// The SVG is the chart package's own drawing, not text of
			// the report, so it goes in as it is.
			SVG:     template.HTML(inlineSVG(f.chart.SVG)),
			Caption: caption,
		}}, err
	}
	var md bytes.Buffer
	bw := bufio.NewWriter(&md)
	writeMarkdownBlock(bw, b)
	if err := bw.Flush(); err != nil {
		return htmlBlock{}, err
	}
	body, err := renderMarkdown(md.Bytes(), func(doc ast.Node) { decorate(doc, b) })
	return htmlBlock{HTML: body}, err
}

// renderMarkdown renders src, letting mark set attributes on the parsed
// tree first.
func renderMarkdown(src []byte, mark func(doc ast.Node)) (template.HTML, error) {
	doc := htmlMarkdown.Parser().Parse(gmtext.NewReader(src))
	if mark != nil {
		mark(doc)
	}
	var out bytes.Buffer
	if err := htmlMarkdown.Renderer().Render(&out, src, doc); err != nil {
		return "", fmt.Errorf("rendering the report's Markdown: %w", err)
	}
	return template.HTML(out.String()), nil
}

// decorate gives a block's rendering what its Markdown cannot say and the
// page's styles use: a heading's anchor, a note's box, a table's class,
// the rows of findings that do not hold, the numeric cells kept on one
// line and the variants' colours over their columns. A block whose
// Markdown did not parse to the node expected is left plain.
func decorate(doc ast.Node, b block) {
	switch b := b.(type) {
	case heading:
		if h, ok := doc.FirstChild().(*ast.Heading); ok && b.id != "" {
			h.SetAttributeString("id", []byte(b.id))
		}
	case note:
		if q, ok := doc.FirstChild().(*ast.Blockquote); ok {
			q.SetAttributeString("class", []byte("note"))
		}
	case table:
		t, ok := doc.FirstChild().(*east.Table)
		if !ok {
			return
		}
		if b.class != "" {
			t.SetAttributeString("class", []byte(b.class))
		}
		row := 0
		for r := t.FirstChild(); r != nil; r = r.NextSibling() {
			_, header := r.(*east.TableHeader)
			if !header {
				if row < len(b.rowClass) && b.rowClass[row] != "" {
					r.SetAttributeString("class", []byte(b.rowClass[row]))
				}
				row++
			}
			col := 0
			for c := r.FirstChild(); c != nil; c = c.NextSibling() {
				switch {
				case header && col < len(b.header) && charts.HasColor(b.header[col]):
					c.SetAttributeString("class", []byte(b.header[col]))
				case !header && col < len(b.numeric) && b.numeric[col]:
					c.SetAttributeString("class", []byte("num"))
				}
				col++
			}
		}
	}
}
