package annotate

// Writing the pages: the index, a page per file, the side-by-side pages
// and the one stylesheet.

import (
	"bytes"
	"embed"
	"fmt"
	"html/template"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/kube-rewind/kube-rewind/pkg/lab/bench/publish"
)

//go:embed assets/pages.html assets/style.css
var assets embed.FS

var pages = template.Must(template.New("pages").Funcs(template.FuncMap{"soft": softBreaks}).ParseFS(assets, "assets/pages.html"))

// StyleSheet is the name of the one stylesheet every page links.
const StyleSheet = "style.css"

// Result says what Build wrote.
type Result struct {
	// Pages are the HTML pages written, by name (the stylesheet aside).
	Pages []string
	// Files is the number of source files rendered.
	Files int
}

// Build reads the repository at root and writes the site into out.
func Build(root, out string) (*Result, error) {
	site, err := Load(root)
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
	w := &writer{site: site, out: out, markdown: md, hl: map[*File]*highlighted{}, indexes: map[string]*declIndex{}}
	if err := w.stylesheet(); err != nil {
		return nil, err
	}
	if err := w.index(); err != nil {
		return nil, err
	}
	all := w.allFiles()
	for i, f := range all {
		var prev, next *File
		if i > 0 {
			prev = all[i-1]
		}
		if i+1 < len(all) {
			next = all[i+1]
		}
		if err := w.filePage(f, prev, next); err != nil {
			return nil, err
		}
	}
	for _, c := range Comparisons {
		if err := w.comparison(c); err != nil {
			return nil, err
		}
	}
	if err := w.walk(); err != nil {
		return nil, err
	}
	if err := w.historyPage(); err != nil {
		return nil, err
	}
	if err := w.markdownPages(w.markdown); err != nil {
		return nil, err
	}
	res := &Result{Files: len(all)}
	for _, name := range w.written {
		if name != StyleSheet {
			res.Pages = append(res.Pages, name)
		}
	}
	return res, nil
}

type writer struct {
	site     *Site
	out      string
	markdown []*mdPage
	hl       map[*File]*highlighted
	indexes  map[string]*declIndex
	written  []string
	// walkHTML is the walk as rendered, and walkLen what it measured.
	walkHTML []byte
	walkLen  walkLength
}

// indexFor indexes the declarations dir has in build b, once.
func (w *writer) indexFor(dir string, b Variant) *declIndex {
	key := fmt.Sprintf("%s/%d", dir, b)
	if idx, ok := w.indexes[key]; ok {
		return idx
	}
	idx := indexDecls(w.site.filesFor(dir, b))
	w.indexes[key] = idx
	return idx
}

func (w *writer) allFiles() []*File {
	var all []*File
	for _, p := range w.site.Packages {
		all = append(all, p.Files...)
	}
	return all
}

func (w *writer) highlight(f *File) (*highlighted, error) {
	if h, ok := w.hl[f]; ok {
		return h, nil
	}
	h, err := highlight(f)
	if err != nil {
		return nil, err
	}
	w.hl[f] = h
	return h, nil
}

func (w *writer) write(name string, data []byte) error {
	if err := checkHistoryLinks(name, data); err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(w.out, name), data, 0o644); err != nil {
		return err
	}
	w.written = append(w.written, name)
	return nil
}

func (w *writer) execute(name, tmpl string, data any) error {
	var buf bytes.Buffer
	if err := pages.ExecuteTemplate(&buf, tmpl, data); err != nil {
		return fmt.Errorf("%s: %v", name, err)
	}
	return w.write(name, buf.Bytes())
}

func (w *writer) stylesheet() error {
	css, err := assets.ReadFile("assets/style.css")
	if err != nil {
		return err
	}
	var buf bytes.Buffer
	buf.Write(css)
	if err := writeChromaCSS(&buf); err != nil {
		return err
	}
	return w.write(StyleSheet, buf.Bytes())
}

// link is an href and its text, with an optional note.
type link struct {
	Href, Text, Note string
}

// page holds what every page template reads.
type page struct {
	Title     string
	BodyClass string
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
	page
	Diagram     template.HTML
	Walk        link
	Docs        []link
	Comparisons []link
	Featured    []link
	Packages    []packageView
	// Published lists the pages the laboratory's runs published, each
	// with where it was measured and what changed since, from git.
	Published []link
}

