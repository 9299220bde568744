package site

import (
	"bytes"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	gmtext "github.com/yuin/goldmark/text"
	"golang.org/x/net/html"

	"github.com/kube-rewind/kube-rewind/pkg/lab/annotate"
)

// The README is a front door to Markdown pages kept beside what they
// describe, and the benchmark writes more (RESULTS.md). These tests read
// every Markdown file of the tree as a code host renders it and check that
// each relative link and image names a file a clone has, and each #anchor
// a heading of the page it points at. Links inside code spans and fenced
// blocks are code, not links: a Markdown parser, not a pattern, tells
// them apart. http(s) links are checked for form only; nothing is fetched.
// And every page is reached from the README by some chain of links.

// markdownPage is what the checks need of one Markdown file.
type markdownPage struct {
	// anchors holds the anchor of every heading, as a code host makes them.
	anchors map[string]bool
	links   []markdownLink
}

// markdownLink is the destination of a link, an image or an autolink, and
// the line it is on.
type markdownLink struct {
	dest string
	line int
}

var markdown = goldmark.New(goldmark.WithExtensions(extension.GFM))

// parseMarkdown reads src as GitHub Flavored Markdown.
func parseMarkdown(src []byte) markdownPage {
	page := markdownPage{anchors: map[string]bool{}}
	seen := map[string]int{}
	doc := markdown.Parser().Parse(gmtext.NewReader(src))
	ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch n := n.(type) {
		case *ast.Heading:
			base := headingAnchor(annotate.PlainText(n, src))
			anchor := base
			if k := seen[base]; k > 0 {
				anchor = base + "-" + strconv.Itoa(k)
			}
			seen[base]++
			page.anchors[anchor] = true
		case *ast.Link:
			page.links = append(page.links, markdownLink{string(n.Destination), lineOf(n, src)})
		case *ast.Image:
			page.links = append(page.links, markdownLink{string(n.Destination), lineOf(n, src)})
		case *ast.AutoLink:
			if n.AutoLinkType == ast.AutoLinkURL {
				page.links = append(page.links, markdownLink{string(n.URL(src)), lineOf(n, src)})
			}
		}
		return ast.WalkContinue, nil
	})
	return page
}

// lineOf is the line of src on which n starts, counted from 1: inline
// nodes carry no position, so it is that of n's first text, else of the
// block that holds n.
func lineOf(n ast.Node, src []byte) int {
	offset := -1
	ast.Walk(n, func(c ast.Node, entering bool) (ast.WalkStatus, error) {
		if t, ok := c.(*ast.Text); ok && entering {
			offset = t.Segment.Start
			return ast.WalkStop, nil
		}
		return ast.WalkContinue, nil
	})
	for p := n; offset < 0 && p != nil; p = p.Parent() {
		if p.Type() == ast.TypeBlock && p.Lines().Len() > 0 {
			offset = p.Lines().At(0).Start
		}
	}
	if offset < 0 {
		return 0
	}
	return 1 + bytes.Count(src[:offset], []byte("\n"))
}

// codeLineAnchor is how a code host names lines of a file that is not
// Markdown: #L12 or #L12-L20.
var codeLineAnchor = regexp.MustCompile(`^L([0-9]+)(?:-L([0-9]+))?$`)

// brokenLinks returns one line for each link of a Markdown file under root
// whose target is missing or not what a reader of a clone would find.
func brokenLinks(root string) ([]string, error) {
	pages := map[string]markdownPage{}
	load := func(path string) (markdownPage, error) {
		if p, ok := pages[path]; ok {
			return p, nil
		}
		src, err := os.ReadFile(path)
		if err != nil {
			return markdownPage{}, err
		}
		pages[path] = parseMarkdown(src)
		return pages[path], nil
	}
	files, err := markdownFiles(root)
	if err != nil {
		return nil, err
	}
	var broken []string
	for _, path := range files {
		page, err := load(path)
		if err != nil {
			return nil, err
		}
		for _, l := range page.links {
			if why := checkLink(root, path, l.dest, load); why != "" {
				rel, _ := filepath.Rel(root, path)
				broken = append(broken, fmt.Sprintf("%s:%d: (%s): %s", rel, l.line, l.dest, why))
			}
		}
	}
	return broken, nil
}

