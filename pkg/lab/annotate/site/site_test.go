package site

import (
	"bytes"
	"fmt"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/kube-rewind/kube-rewind/pkg/history"
	"golang.org/x/net/html"

	"github.com/kube-rewind/kube-rewind/pkg/lab/annotate"
	"github.com/kube-rewind/kube-rewind/pkg/lab/annotate/pages"
)

// repoRoot is the kube-rewind checkout these tests run in.
const repoRoot = "../../../.."

// builtSite renders the real repository once for all tests in this file.
var builtSite = sync.OnceValues(func() (string, error) {
	dir, err := os.MkdirTemp("", "annotate-site-")
	if err != nil {
		return "", err
	}
	_, err = Build(repoRoot, dir)
	return dir, err
})

func TestMain(m *testing.M) {
	code := m.Run()
	if dir, err := builtSite(); err == nil {
		os.RemoveAll(dir)
	}
	os.Exit(code)
}

// site returns the rendered site's directory and its parsed pages.
func site(t *testing.T) (string, map[string]*html.Node) {
	t.Helper()
	dir, err := builtSite()
	if err != nil {
		t.Fatalf("Build: %v", err)
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	docs := map[string]*html.Node{}
	for _, e := range entries {
		if !strings.HasSuffix(e.Name(), ".html") {
			continue
		}
		data, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		doc, err := html.Parse(bytes.NewReader(data))
		if err != nil {
			t.Fatalf("%s does not parse: %v", e.Name(), err)
		}
		docs[e.Name()] = doc
	}
	return dir, docs
}

// walk calls fn for every element under n.
func walk(n *html.Node, fn func(*html.Node)) {
	if n.Type == html.ElementNode {
		fn(n)
	}
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		walk(c, fn)
	}
}

func attr(n *html.Node, name string) string {
	for _, a := range n.Attr {
		if a.Key == name {
			return a.Val
		}
	}
	return ""
}

func hasClass(n *html.Node, class string) bool {
	for _, c := range strings.Fields(attr(n, "class")) {
		if c == class {
			return true
		}
	}
	return false
}

// count returns how many elements under n have all the classes.
func count(n *html.Node, classes ...string) int {
	c := 0
	walk(n, func(e *html.Node) {
		for _, cl := range classes {
			if !hasClass(e, cl) {
				return
			}
		}
		c++
	})
	return c
}

func text(n *html.Node) string {
	var b strings.Builder
	var rec func(*html.Node)
	rec = func(n *html.Node) {
		if n.Type == html.TextNode {
			b.WriteString(n.Data)
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			rec(c)
		}
	}
	rec(n)
	return b.String()
}

func TestEveryPageHasATitleAndNoExternalAssets(t *testing.T) {
	dir, docs := site(t)
	if len(docs) < 10 {
		t.Fatalf("only %d pages were written", len(docs))
	}
	for name, doc := range docs {
		title := ""
		walk(doc, func(n *html.Node) {
			switch n.Data {
			case "title":
				title = text(n)
			case "script", "iframe":
				t.Errorf("%s has a <%s>; pages are static and self-contained", name, n.Data)
			case "link":
				if attr(n, "href") != annotate.StyleSheet {
					t.Errorf("%s links %q; only %s is allowed", name, attr(n, "href"), annotate.StyleSheet)
				}
			}
			// Only a Markdown page's picture, copied from the tree, is
			// loaded, and from the site's own directory.
			if src := attr(n, "src"); src != "" {
				if n.Data != "img" || !strings.HasPrefix(src, FilesDir+"/") {
					t.Errorf("%s loads %q", name, src)
				} else if _, err := os.Stat(filepath.Join(dir, filepath.FromSlash(src))); err != nil {
					t.Errorf("%s shows %q, which was not copied: %v", name, src, err)
				}
			}
		})
		if strings.TrimSpace(title) == "" {
			t.Errorf("%s has no title", name)
		}
	}
}

func TestFilePagesSetProseBesideCode(t *testing.T) {
	_, docs := site(t)
	for name, doc := range docs {
		if !strings.HasSuffix(name, ".go.html") {
			continue
		}
		secs, prose, code := count(doc, "sec"), count(doc, "prose"), count(doc, "code")
		if secs == 0 || prose != secs || code != secs {
			t.Errorf("%s: %d sections, %d prose and %d code columns; want one of each per section", name, secs, prose, code)
		}
		if count(doc, "chroma") == 0 {
			t.Errorf("%s has no highlighted code", name)
		}
	}
}

