package site

// The site: which directories are read, which pages exist and in what
// order they are written, and the index that leads to them all.

import (
	"fmt"
	"html/template"
	"os"
	"path"
	"strings"

	"github.com/kube-rewind/kube-rewind/pkg/lab/annotate"
	"github.com/kube-rewind/kube-rewind/pkg/lab/annotate/pages"
	"github.com/kube-rewind/kube-rewind/pkg/lab/published"
	"github.com/kube-rewind/kube-rewind/pkg/lab/source"
)

// SourceRoots are the directories whose packages (and sub-packages) get
// pages, in reading order: the controllers first, then what they stand on.
var SourceRoots = []string{
	"pkg/controller",
	"pkg/service",
	"pkg/client",
	"pkg/apiserver",
	"pkg/registry",
	"pkg/tools",
	"pkg/api",
	"pkg/watch",
	"pkg/labels",
	"pkg/util",
	// What only the modern build adds: client-go informers over our
	// client, the conversion to the objects they hold, the leader-election
	// lock and the workqueue's metrics.
	"pkg/modern",
	"cmd/controller-manager",
	// The catalogue of the changes between the two designs.
	"pkg/history",
	// The rest of the walk from kubecfg to a Running pod: the CLI, the
	// apiserver's wiring and its embedded etcd, and the hollow nodes that
	// stand in for the scheduler and kubelets.
	"pkg/kubecfg",
	"cmd/kubecfg",
	"pkg/master",
	"pkg/etcd",
	"cmd/apiserver",
	"pkg/lab/hollownode",
	"cmd/hollow-node",
}

// Load reads every non-test Go file under SourceRoots.
func Load(root string) (*annotate.Tree, error) { return annotate.LoadTree(root, SourceRoots) }

// Result says what Build wrote.
type Result struct {
	// Pages are the HTML pages written, by name (the stylesheet aside).
	Pages []string
	// Files is the number of source files rendered.
	Files int
}

// writer writes the site: the pages of the layers below, and the index
// and the Markdown pages, which only the site knows of.
type writer struct {
	*annotate.Writer
	markdown []*mdPage
}

// Build reads the repository at root and writes the site into out.
func Build(root, out string) (*Result, error) {
	tree, err := Load(root)
	if err != nil {
		return nil, err
	}
	if err := os.MkdirAll(out, 0o755); err != nil {
		return nil, err
	}
	md, err := loadMarkdown(root)
	if err != nil {
		return nil, err
	}
	w := &writer{Writer: annotate.NewWriter(tree, out), markdown: md}
	if err := w.StyleSheet(); err != nil {
		return nil, err
	}
	// The walk is rendered first, since the index states its length.
	walk, length, err := pages.RenderWalk(w.Writer)
	if err != nil {
		return nil, err
	}
	if err := w.index(length); err != nil {
		return nil, err
	}
	var all []*source.File
	for _, p := range tree.Packages {
		all = append(all, p.Files...)
	}
	for i, f := range all {
		var prev, next *source.File
		if i > 0 {
			prev = all[i-1]
		}
		if i+1 < len(all) {
			next = all[i+1]
		}
		if err := w.FilePage(f, prev, next, sideBySide(f)); err != nil {
			return nil, err
		}
	}
	if err := pages.WriteComparisons(w.Writer); err != nil {
		return nil, err
	}
	if err := w.Write(pages.WalkPage, walk); err != nil {
		return nil, err
	}
	var mdPaths []string
	for _, p := range md {
		mdPaths = append(mdPaths, p.Path)
	}
	if err := pages.WriteHistory(w.Writer, mdPaths); err != nil {
		return nil, err
	}
	if err := w.markdownPages(md); err != nil {
		return nil, err
	}
	res := &Result{Files: len(all)}
	for _, name := range w.Written() {
		if name != annotate.StyleSheet {
			res.Pages = append(res.Pages, name)
		}
	}
	return res, nil
}