// checkLink says what is wrong with dest, a link of the Markdown file
// from, or returns "".
func checkLink(root, from, dest string, load func(string) (markdownPage, error)) string {
	u, err := url.Parse(dest)
	if err != nil {
		return err.Error()
	}
	switch u.Scheme {
	case "http", "https":
		if u.Host == "" || strings.ContainsAny(dest, " \t<>\"") {
			return "not a well-formed URL"
		}
		return ""
	case "mailto":
		if u.Opaque == "" {
			return "no address"
		}
		return ""
	case "":
	default:
		return "neither a relative link nor http(s)"
	}
	if u.Host != "" {
		return "a host without a scheme"
	}
	target := localTarget(root, from, u)
	rel, err := filepath.Rel(root, target)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return "outside the repository"
	}
	if first, _, _ := strings.Cut(filepath.ToSlash(rel), "/"); first == "_output" || first == ".git" {
		return "build output, which a clone does not have"
	}
	info, err := os.Stat(target)
	if err != nil {
		return "no such file"
	}
	if u.Fragment == "" {
		return ""
	}
	if info.IsDir() {
		// A folder is shown with its README.md, whose headings are the
		// folder's anchors.
		target = filepath.Join(target, "README.md")
		if _, err := os.Stat(target); err != nil {
			return "#" + u.Fragment + " on a folder without README.md"
		}
	}
	if !strings.HasSuffix(target, ".md") {
		m := codeLineAnchor.FindStringSubmatch(u.Fragment)
		if m == nil {
			return "#" + u.Fragment + " is not a line (#L12 or #L12-L20)"
		}
		data, err := os.ReadFile(target)
		if err != nil {
			return err.Error()
		}
		lines := bytes.Count(data, []byte("\n")) + 1
		for _, s := range m[1:] {
			if n, _ := strconv.Atoi(s); n > lines {
				return fmt.Sprintf("the file has %d lines", lines)
			}
		}
		return ""
	}
	page, err := load(target)
	if err != nil {
		return err.Error()
	}
	if !page.anchors[u.Fragment] {
		return "no heading has the anchor #" + u.Fragment
	}
	return ""
}

// localTarget is the file or folder that u, a relative link of the
// Markdown file from, names: the file itself for a bare #anchor, the top
// of the repository for a path starting with '/'.
func localTarget(root, from string, u *url.URL) string {
	switch {
	case strings.HasPrefix(u.Path, "/"):
		return filepath.Join(root, u.Path)
	case u.Path != "":
		return filepath.Join(filepath.Dir(from), u.Path)
	}
	return from
}

// markdownFiles lists the Markdown files under root that a clone has.
func markdownFiles(root string) ([]string, error) {
	var files []string
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if path != root && (strings.HasPrefix(d.Name(), ".") || d.Name() == "_output") {
				return filepath.SkipDir
			}
			return nil
		}
		if strings.HasSuffix(path, ".md") {
			files = append(files, path)
		}
		return nil
	})
	return files, err
}

// reachable returns the Markdown files a reader reaches from start by
// following relative links, a folder's link leading to its README.md.
func reachable(root, start string) (map[string]bool, error) {
	seen := map[string]bool{start: true}
	for queue := []string{start}; len(queue) > 0; queue = queue[1:] {
		src, err := os.ReadFile(queue[0])
		if err != nil {
			return nil, err
		}
		for _, l := range parseMarkdown(src).links {
			u, err := url.Parse(l.dest)
			if err != nil || u.Scheme != "" || u.Host != "" {
				continue
			}
			target := localTarget(root, queue[0], u)
			if info, err := os.Stat(target); err == nil && info.IsDir() {
				target = filepath.Join(target, "README.md")
			}
			if _, err := os.Stat(target); err != nil || !strings.HasSuffix(target, ".md") || seen[target] {
				continue
			}
			seen[target] = true
			queue = append(queue, target)
		}
	}
	return seen, nil
}