func TestEveryInternalLinkResolves(t *testing.T) {
	dir, docs := site(t)
	ids := map[string]map[string]bool{}
	for name, doc := range docs {
		ids[name] = map[string]bool{}
		walk(doc, func(n *html.Node) {
			if id := attr(n, "id"); id != "" {
				if ids[name][id] {
					t.Errorf("%s repeats id %q", name, id)
				}
				ids[name][id] = true
			}
		})
	}
	for name, doc := range docs {
		walk(doc, func(n *html.Node) {
			href := attr(n, "href")
			if n.Data != "a" || href == "" {
				return
			}
			u, err := url.Parse(href)
			if err != nil {
				t.Errorf("%s: bad href %q", name, href)
				return
			}
			if u.Scheme != "" {
				if u.Scheme != "https" {
					t.Errorf("%s: external link %q is not https", name, href)
				}
				return
			}
			target := name
			if u.Path != "" {
				target = path.Clean(u.Path)
			}
			// A file of the tree that a Markdown page links is copied.
			if strings.HasPrefix(target, FilesDir+"/") {
				if _, err := os.Stat(filepath.Join(dir, filepath.FromSlash(target))); err != nil {
					t.Errorf("%s links to %q, which was not copied", name, href)
				}
				return
			}
			targetIDs, ok := ids[target]
			if !ok {
				t.Errorf("%s links to %q, which was not generated", name, href)
				return
			}
			if u.Fragment != "" && !targetIDs[u.Fragment] {
				t.Errorf("%s links to %q, which has no id %q", name, href, u.Fragment)
			}
		})
	}
}

func TestEveryControllerFileIsReachableFromTheIndex(t *testing.T) {
	_, docs := site(t)
	reached := map[string]bool{"index.html": true}
	queue := []string{"index.html"}
	for len(queue) > 0 {
		page := queue[0]
		queue = queue[1:]
		walk(docs[page], func(n *html.Node) {
			u, err := url.Parse(attr(n, "href"))
			if n.Data != "a" || err != nil || u.Scheme != "" || u.Path == "" {
				return
			}
			if p := path.Clean(u.Path); !reached[p] && docs[p] != nil {
				reached[p] = true
				queue = append(queue, p)
			}
		})
	}
	var want []string
	for _, pattern := range []string{"pkg/controller/*.go", "pkg/service/*.go"} {
		matches, err := filepath.Glob(filepath.Join(repoRoot, pattern))
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range matches {
			if !strings.HasSuffix(m, "_test.go") {
				rel, _ := filepath.Rel(repoRoot, m)
				want = append(want, filepath.ToSlash(rel))
			}
		}
	}
	if len(want) < 4 {
		t.Fatalf("found only %v; is the test running in the repository?", want)
	}
	for _, f := range want {
		if !reached[annotate.PageName(f)] {
			t.Errorf("%s has no page reachable from index.html", f)
		}
	}
	for _, c := range pages.Comparisons {
		if !reached[c.Page] {
			t.Errorf("%s is not reachable from index.html", c.Page)
		}
	}
}

func TestTheIndexDescribesEveryPackageAndDrawsTheArchitecture(t *testing.T) {
	_, docs := site(t)
	index := docs["index.html"]
	if count(index, "arch") != 1 {
		t.Errorf("the index has no architecture diagram")
	}
	s, err := Load(repoRoot)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range s.Packages {
		var entry *html.Node
		walk(index, func(n *html.Node) {
			if attr(n, "id") == annotate.PackageAnchor(p.Dir) {
				entry = n
			}
		})
		if entry == nil {
			t.Errorf("the index has no entry for %s", p.Dir)
			continue
		}
		if len(p.Doc) == 0 {
			t.Errorf("%s has no package comment (every package has a doc.go)", p.Dir)
		}
	}
}