// sideBySide links the side-by-side pages that set f beside its pair.
func sideBySide(f *source.File) []annotate.Link {
	var out []annotate.Link
	for _, c := range pages.Comparisons {
		if f.Path == c.LegacyFile || f.Path == c.ModernFile {
			out = append(out, annotate.Link{Href: c.Page, Text: "side by side"})
		}
	}
	return out
}

type fileLink struct {
	Href, Name             string
	BuildLabel, BuildClass string
	Lines                  int
}

type packageView struct {
	Dir, Anchor string
	Doc         template.HTML
	Files       []fileLink
}

type indexView struct {
	annotate.Head
	Diagram     template.HTML
	Walk        annotate.Link
	Docs        []annotate.Link
	Comparisons []annotate.Link
	Featured    []annotate.Link
	Packages    []packageView
	// Published lists the pages the laboratory's runs published, each
	// with where it was measured and what changed since, from git.
	Published []annotate.Link
}

// index writes the index; walk is the walk's length.
func (w *writer) index(walk pages.WalkLength) error {
	v := indexView{Head: annotate.Head{Title: "kube-rewind: the annotated source", BodyClass: "index-page"}, Diagram: Diagram()}
	v.Walk = annotate.Link{Href: pages.WalkPage, Text: pages.WalkTitle, Note: fmt.Sprintf(
		"from kubecfg create to a Running pod and back, in both designs: %d stops, about %d minutes to read",
		walk.Stops, walk.Minutes())}
	for _, p := range w.markdown {
		v.Docs = append(v.Docs, annotate.Link{Href: annotate.PageName(p.Path), Text: p.Title, Note: p.Path})
	}
	published, err := publishedLinks(w.Tree().Root)
	if err != nil {
		return err
	}
	v.Published = published
	for _, c := range pages.Comparisons {
		v.Comparisons = append(v.Comparisons, annotate.Link{Href: c.Page, Text: c.Title, Note: fmt.Sprintf("%d steps, 2014 beside today", len(c.Rows))})
	}
	for _, c := range pages.Comparisons {
		for _, p := range []string{c.LegacyFile, c.ModernFile} {
			if f := w.Tree().File(p); f != nil {
				v.Featured = append(v.Featured, annotate.Link{Href: annotate.PageName(p), Text: path.Base(p), Note: path.Dir(p) + " · " + f.Variant.Label()})
			}
		}
	}
	for _, p := range w.Tree().Packages {
		pv := packageView{Dir: p.Dir, Anchor: annotate.PackageAnchor(p.Dir)}
		if len(p.Doc) > 0 {
			// One paragraph per package: the first of its package comment.
			pv.Doc = annotate.ProseHTML(p.Doc[:1])
		} else {
			pv.Doc = template.HTML("<p>(This package has no package comment.)</p>")
		}
		for _, f := range p.Files {
			pv.Files = append(pv.Files, fileLink{
				Href: annotate.PageName(f.Path), Name: path.Base(f.Path),
				BuildLabel: f.Variant.Label(), BuildClass: f.Variant.Class(),
				Lines: len(f.Lines),
			})
		}
		v.Packages = append(v.Packages, pv)
	}
	return w.Execute(templates, "index.html", "index", v)
}

// publishedLinks lists each published page with the commit it was
// measured at and the inputs of it that changed since (pkg/lab/published,
// as the README's "The last published runs" says them).
func publishedLinks(root string) ([]annotate.Link, error) {
	statuses, err := published.Statuses(root)
	if err != nil {
		return nil, err
	}
	var out []annotate.Link
	for _, s := range statuses {
		href := FilesDir + "/" + s.Page.Link
		if strings.HasSuffix(s.Page.Link, ".md") {
			href = annotate.PageName(s.Page.Link)
		}
		note := strings.ReplaceAll(s.Measured()+"; "+s.Since()+".", "`", "")
		out = append(out, annotate.Link{Href: href, Text: strings.ReplaceAll(s.Page.Title, "`", ""), Note: note})
	}
	return out, nil
}