func (w *writer) index() error {
	v := indexView{page: page{Title: "kube-rewind: the annotated source", BodyClass: "index-page"}, Diagram: Diagram()}
	_, length, err := w.walkPage()
	if err != nil {
		return err
	}
	v.Walk = link{Href: WalkPage, Text: WalkTitle, Note: fmt.Sprintf(
		"from kubecfg create to a Running pod and back, in both designs: %d stops, about %d minutes to read",
		length.Stops, length.Minutes())}
	for _, p := range w.markdown {
		v.Docs = append(v.Docs, link{Href: PageName(p.Path), Text: p.Title, Note: p.Path})
	}
	published, err := publishedLinks(w.site.Root)
	if err != nil {
		return err
	}
	v.Published = published
	for _, c := range Comparisons {
		v.Comparisons = append(v.Comparisons, link{Href: c.Page, Text: c.Title, Note: fmt.Sprintf("%d steps, 2014 beside today", len(c.Rows))})
	}
	for _, c := range Comparisons {
		for _, p := range []string{c.LegacyFile, c.ModernFile} {
			if f := w.site.File(p); f != nil {
				v.Featured = append(v.Featured, link{Href: PageName(p), Text: path.Base(p), Note: path.Dir(p) + " · " + f.Variant.Label()})
			}
		}
	}
	for _, p := range w.site.Packages {
		pv := packageView{Dir: p.Dir, Anchor: PackageAnchor(p.Dir)}
		if len(p.Doc) > 0 {
			// One paragraph per package: the first of its package comment.
			pv.Doc = ProseHTML(p.Doc[:1])
		} else {
			pv.Doc = template.HTML("<p>(This package has no package comment.)</p>")
		}
		for _, f := range p.Files {
			pv.Files = append(pv.Files, fileLink{
				Href: PageName(f.Path), Name: path.Base(f.Path),
				BuildLabel: f.Variant.Label(), BuildClass: f.Variant.Class(),
				Lines: len(f.Lines),
			})
		}
		v.Packages = append(v.Packages, pv)
	}
	return w.execute("index.html", "index", v)
}

// publishedLinks lists each published page with the commit it was
// measured at and the inputs of it that changed since (pkg/lab/bench/publish,
// as the README's "The last published runs" says them).
func publishedLinks(root string) ([]link, error) {
	statuses, err := publish.Statuses(root)
	if err != nil {
		return nil, err
	}
	var out []link
	for _, s := range statuses {
		href := FilesDir + "/" + s.Page.Link
		if strings.HasSuffix(s.Page.Link, ".md") {
			href = PageName(s.Page.Link)
		}
		note := strings.ReplaceAll(s.Measured()+"; "+s.Since()+".", "`", "")
		out = append(out, link{Href: href, Text: strings.ReplaceAll(s.Page.Title, "`", ""), Note: note})
	}
	return out, nil
}

type sectionView struct {
	ID    string
	Prose template.HTML
	Code  template.HTML
}

type fileView struct {
	page
	Path                   string
	PkgName, PkgDir        string
	PkgAnchor              string
	BuildLabel, BuildClass string
	PairHref, PairText     string
	Compare                []link
	Intro                  template.HTML
	Sections               []sectionView
	Prev, Next             link
}

func (w *writer) filePage(f *File, prev, next *File) error {
	h, err := w.highlight(f)
	if err != nil {
		return err
	}
	dir := path.Dir(f.Path)
	v := fileView{
		page:       page{Title: f.Path + " · kube-rewind", BodyClass: "file-page"},
		Path:       f.Path,
		PkgName:    f.Package,
		PkgDir:     dir,
		PkgAnchor:  PackageAnchor(dir),
		BuildLabel: f.Variant.Label(),
		BuildClass: f.Variant.Class(),
		Intro:      ProseHTML(f.Intro),
	}
	if p := w.site.pair(f); p != nil {
		v.PairHref = PageName(p.Path)
		v.PairText = "other build: " + path.Base(p.Path)
	}
	for _, c := range Comparisons {
		if f.Path == c.LegacyFile || f.Path == c.ModernFile {
			v.Compare = append(v.Compare, link{Href: c.Page, Text: "side by side"})
		}
	}
	if v.Sections, err = fileSections(f, h); err != nil {
		return err
	}
	// The introduction sits beside the package clause and imports,
	// which have no prose of their own, as docco puts a file's first
	// comment beside its first lines.
	if len(v.Sections) > 0 && v.Sections[0].Prose == "" && v.Intro != "" {
		v.Sections[0].Prose = `<div class="intro">` + v.Intro + `</div>`
		v.Intro = ""
	}
	if prev != nil {
		v.Prev = link{Href: PageName(prev.Path), Text: prev.Path}
	}
	if next != nil {
		v.Next = link{Href: PageName(next.Path), Text: next.Path}
	}
	return w.execute(PageName(f.Path), "file", v)
}