func TestSideBySidePagesShowEveryRowWithBothColumns(t *testing.T) {
	_, docs := site(t)
	for _, c := range pages.Comparisons {
		doc := docs[c.Page]
		if doc == nil {
			t.Errorf("%s was not written", c.Page)
			continue
		}
		if got := count(doc, "row"); got != len(c.Rows) {
			t.Errorf("%s has %d rows, want %d", c.Page, got, len(c.Rows))
		}
		if count(doc, "col", "legacy") != len(c.Rows) || count(doc, "col", "modern") != len(c.Rows) {
			t.Errorf("%s lacks a legacy or modern column in some row", c.Page)
		}
		body := text(doc)
		_, err := os.Stat(filepath.Join(repoRoot, filepath.FromSlash(c.ModernFile)))
		if modernPresent := err == nil; modernPresent == strings.Contains(body, pages.ModernMissing) {
			t.Errorf("%s: modern file present = %v, but the page says %q = %v", c.Page, modernPresent, pages.ModernMissing, !modernPresent)
		}
	}
}

// citation finds the history citations in a page's text, as a reader
// sees them: "(history: a, b)", "(2016; history: c)".
var citation = regexp.MustCompile(`(?:\(|; |, )history: ([a-z][a-z0-9-]*(?:, ?[a-z][a-z0-9-]*)*)`)

// TestEveryHistoryCitationOnEveryPageIsALink counts, on every page, the
// names the text cites as "(history: name)" and the links to the history
// page's entries: each cited name must be a link to its entry.
func TestEveryHistoryCitationOnEveryPageIsALink(t *testing.T) {
	_, docs := site(t)
	pages, cited := 0, 0
	for name, doc := range docs {
		linked := map[string]int{}
		walk(doc, func(n *html.Node) {
			if n.Data == "a" && strings.HasPrefix(attr(n, "href"), annotate.HistoryPage+"#") {
				linked[text(n)]++
				if strings.TrimPrefix(attr(n, "href"), annotate.HistoryPage+"#") != text(n) {
					t.Errorf("%s: the link %q points at %q", name, text(n), attr(n, "href"))
				}
			}
		})
		// The text as read: line numbers left out, and a comment's
		// lines joined, so a citation wrapped in a code comment is one.
		var b strings.Builder
		var rec func(*html.Node)
		rec = func(n *html.Node) {
			if hasClass(n, "ln") {
				return
			}
			if n.Type == html.TextNode {
				b.WriteString(n.Data)
			}
			for c := n.FirstChild; c != nil; c = c.NextSibling {
				rec(c)
			}
		}
		rec(doc)
		body := regexp.MustCompile(`\s*\n\s*(?://\s*)?`).ReplaceAllString(b.String(), " ")
		want := map[string]int{}
		for _, m := range citation.FindAllStringSubmatch(body, -1) {
			for _, n := range regexp.MustCompile(`, ?`).Split(m[1], -1) {
				want[n]++
				cited++
			}
		}
		for n, c := range want {
			if linked[n] < c {
				t.Errorf("%s cites (history: %s) %d times, but links it %d times", name, n, c, linked[n])
			}
		}
		if len(want) > 0 {
			pages++
		}
	}
	if pages < 5 || cited < 40 {
		t.Errorf("only %d citations on %d pages were found", cited, pages)
	}
}

// TestTheHistoryPageHasAnEntryForEveryChange: every change of the
// catalogue has its anchor, its PRs linked upstream, and, when the
// published run measured it, its figure with and without it.
func TestTheHistoryPageHasAnEntryForEveryChange(t *testing.T) {
	_, docs := site(t)
	doc := docs[annotate.HistoryPage]
	if doc == nil {
		t.Fatalf("%s was not written", annotate.HistoryPage)
	}
	run := pages.LoadHistoryRun(repoRoot)
	if run == nil {
		t.Fatalf("no history run could be read from %v", pages.HistoryReports)
	}
	for _, c := range history.Changes {
		entry := byID(doc, c.Name)
		if entry == nil {
			t.Errorf("%s has no entry %s", annotate.HistoryPage, c.Name)
			continue
		}
		body := text(entry)
		for _, pr := range c.PRs {
			found := false
			walk(entry, func(n *html.Node) {
				found = found || attr(n, "href") == "https://github.com/kubernetes/kubernetes/pull/"+strings.TrimPrefix(pr, "#")
			})
			if !found {
				t.Errorf("%s: PR %s is not linked upstream", c.Name, pr)
			}
		}
		if m, ok := run.Changes[c.Name]; ok && (!strings.Contains(body, m.With) || !strings.Contains(body, m.Without)) {
			t.Errorf("%s: the entry does not show the run's %q with and %q without", c.Name, m.With, m.Without)
		}
		for _, p := range c.Code {
			if _, err := os.Stat(filepath.Join(repoRoot, filepath.FromSlash(p.File))); err != nil {
				t.Errorf("%s names %s, which is not in the tree", c.Name, p.File)
			}
		}
	}
}