// TestEveryMarkdownPageIsReachableFromTheReadme: the README is the front
// door, so every page of the tree is a few links from it, and nothing the
// documentation says is on a page no reader finds.
func TestEveryMarkdownPageIsReachableFromTheReadme(t *testing.T) {
	root, err := filepath.Abs(repoRoot)
	if err != nil {
		t.Fatal(err)
	}
	files, err := markdownFiles(root)
	if err != nil {
		t.Fatal(err)
	}
	seen, err := reachable(root, filepath.Join(root, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		if !seen[f] {
			rel, _ := filepath.Rel(root, f)
			t.Errorf("%s: no chain of links from README.md reaches it", rel)
		}
	}
}

// TestEveryMarkdownLinkOfTheTreeResolves checks the README, the pages it
// links and every other Markdown file of the repository.
func TestEveryMarkdownLinkOfTheTreeResolves(t *testing.T) {
	root, err := filepath.Abs(repoRoot)
	if err != nil {
		t.Fatal(err)
	}
	broken, err := brokenLinks(root)
	if err != nil {
		t.Fatal(err)
	}
	for _, b := range broken {
		t.Error(b)
	}
	readme, err := os.ReadFile(filepath.Join(root, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	if len(parseMarkdown(readme).links) == 0 {
		t.Error("README.md has no links: the checks found nothing to check")
	}
}

// TestBrokenMarkdownLinksAndOrphanPagesAreFound runs the checks on a small
// tree of pages with one link of each kind, good and bad, and a page no
// link reaches.
func TestBrokenMarkdownLinksAndOrphanPagesAreFound(t *testing.T) {
	root := t.TempDir()
	files := map[string]string{
		"README.md": "# Top\n\n## The apiserver's own costs\n\n## Top\n\n" +
			"[ok](docs/page.md#größe-und-kosten) [ok](#the-apiservers-own-costs) [ok](#top-1)\n" +
			"[ok](docs/) [ok](docs/#a_b-c) [ok](main.go#L2) ![ok](docs/chart.svg) <https://example.com/x>\n" +
			"[bad file](docs/missing.md)\n" +
			"[bad anchor](docs/page.md#Größe-und-Kosten)\n" +
			"[bad self](#top-2)\n" +
			"![bad image](docs/chart.png)\n" +
			"[bad line](main.go#L40)\n" +
			"[bad url](https:///nohost)\n" +
			"[bad scheme](file:///etc/passwd)\n" +
			"[bad outside](../elsewhere.md)\n" +
			"[bad output](_output/docs/index.html)\n" +
			"\n`[in a code span](nowhere.md)`\n\n```\n[in a fence](nowhere.md)\n```\n",
		"docs/README.md":          "# A_b (c)\n",
		"docs/page.md":            "# Größe und Kosten!\n\n| a | b |\n|---|---|\n| [bad in a table](gone.md) | x |\n",
		"docs/chart.svg":          "<svg/>",
		"main.go":                 "package main\n",
		"orphan.md":               "# Linked from nowhere\n",
		"_output/docs/index.html": "",
	}
	for name, content := range files {
		path := filepath.Join(root, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	broken, err := brokenLinks(root)
	if err != nil {
		t.Fatal(err)
	}
	got := strings.Join(broken, "\n")
	for _, want := range []string{
		"README.md:9: (docs/missing.md): no such file",
		"README.md:10: (docs/page.md#Größe-und-Kosten): no heading has the anchor #Größe-und-Kosten",
		"README.md:11: (#top-2): no heading",
		"README.md:12: (docs/chart.png): no such file",
		"README.md:13: (main.go#L40): the file has 2 lines",
		"README.md:14: (https:///nohost): not a well-formed URL",
		"README.md:15: (file:///etc/passwd): neither a relative link nor http(s)",
		"README.md:16: (../elsewhere.md): outside the repository",
		"README.md:17: (_output/docs/index.html): build output",
		"docs/page.md:5: (gone.md): no such file",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("missing %q", want)
		}
	}
	if len(broken) != 10 {
		t.Errorf("found %d broken links, want 10:\n%s", len(broken), got)
	}
	seen, err := reachable(root, filepath.Join(root, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	for name, want := range map[string]bool{"docs/page.md": true, "docs/README.md": true, "orphan.md": false} {
		if seen[filepath.Join(root, name)] != want {
			t.Errorf("%s reachable from README.md: %v, want %v", name, !want, want)
		}
	}
}

// readmeMaxLines keeps the README a front door: what the project is, the
// commands a newcomer came for, and links to the pages that say more.
// A section that grows past it belongs on one of those pages.
const readmeMaxLines = 250

func TestTheReadmeStaysAFrontDoor(t *testing.T) {
	src, err := os.ReadFile(filepath.Join(repoRoot, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	if n := bytes.Count(src, []byte("\n")); n > readmeMaxLines {
		t.Errorf("README.md has %d lines, more than %d: move the detail to the page it belongs on (cmd/, pkg/, examples/) and link it", n, readmeMaxLines)
	}
}

// TestEveryIndexEntryHasItsOwnTitle: the index lists the project's pages
// and the pages to start with by title (its package entries list files by
// name), so no two may share one, and every page MarkdownTitles names must
// still be in the tree.
func TestEveryIndexEntryHasItsOwnTitle(t *testing.T) {
	_, docs := site(t)
	seen := map[string]string{}
	entries := 0
	walk(docs["index.html"], func(list *html.Node) {
		if !hasClass(list, "doclist") && !hasClass(list, "cards") {
			return
		}
		walk(list, func(n *html.Node) {
			if n.Data != "a" {
				return
			}
			title, href := strings.TrimSpace(text(n)), attr(n, "href")
			entries++
			if other, dup := seen[title]; dup && other != href {
				t.Errorf("the index titles both %s and %s %q", other, href, title)
			}
			seen[title] = href
		})
	})
	if entries < 20 {
		t.Errorf("only %d index entries were read", entries)
	}
	for p := range MarkdownTitles {
		if _, err := os.Stat(filepath.Join(repoRoot, filepath.FromSlash(p))); err != nil {
			t.Errorf("MarkdownTitles names %s: %v", p, err)
		}
	}
}
