package annotate

// Writing the pages: a Writer puts a site's pages and its one stylesheet
// into a directory, renders each file's annotated page and each excerpt,
// and refuses a page that cites a history entry the catalogue lacks. The
// templates every page shares are here; the layers above parse their own
// pages into a copy of them.

import (
	"bytes"
	"embed"
	"fmt"
	"html/template"
	"io/fs"
	"os"
	"path"
	"path/filepath"

	"github.com/kube-rewind/kube-rewind/pkg/lab/source"
)

//go:embed assets/base.html assets/style.css
var assets embed.FS

// base holds the shared templates (head, foot, excerpt) and the file
// page; it is never executed itself, so that it can always be copied.
var base = template.Must(template.New("pages").Funcs(template.FuncMap{"soft": softBreaks}).ParseFS(assets, "assets/base.html"))

// fileTemplates is the copy a file's page is executed from.
var fileTemplates = template.Must(base.Clone())

// Templates parses the files of fsys that patterns name into a copy of the
// shared templates, so that a page defined there can use "head", "foot"
// and "excerpt" and the function soft, which lets a path or a name break
// between its parts.
func Templates(fsys fs.FS, patterns ...string) *template.Template {
	return template.Must(template.Must(base.Clone()).ParseFS(fsys, patterns...))
}

// StyleSheet is the name of the one stylesheet every page links.
const StyleSheet = "style.css"

// Writer writes one site's pages into a directory, from the files of a
// tree. It highlights each file and indexes each package's declarations
// once, however many pages show them.
type Writer struct {
	tree    *Tree
	out     string
	hl      map[*source.File]*highlighted
	indexes map[string]*source.Decls
	written []string
}

// NewWriter returns a Writer of pages into out, which must exist, made
// from the files of tree.
func NewWriter(tree *Tree, out string) *Writer {
	return &Writer{tree: tree, out: out, hl: map[*source.File]*highlighted{}, indexes: map[string]*source.Decls{}}
}

// Tree is what the pages are made from.
func (w *Writer) Tree() *Tree { return w.tree }

// Dir is the directory the pages are written into.
func (w *Writer) Dir() string { return w.out }

// Written names the files written so far, in order.
func (w *Writer) Written() []string { return w.written }

// indexFor indexes the declarations dir has in build b, once.
func (w *Writer) indexFor(dir string, b source.Variant) *source.Decls {
	key := fmt.Sprintf("%s/%d", dir, b)
	if idx, ok := w.indexes[key]; ok {
		return idx
	}
	idx := source.IndexDecls(w.tree.filesFor(dir, b))
	w.indexes[key] = idx
	return idx
}

func (w *Writer) highlight(f *source.File) (*highlighted, error) {
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

// Write writes the page name, unless it cites a history entry that
// pkg/history's catalogue does not have.
func (w *Writer) Write(name string, data []byte) error {
	if err := checkHistoryLinks(name, data); err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(w.out, name), data, 0o644); err != nil {
		return err
	}
	w.written = append(w.written, name)
	return nil
}

// Execute writes the page name, made by the template tmpl of t from data.
func (w *Writer) Execute(t *template.Template, name, tmpl string, data any) error {
	var buf bytes.Buffer
	if err := t.ExecuteTemplate(&buf, tmpl, data); err != nil {
		return fmt.Errorf("%s: %v", name, err)
	}
	return w.Write(name, buf.Bytes())
}

// StyleSheet writes the stylesheet: the pages' rules and the code's
// colours.
func (w *Writer) StyleSheet() error {
	css, err := assets.ReadFile("assets/style.css")
	if err != nil {
		return err
	}
	var buf bytes.Buffer
	buf.Write(css)
	if err := writeChromaCSS(&buf); err != nil {
		return err
	}
	return w.Write(StyleSheet, buf.Bytes())
}

// Link is an href and its text, with an optional note.
type Link struct {
	Href, Text, Note string
}

// Head holds what every page's head and body tag read: a view embeds it.
type Head struct {
	Title     string
	BodyClass string
}

type sectionView struct {
	ID    string
	Prose template.HTML
	Code  template.HTML
}

