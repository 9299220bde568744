package site

// The project's Markdown pages: README.md and every .md file it links,
// directly or through another page, rendered with goldmark (GitHub
// Flavored Markdown) so that they read the same in make docs as on a code
// host. Relative links are rewritten to the site: a .md file to its page,
// a .go file to its annotated page (a #L line anchor kept), a package
// directory to its entry on the index, and any other file of the tree to a
// copy under files/.

import (
	"bytes"
	"fmt"
	"html/template"
	"io"
	"io/fs"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"strings"
	"unicode"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	gmtext "github.com/yuin/goldmark/text"

	"github.com/kube-rewind/kube-rewind/pkg/lab/annotate"
	"github.com/kube-rewind/kube-rewind/pkg/lab/source"
)

// MarkdownRoot is the page the Markdown pages are found from.
const MarkdownRoot = "README.md"

// FilesDir is where files of the tree that links point at are copied.
const FilesDir = "files"

// mdConverter is the converter every page uses: GitHub Flavored
// Markdown.
var mdConverter = goldmark.New(goldmark.WithExtensions(extension.GFM))

// MarkdownTitles name the Markdown pages whose own heading does not tell
// them apart: the benchmark heads every report it writes the same way.
// The index lists them, and their window title reads, by these.
var MarkdownTitles = map[string]string{
	"examples/bench/RESULTS.md":               "Benchmark results: the published make bench",
	"examples/bench/originals/RESULTS.md":     "Benchmark results beside the original v0.4 binaries",
	"examples/sweep/RESULTS.md":               "Benchmark results: the sweep, 100 to 100 000 pods",
	"examples/bench/status-writes/RESULTS.md": "Benchmark results: the sweep's gap, with and without status writes",
	"examples/bench/learner/RESULTS.md":       "Benchmark results: the laboratory's readers, the log, the learner and the members",
	"examples/fairfight/RESULTS.md":           "Benchmark results: the fair fight, stack against stack on the same work",
}

// mdPage is one Markdown file of the tree.
type mdPage struct {
	// Path is slash-separated, relative to the root.
	Path  string
	Title string
	src   []byte
	doc   ast.Node
}

// readMarkdownPage parses the Markdown file at rel under root.
func readMarkdownPage(root, rel string) (*mdPage, error) {
	src, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(rel)))
	if err != nil {
		return nil, err
	}
	doc := mdConverter.Parser().Parse(gmtext.NewReader(src))
	p := &mdPage{Path: rel, Title: rel, src: src, doc: doc}
	// Headings get GitHub's anchors, from their text as rendered; a
	// repeated anchor gets -1, -2, ….
	seen := map[string]int{}
	ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		h, ok := n.(*ast.Heading)
		if !ok || !entering {
			return ast.WalkContinue, nil
		}
		text := strings.TrimSpace(annotate.PlainText(h, src))
		if h.Level == 1 && p.Title == rel {
			p.Title = text
		}
		id := headingAnchor(text)
		if k := seen[id]; k > 0 {
			id = fmt.Sprintf("%s-%d", id, k)
		}
		seen[headingAnchor(text)]++
		h.SetAttributeString("id", []byte(id))
		return ast.WalkSkipChildren, nil
	})
	if title, ok := MarkdownTitles[rel]; ok {
		p.Title = title
	}
	return p, nil
}

// headingAnchor is GitHub's anchor for a heading of that text: lower case,
// letters, digits, '_' and '-' kept, each space a '-', everything else
// dropped.
func headingAnchor(heading string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(strings.TrimSpace(heading)) {
		switch {
		case r == ' ':
			b.WriteByte('-')
		case r == '-' || r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.IsMark(r):
			b.WriteRune(r)
		}
	}
	return b.String()
}

// relativeTarget splits a link's destination into the path it names in
// the tree (relative to the root) and its fragment; ok is false for an
// external link, an anchor on the same page, or a path outside the tree.
func relativeTarget(from, dest string) (target, fragment string, ok bool) {
	u, err := url.Parse(dest)
	if err != nil || u.Scheme != "" || u.Host != "" || u.Path == "" || strings.HasPrefix(u.Path, "/") {
		return "", "", false
	}
	target = path.Join(path.Dir(from), u.Path)
	if target == ".." || strings.HasPrefix(target, "../") {
		return "", "", false
	}
	return target, u.Fragment, true
}

// destinations calls fn with every link and image destination of p.
func (p *mdPage) destinations(fn func(dest []byte) []byte) {
	ast.Walk(p.doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch n := n.(type) {
		case *ast.Link:
			n.Destination = fn(n.Destination)
		case *ast.Image:
			n.Destination = fn(n.Destination)
		}
		return ast.WalkContinue, nil
	})
}

