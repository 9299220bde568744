package annotate

// Prose as the pages show it: the paragraphs pkg/lab/source groups
// comment lines into, and the little inline markup the pages understand
// — backtick code spans, issue and PR references, and URLs.

import (
	"html"
	"html/template"
	"regexp"
	"strings"

	"github.com/kube-rewind/kube-rewind/pkg/lab/source"
)

// Issue and PR links. A bare #NNNN is a kubernetes/kubernetes number, as
// the comments in this repository use it.
var (
	urlPattern  = regexp.MustCompile(`^https?://[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}(?::\d+)?(?:/[^\s<>"'` + "`" + `]*)?`)
	repoPattern = regexp.MustCompile(`^([A-Za-z0-9][A-Za-z0-9-]*)/([A-Za-z0-9][A-Za-z0-9._-]*)#(\d+)`)
	barePattern = regexp.MustCompile(`^#(\d+)`)
)

// IssueURL is where a reference to owner/repo#n points.
func IssueURL(owner, repo, n string) string {
	return "https://github.com/" + owner + "/" + repo + "/issues/" + n
}

// Inline renders one paragraph's text as HTML: text is escaped, `code`
// becomes <code>, references, URLs and "(history: name)" become links,
// and a marker opening a sentence ("Modern: …") becomes a badge.
func Inline(text string) template.HTML {
	var b strings.Builder
	parts := strings.Split(text, "`")
	if len(parts)%2 == 0 {
		// An unmatched backtick: keep the last one as text.
		last := len(parts) - 1
		parts[last-1] += "`" + parts[last]
		parts = parts[:last]
	}
	for i, part := range parts {
		if i%2 == 1 {
			b.WriteString("<code>")
			b.WriteString(inlineCode(part))
			b.WriteString("</code>")
			continue
		}
		linkify(&b, part, i == 0)
	}
	return template.HTML(b.String())
}

// opensSentence reports whether s[i] begins a sentence: the text before it
// ends with ".", "!" or "?" (and perhaps a closing bracket or quote) and a
// space. first says whether s begins the paragraph.
func opensSentence(s string, i int, first bool) bool {
	if i == 0 {
		return first
	}
	before := strings.TrimRight(s[:i], " ")
	if len(before) == len(s[:i]) {
		return false
	}
	before = strings.TrimRight(before, ")]\"'”’")
	return strings.HasSuffix(before, ".") || strings.HasSuffix(before, "!") || strings.HasSuffix(before, "?")
}

// linkify writes s escaped, with URLs, issue references and history
// references as links, and markers that open a sentence as badges. first
// says whether s begins the paragraph.
func linkify(b *strings.Builder, s string, first bool) {
	plainFrom := 0
	emit := func(to int) {
		// A path or a selector in running text breaks between its
		// names too (pkg/controller/<wbr>endpoint/…).
		b.WriteString(softCode(s[plainFrom:to]))
	}
	link := func(at, end int, href string) {
		emit(at)
		b.WriteString(`<a href="` + html.EscapeString(href) + `">`)
		b.WriteString(html.EscapeString(s[at:end]))
		b.WriteString(`</a>`)
		plainFrom = end
	}
	for i := 0; i < len(s); {
		wordStart := i == 0 || !isWordByte(s[i-1]) && s[i-1] != '/' && s[i-1] != '#' && s[i-1] != '&'
		rest := s[i:]
		if wordStart {
			if m := source.MarkerAt(rest); m != "" && opensSentence(s, i, first) {
				emit(i)
				b.WriteString(badge(m))
				i += len(m) + 1
				plainFrom = i
				continue
			}
			if historyCited(s, i) {
				if names, end, _ := historyNames(s, i+len(historyWord)); len(names) > 0 {
					for _, n := range names {
						emit(n.from)
						b.WriteString(historyLink(s[n.from:n.to]))
						plainFrom = n.to
					}
					i = end
					continue
				}
			}
			if m := urlPattern.FindString(rest); m != "" {
				m = strings.TrimRight(m, ".,;:!?)]'")
				link(i, i+len(m), m)
				i += len(m)
				continue
			}
			if m := repoPattern.FindStringSubmatch(rest); m != nil {
				link(i, i+len(m[0]), IssueURL(m[1], m[2], m[3]))
				i += len(m[0])
				continue
			}
			if m := barePattern.FindStringSubmatch(rest); m != nil && !followedByWord(rest, len(m[0])) {
				link(i, i+len(m[0]), IssueURL("kubernetes", "kubernetes", m[1]))
				i += len(m[0])
				continue
			}
		}
		i++
	}
	emit(len(s))
}

// badge is a marker's badge, its colon kept.
func badge(m string) string {
	cls := markerClass(m)
	return `<span class="badge ` + cls + `">` + m + `:</span>`
}

func isWordByte(c byte) bool {
	return c == '_' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

// followedByWord reports whether a match is glued to more word characters
// (#12abc is not a reference).
func followedByWord(s string, n int) bool {
	return n < len(s) && isWordByte(s[n])
}

// ProseHTML renders paragraphs as HTML blocks; a paragraph that opens
// with a marker is set off by a rule in the marker's colour.
func ProseHTML(ps []source.Paragraph) template.HTML {
	var b strings.Builder
	for _, p := range ps {
		switch p.Kind {
		case source.List:
			b.WriteString("<ul>")
			for _, it := range p.Items {
				b.WriteString("<li>")
				b.WriteString(string(Inline(it)))
				b.WriteString("</li>")
			}
			b.WriteString("</ul>\n")
		case source.Pre:
			b.WriteString(`<pre class="doc">`)
			b.WriteString(preText(p.Text))
			b.WriteString("</pre>\n")
		default:
			if p.Marker != "" {
				b.WriteString(`<p class="marked ` + markerClass(p.Marker) + `">`)
			} else {
				b.WriteString("<p>")
			}
			b.WriteString(string(Inline(p.Text)))
			b.WriteString("</p>\n")
		}
	}
	return template.HTML(b.String())
}

// markerClass is the CSS class for a marker.
func markerClass(m string) string {
	switch m {
	case "Ours":
		return "m-ours"
	case "2014":
		return "m-2014"
	}
	return "m-modern"
}