type excerptView struct {
	Href, Path, Name, Lines string
	Note, Missing           string
	Code                    template.HTML
}

type rowView struct {
	ID, Then, Now  string
	N              int
	Explain        template.HTML
	History        template.HTML
	Legacy, Modern []excerptView
}

type compareView struct {
	page
	Heading                string
	Intro, Comments        template.HTML
	LegacyFile, LegacyHref string
	ModernFile, ModernHref string
	Rows                   []rowView
}

// ModernMissing is what a modern cell says when the modern file is not in
// the tree the docs were built from.
const ModernMissing = "modern file not present in this build of the docs"

func (w *writer) comparison(c Comparison) error {
	v := compareView{
		page:       page{Title: c.Title + " · kube-rewind", BodyClass: "compare-page"},
		Heading:    c.Title,
		Intro:      Inline(c.Intro),
		Comments:   Inline(ExcerptComments),
		LegacyFile: c.LegacyFile,
		ModernFile: c.ModernFile,
	}
	if w.site.File(c.LegacyFile) != nil {
		v.LegacyHref = PageName(c.LegacyFile)
	}
	modernPresent := w.site.File(c.ModernFile) != nil
	if modernPresent {
		v.ModernHref = PageName(c.ModernFile)
	}
	run := loadHistoryRun(w.site.Root)
	for i, r := range c.Rows {
		rv := rowView{ID: r.ID, Then: r.Then, Now: r.Now, N: i + 1, Explain: Inline(r.Explain)}
		if len(r.History) > 0 {
			rv.History = historyNote(r.History, run)
		}
		for _, ref := range r.Legacy {
			ev, err := w.excerptView(excerpt(ref, w.indexFor(ref.Dir, Legacy), "2014 build"))
			if err != nil {
				return err
			}
			rv.Legacy = append(rv.Legacy, ev)
		}
		if !modernPresent {
			rv.Modern = []excerptView{{Missing: c.ModernFile + ": " + ModernMissing + "."}}
		} else {
			for _, ref := range r.Modern {
				ev, err := w.excerptView(excerpt(ref, w.indexFor(ref.Dir, Modern), "modern build"))
				if err != nil {
					return err
				}
				rv.Modern = append(rv.Modern, ev)
			}
		}
		v.Rows = append(v.Rows, rv)
	}
	return w.execute(c.Page, "compare", v)
}

// lineSpan names the lines an excerpt runs over.
func lineSpan(first, last int) string {
	if first == last {
		return fmt.Sprintf("line %d", first)
	}
	return fmt.Sprintf("lines %d–%d", first, last)
}

func (w *writer) excerptView(ex Excerpt) (excerptView, error) {
	if w.site.byDir[ex.Ref.Dir] == nil {
		return excerptView{Missing: ex.Ref.Dir + " is not present in this build of the docs."}, nil
	}
	if ex.Missing != "" {
		return excerptView{Missing: ex.Missing}, nil
	}
	h, err := w.highlight(ex.File)
	if err != nil {
		return excerptView{}, err
	}
	code, err := h.renderRanges(ex.Ranges, false, ex.Marked...)
	if err != nil {
		return excerptView{}, err
	}
	first, last := ex.Ranges[0].From, ex.Ranges[len(ex.Ranges)-1].To
	v := excerptView{
		Path:  ex.File.Path,
		Name:  ex.Name,
		Lines: lineSpan(first, last),
		Note:  ex.Note,
		Code:  code,
	}
	if w.site.File(ex.File.Path) != nil {
		href := PageName(ex.File.Path)
		// Link to the first marked line, or else to the step itself: the
		// last range, after any signature.
		if len(ex.Marked) > 0 {
			href += fmt.Sprintf("#L%d", ex.Marked[0])
		} else if l := ex.File.firstCodeLine(ex.Ranges[len(ex.Ranges)-1]); l > 0 {
			href += fmt.Sprintf("#L%d", l)
		}
		v.Href = href
	}
	return v, nil
}
