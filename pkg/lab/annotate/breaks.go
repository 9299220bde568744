package annotate

// Where a name may break on a narrow screen. Names never break inside a
// word (the stylesheet forbids it), so a long path or selector needs
// break points of its own, <wbr>, and only where a reader expects a line
// to go on: between the segments of a path (pkg/controller/<wbr>pod.go),
// between the names of a Go selector (rm.<wbr>queue.<wbr>Get), and
// between the words of a camel-case name too long for a phone's column.
// Never inside a number or a version (v0.4, 1.5), nor inside a file name
// or a host (replication_controller.go, k8s.io).

import (
	"html"
	"html/template"
	"regexp"
	"strings"
)

// softCode escapes text and adds the break points above.
func softCode(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if camelBreak(s, i) {
			b.WriteString("<wbr>")
		}
		b.WriteString(html.EscapeString(s[i : i+1]))
		if breakAfter(s, i) {
			b.WriteString("<wbr>")
		}
	}
	return b.String()
}

// longCode is the length from which inline code with spaces in it (a
// command) may wrap at its spaces on a wide screen, where inline code
// otherwise stays on one line.
const longCode = 40

// inlineCode is softCode for inline code. A long command is set as words
// that each stay whole on a wide screen, with the spaces between them
// free to break, so that it wraps instead of running past the column.
func inlineCode(s string) string {
	if len(s) < longCode || !strings.Contains(s, " ") {
		return softCode(s)
	}
	var b strings.Builder
	b.WriteString(`<span class="words">`)
	for i, w := range strings.Split(s, " ") {
		if i > 0 {
			b.WriteString(" ")
		}
		if w != "" {
			b.WriteString(`<span class="word">` + softCode(w) + `</span>`)
		}
	}
	b.WriteString(`</span>`)
	return b.String()
}

// preText escapes preformatted text and lets a wide screen wrap it after
// a comma that joins two items without a space, as JSON's do
// ({"kind":"Status",<wbr>"apiVersion":…); a wide screen wraps such
// text at its spaces too, where a narrow one scrolls it. A comma between
// digits (1,000) is a number's.
func preText(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		b.WriteString(html.EscapeString(s[i : i+1]))
		if s[i] == ',' && i+1 < len(s) && !isSpace(s[i+1]) && !(s[i+1] >= '0' && s[i+1] <= '9') {
			b.WriteString("<wbr>")
		}
	}
	return b.String()
}

// softBreaks is softCode for the pages' templates: file paths in
// headings, captions and pagers, and declaration names.
func softBreaks(s string) template.HTML { return template.HTML(softCode(s)) }

// longName is the length from which a camel-case name may break between
// its words: about what a phone's column holds.
const longName = 32

// camelBreak reports whether a line may break before s[i]: the start of
// a word inside a camel-case name longer than longName
// (Test|Without|Expectations).
func camelBreak(s string, i int) bool {
	if i < 2 || !isUpper(s[i]) || isUpper(s[i-1]) || !isWordByte(s[i-1]) || !isWordByte(s[i-2]) {
		return false
	}
	from, to := i, i
	for from > 0 && isWordByte(s[from-1]) {
		from--
	}
	for to < len(s) && isWordByte(s[to]) {
		to++
	}
	return to-from > longName
}

// breakAfter reports whether a line may break after s[i]: a "/" between
// two names, or a "." between two names of a selector in the last segment
// of a path that is not a file name or a host.
func breakAfter(s string, i int) bool {
	if i == 0 || i+1 >= len(s) || !isWordByte(s[i-1]) {
		return false
	}
	switch s[i] {
	case '/':
		return isWordByte(s[i+1])
	case '.':
		if !isLetter(s[i+1]) {
			return false // v0.4, 1.5, "pods." at a sentence's end
		}
		from, to := i, i
		for from > 0 && !isSpace(s[from-1]) && s[from-1] != '/' {
			from--
		}
		for to < len(s) && !isSpace(s[to]) {
			if s[to] == '/' {
				return false // a host, or a directory with a dot
			}
			to++
		}
		return !fileName.MatchString(s[from:to])
	}
	return false
}

// fileName matches a path segment that names a file or a host by its
// extension or its top-level domain: no break goes inside one.
var fileName = regexp.MustCompile(`\.(?:go|mod|sum|md|json|ya?ml|html?|css|js|txt|png|svg|csv|sh|log|out|prof|pb|proto|toml|tar|gz|zip|git|com|org|io|net|dev)(?:[^A-Za-z0-9_]|$)`)

func isUpper(c byte) bool  { return c >= 'A' && c <= 'Z' }
func isLetter(c byte) bool { return c >= 'a' && c <= 'z' || isUpper(c) }
func isSpace(c byte) bool  { return c == ' ' || c == '\t' || c == '\n' }