// loadMarkdown reads MarkdownRoot and every Markdown file it links,
// transitively, within the tree; none when there is no README.
func loadMarkdown(root string) ([]*mdPage, error) {
	if _, err := os.Stat(filepath.Join(root, MarkdownRoot)); err != nil {
		return nil, nil
	}
	var pages []*mdPage
	seen := map[string]bool{MarkdownRoot: true}
	queue := []string{MarkdownRoot}
	for len(queue) > 0 {
		rel := queue[0]
		queue = queue[1:]
		p, err := readMarkdownPage(root, rel)
		if err != nil {
			return nil, err
		}
		pages = append(pages, p)
		p.destinations(func(dest []byte) []byte {
			target, _, ok := relativeTarget(rel, string(dest))
			if ok && strings.HasSuffix(target, ".md") && !seen[target] {
				if st, err := os.Stat(filepath.Join(root, filepath.FromSlash(target))); err == nil && !st.IsDir() {
					seen[target] = true
					queue = append(queue, target)
				}
			}
			return dest
		})
	}
	return pages, nil
}

// githubLine reads a code host's line anchor: L12, or L12-L20.
var githubLine = regexp.MustCompile(`^L(\d+)(?:-L\d+)?$`)

// siteLink rewrites a relative destination of the page at from to the
// site: the page of a Markdown file or a Go file, a package's entry on the
// index, or a copy of any other file under FilesDir.
func (w *writer) siteLink(from string, dest []byte, md map[string]bool) ([]byte, error) {
	target, fragment, ok := relativeTarget(from, string(dest))
	if !ok {
		return dest, nil
	}
	withFragment := func(page string) []byte {
		if fragment != "" {
			page += "#" + fragment
		}
		return []byte(page)
	}
	// A link into the built site itself (make docs' own output) is a
	// link between its pages.
	if page, ok := strings.CutPrefix(target, "_output/docs/"); ok {
		return withFragment(page), nil
	}
	full := filepath.Join(w.Tree().Root, filepath.FromSlash(target))
	st, err := os.Stat(full)
	if err != nil {
		return nil, fmt.Errorf("%s links %s, which is not in the tree", from, dest)
	}
	switch {
	case md[target]:
		return withFragment(annotate.PageName(target)), nil
	case w.Tree().File(target) != nil:
		page := annotate.PageName(target)
		if m := githubLine.FindStringSubmatch(fragment); m != nil {
			var l int
			fmt.Sscanf(m[1], "%d", &l)
			if line := w.Tree().File(target).FirstCodeLine(source.LineRange{From: l, To: len(w.Tree().File(target).Lines)}); line > 0 {
				return []byte(fmt.Sprintf("%s#L%d", page, line)), nil
			}
			return []byte(page), nil
		}
		return withFragment(page), nil
	case st.IsDir() && w.Tree().Package(target) != nil:
		return []byte("index.html#" + annotate.PackageAnchor(target)), nil
	}
	if err := copyTree(full, filepath.Join(w.Dir(), FilesDir, filepath.FromSlash(target))); err != nil {
		return nil, err
	}
	link := FilesDir + "/" + target
	if st.IsDir() {
		link += "/"
	}
	return withFragment(link), nil
}

// copyTree copies the file or directory src to dst.
func copyTree(src, dst string) error {
	return filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(src, p)
		if err != nil {
			return err
		}
		to := filepath.Join(dst, rel)
		if d.IsDir() {
			return os.MkdirAll(to, 0o755)
		}
		if err := os.MkdirAll(filepath.Dir(to), 0o755); err != nil {
			return err
		}
		in, err := os.Open(p)
		if err != nil {
			return err
		}
		defer in.Close()
		out, err := os.Create(to)
		if err != nil {
			return err
		}
		if _, err := io.Copy(out, in); err != nil {
			out.Close()
			return err
		}
		return out.Close()
	})
}

type markdownView struct {
	annotate.Head
	Path string
	Body template.HTML
}

// markdownPages writes a page for each Markdown file, with its links
// rewritten to the site.
func (w *writer) markdownPages(pages []*mdPage) error {
	md := map[string]bool{}
	for _, p := range pages {
		md[p.Path] = true
	}
	for _, p := range pages {
		var linkErr error
		p.destinations(func(dest []byte) []byte {
			out, err := w.siteLink(p.Path, dest, md)
			if err != nil {
				if linkErr == nil {
					linkErr = err
				}
				return dest
			}
			return out
		})
		if linkErr != nil {
			return linkErr
		}
		var buf bytes.Buffer
		if err := mdConverter.Renderer().Render(&buf, p.src, p.doc); err != nil {
			return fmt.Errorf("%s: %v", p.Path, err)
		}
		body, err := annotate.LinkHistoryInHTML(buf.String())
		if err != nil {
			return fmt.Errorf("%s: %v", p.Path, err)
		}
		v := markdownView{
			Head: annotate.Head{Title: p.Title + " · kube-rewind", BodyClass: "markdown-page"},
			Path: p.Path,
			Body: template.HTML(body),
		}
		if err := w.Execute(templates, annotate.PageName(p.Path), "markdown", v); err != nil {
			return err
		}
	}
	return nil
}