type fileView struct {
	Head
	Path                   string
	PkgName, PkgDir        string
	PkgAnchor              string
	BuildLabel, BuildClass string
	PairHref, PairText     string
	Compare                []Link
	Intro                  template.HTML
	Sections               []sectionView
	Prev, Next             Link
}

// FilePage writes f's annotated page: its prose beside its code, with
// links to the files before and after it (prev and next, either nil) and
// to the other build's file of a pair; compare are the pages that set f
// beside another file.
func (w *Writer) FilePage(f, prev, next *source.File, compare []Link) error {
	h, err := w.highlight(f)
	if err != nil {
		return err
	}
	dir := path.Dir(f.Path)
	v := fileView{
		Head:       Head{Title: f.Path + " · kube-rewind", BodyClass: "file-page"},
		Path:       f.Path,
		PkgName:    f.Package,
		PkgDir:     dir,
		PkgAnchor:  PackageAnchor(dir),
		BuildLabel: f.Variant.Label(),
		BuildClass: f.Variant.Class(),
		Intro:      ProseHTML(f.Intro),
	}
	if p := w.tree.pair(f); p != nil {
		v.PairHref = PageName(p.Path)
		v.PairText = "other build: " + path.Base(p.Path)
	}
	v.Compare = compare
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
		v.Prev = Link{Href: PageName(prev.Path), Text: prev.Path}
	}
	if next != nil {
		v.Next = Link{Href: PageName(next.Path), Text: next.Path}
	}
	return w.Execute(fileTemplates, PageName(f.Path), "file", v)
}

// ExcerptComments says, on the pages made of excerpts, what became of the
// code's comments (as source.Excerpt cuts them).
const ExcerptComments = "The code's comments are left out where the text says what they say; those that open " +
	"with Ours:, where the port departs from 2014, are kept whole above their code. A file name opens the " +
	"annotated file at the first highlighted line, with every comment beside its code."

// ExcerptView is an excerpt as the "excerpt" template shows it: its
// file and lines, linked to the file's page where the site has one, or
// what is missing.
type ExcerptView struct {
	Href, Path, Name, Lines string
	Note, Missing           string
	Code                    template.HTML
}

// Excerpt cuts ref from the files of the build b and renders it, label
// naming that build in a note about what is missing.
func (w *Writer) Excerpt(ref source.Ref, b source.Variant, label string) (ExcerptView, error) {
	return w.excerptView(w.indexFor(ref.Dir, b).Excerpt(ref, label))
}

// lineSpan names the lines an excerpt runs over.
func lineSpan(first, last int) string {
	if first == last {
		return fmt.Sprintf("line %d", first)
	}
	return fmt.Sprintf("lines %d–%d", first, last)
}

func (w *Writer) excerptView(ex source.Excerpt) (ExcerptView, error) {
	if w.tree.byDir[ex.Ref.Dir] == nil {
		return ExcerptView{Missing: ex.Ref.Dir + " is not present in this build of the docs."}, nil
	}
	if ex.Missing != "" {
		return ExcerptView{Missing: ex.Missing}, nil
	}
	h, err := w.highlight(ex.File)
	if err != nil {
		return ExcerptView{}, err
	}
	code, err := h.renderRanges(ex.Ranges, false, ex.Marked...)
	if err != nil {
		return ExcerptView{}, err
	}
	first, last := ex.Ranges[0].From, ex.Ranges[len(ex.Ranges)-1].To
	v := ExcerptView{
		Path:  ex.File.Path,
		Name:  ex.Name,
		Lines: lineSpan(first, last),
		Note:  ex.Note,
		Code:  code,
	}
	if w.tree.File(ex.File.Path) != nil {
		href := PageName(ex.File.Path)
		// Link to the first marked line, or else to the step itself: the
		// last range, after any signature.
		if len(ex.Marked) > 0 {
			href += fmt.Sprintf("#L%d", ex.Marked[0])
		} else if l := ex.File.FirstCodeLine(ex.Ranges[len(ex.Ranges)-1]); l > 0 {
			href += fmt.Sprintf("#L%d", l)
		}
		v.Href = href
	}
	return v, nil
}
