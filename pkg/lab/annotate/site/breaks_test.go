package site

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"golang.org/x/net/html"
)

// wordBreaks returns, for every <wbr> of an HTML page, the text run it
// sits in (the text of one element, the break points removed) and its
// offset there.
func wordBreaks(page string) (runs []string, at [][]int) {
	z := html.NewTokenizer(strings.NewReader(page))
	var run strings.Builder
	var breaks []int
	flush := func() {
		if len(breaks) > 0 {
			runs = append(runs, run.String())
			at = append(at, breaks)
		}
		run.Reset()
		breaks = nil
	}
	for {
		switch z.Next() {
		case html.ErrorToken:
			flush()
			return runs, at
		case html.TextToken:
			run.WriteString(html.UnescapeString(string(z.Raw())))
		case html.StartTagToken, html.SelfClosingTagToken:
			if name, _ := z.TagName(); string(name) == "wbr" {
				breaks = append(breaks, run.Len())
				continue
			}
			flush()
		default:
			flush()
		}
	}
}

// aFileName is a path segment that names a file by its extension.
var aFileName = regexp.MustCompile(`^[A-Za-z0-9_.-]*[A-Za-z0-9_]\.(?:go|md|json|ya?ml|html?|css|js|txt|png|svg|csv|sh|mod|sum)$`)

// TestNoPageBreaksANumberAFileNameOrAWord reads every page of the site
// and checks each place a line may break (<wbr>): never between the
// digits of a number or a version (v0.4), never inside a file name
// (endpoints_controller_modern.go) except at a "/" before it, and never
// after "_" or "-" or between two lower-case letters, inside a word.
func TestNoPageBreaksANumberAFileNameOrAWord(t *testing.T) {
	dir, _ := site(t)
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	checked := 0
	for _, e := range entries {
		if !strings.HasSuffix(e.Name(), ".html") {
			continue
		}
		data, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		runs, at := wordBreaks(string(data))
		bad := 0
		for i, run := range runs {
			for _, k := range at[i] {
				checked++
				if why := badBreak(run, k); why != "" {
					if bad++; bad <= 5 {
						t.Errorf("%s: a line may break %s: %q", e.Name(), why, run[max(0, k-30):k]+"|"+run[k:min(len(run), k+30)])
					}
				}
			}
		}
		if bad > 5 {
			t.Errorf("%s: %d more such break points", e.Name(), bad-5)
		}
	}
	if checked < 1000 {
		t.Errorf("only %d break points were checked", checked)
	}
}

// badBreak says why a break at run[k] is wrong, or "".
func badBreak(run string, k int) string {
	if k == 0 || k >= len(run) {
		return ""
	}
	prev, next := run[k-1], run[k]
	digit := func(c byte) bool { return c >= '0' && c <= '9' }
	switch {
	case digit(next) && (digit(prev) || prev == '.' && k >= 2 && digit(run[k-2])):
		return "inside a number"
	case prev == '_' || prev == '-':
		return "inside a word"
	case prev >= 'a' && prev <= 'z' && next >= 'a' && next <= 'z':
		return "inside a word"
	}
	if prev == '/' {
		return ""
	}
	from, to := k, k
	for from > 0 && !strings.ContainsRune(" \t\n/", rune(run[from-1])) {
		from--
	}
	for to < len(run) && !strings.ContainsRune(" \t\n/", rune(run[to])) {
		to++
	}
	if seg := strings.TrimRight(run[from:to], ".,;:)]'\""); aFileName.MatchString(seg) {
		return "inside the file name " + seg
	}
	return ""
}