// unlinkedCitations reads each block of a page on its own, a paragraph,
// a list item, a cell, a caption or a block of code, and returns every
// name a citation in it gives, comments in code included, that is not a
// link to its entry within the same block: a link elsewhere on the page
// cannot stand in for it. It also counts the names cited, and those
// cited in code.
func unlinkedCitations(doc *html.Node) (unlinked []string, cited, inCode int) {
	walk(doc, func(n *html.Node) {
		code := hasClass(n, "code")
		switch {
		case code, n.Data == "p", n.Data == "li", n.Data == "td", n.Data == "dd", n.Data == "figcaption":
		default:
			return
		}
		linked := map[string]int{}
		var b strings.Builder
		var rec func(*html.Node)
		rec = func(e *html.Node) {
			if hasClass(e, "ln") {
				return
			}
			if e.Data == "a" && strings.HasPrefix(attr(e, "href"), annotate.HistoryPage+"#") {
				linked[text(e)]++
			}
			if e.Type == html.TextNode {
				b.WriteString(e.Data)
			}
			for c := e.FirstChild; c != nil; c = c.NextSibling {
				rec(c)
			}
		}
		rec(n)
		// A comment's lines are joined, so a citation wrapped in a code
		// comment is one.
		body := regexp.MustCompile(`\s*\n\s*(?://\s*)?`).ReplaceAllString(b.String(), " ")
		for _, m := range citation.FindAllStringSubmatch(body, -1) {
			for _, name := range regexp.MustCompile(`, ?`).Split(m[1], -1) {
				cited++
				if code {
					inCode++
				}
				if linked[name] == 0 {
					unlinked = append(unlinked, fmt.Sprintf("a %s cites (history: %s) without a link to it: %.120q", n.Data, name, strings.TrimSpace(body)))
					continue
				}
				linked[name]--
			}
		}
	})
	return unlinked, cited, inCode
}

// TestEveryHistoryCitationIsALinkWhereItStands checks every block of
// every page with unlinkedCitations.
func TestEveryHistoryCitationIsALinkWhereItStands(t *testing.T) {
	_, docs := site(t)
	total := 0
	for name, doc := range docs {
		unlinked, cited, _ := unlinkedCitations(doc)
		for _, u := range unlinked {
			t.Errorf("%s: %s", name, u)
		}
		total += cited
	}
	if total < 40 {
		t.Errorf("only %d citations were found", total)
	}
}

// TestACitationInACodeCommentIsALink builds a small tree whose code cites
// the history in a comment at the end of a line, and in an Ours:
// comment an excerpt keeps, wrapped over two lines: both are links in
// the code itself.
func TestACitationInACodeCommentIsALink(t *testing.T) {
	files := map[string]string{}
	for p, c := range miniature {
		files[p] = c
	}
	files["pkg/controller/replication_controller_modern.go"] = `//go:build modern

package controller

// ReplicationManager is today's manager.
type ReplicationManager struct{}

func slowStartBatch(count int) int {
	// Ours: the batches stop at the first failure (history:
	// slow-start).
	batch := 1 // doubles each time (history: slow-start)
	return count + batch
}
`
	out := t.TempDir()
	if _, err := Build(writeTree(t, files), out); err != nil {
		t.Fatalf("Build: %v", err)
	}
	inCode := 0
	for _, page := range []string{"side-by-side-replication-manager.html", annotate.PageName("pkg/controller/replication_controller_modern.go")} {
		doc, err := html.Parse(strings.NewReader(readPage(t, out, page)))
		if err != nil {
			t.Fatal(err)
		}
		unlinked, _, n := unlinkedCitations(doc)
		for _, u := range unlinked {
			t.Errorf("%s: %s", page, u)
		}
		inCode += n
	}
	// Two in the excerpt of slowStartBatch, one on the file's page (the
	// Ours: comment is prose there).
	if inCode != 3 {
		t.Errorf("%d citations were found in code, want 3", inCode)
	}
}
