package source

import (
	"strings"
	"testing"
)

const extractSample = `package x

// Follows nothing in particular.

import "fmt"

// burst caps creates per sync.
const burst = 500

// M is a manager.
type M struct{}

// Run runs.
func (m *M) Run() {
	fmt.Println("setup")
	// List the pods, once per sync.
	pods := list()
	fmt.Println(pods)
	// Then act on them.
	act(pods)
}

func list() []string { return nil }

func act([]string) {}
`

// extractIndex parses extractSample and indexes it.
func extractIndex(t *testing.T) (*File, *Decls) {
	t.Helper()
	f := parse(t, extractSample)
	return f, IndexDecls([]*File{f})
}

// excerptText returns the excerpt's lines, ranges joined by "⋮".
func excerptText(ex Excerpt) string {
	var parts []string
	for _, r := range ex.Ranges {
		parts = append(parts, strings.Join(ex.File.Lines[r.From-1:r.To], "\n"))
	}
	return strings.Join(parts, "\n⋮\n")
}

func TestExcerptsAreFoundByName(t *testing.T) {
	_, idx := extractIndex(t)
	for _, tc := range []struct {
		name, ref, first, last string
	}{
		{"a function", "list", "func list() []string { return nil }", "func list() []string { return nil }"},
		{"a method as Type.Name", "M.Run", "func (m *M) Run() {", "}"},
		{"a method by its bare name", "Run", "func (m *M) Run() {", "}"},
		{"a type", "M", "type M struct{}", "type M struct{}"},
		{"a const", "burst", "const burst = 500", "const burst = 500"},
		{"the first of several alternatives", "nothere|M.Run|list", "func (m *M) Run() {", "}"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ex := idx.Excerpt(Ref{Dir: "x", Name: tc.ref}, "test build")
			if ex.Missing != "" {
				t.Fatalf("missing: %s", ex.Missing)
			}
			lines := strings.Split(excerptText(ex), "\n")
			if lines[0] != tc.first || lines[len(lines)-1] != tc.last {
				t.Errorf("excerpt runs %q … %q, want %q … %q", lines[0], lines[len(lines)-1], tc.first, tc.last)
			}
		})
	}
}

func TestAMissingNameGivesANoteNotAPanic(t *testing.T) {
	_, idx := extractIndex(t)
	ex := idx.Excerpt(Ref{Dir: "x", Name: "gone|alsoGone"}, "modern build")
	if ex.Missing == "" || !strings.Contains(ex.Missing, "gone or alsoGone") || !strings.Contains(ex.Missing, "modern build") {
		t.Errorf("missing note = %q", ex.Missing)
	}
	if got := IndexDecls(nil).Excerpt(Ref{Dir: "x", Name: "anything"}, "b"); got.Missing == "" {
		t.Errorf("an empty package found %+v", got)
	}
}

func TestAFocusNarrowsAFunctionToItsSignatureAndOneStep(t *testing.T) {
	_, idx := extractIndex(t)
	ex := idx.Excerpt(Ref{Dir: "x", Name: "M.Run", Focus: "list()"}, "b")
	// The step's comment is the page's prose: it is left out, and a gap
	// mark stands in its place.
	want := "func (m *M) Run() {\n\tfmt.Println(\"setup\")\n⋮\n\tpods := list()\n\tfmt.Println(pods)"
	if got := excerptText(ex); got != want || ex.Note != "" {
		t.Errorf("excerpt =\n%s\nnote %q; want\n%s", got, ex.Note, want)
	}
}

func TestAFocusThatIsNotFoundFallsBackToTheWholeDeclaration(t *testing.T) {
	_, idx := extractIndex(t)
	ex := idx.Excerpt(Ref{Dir: "x", Name: "M.Run", Focus: "no such text"}, "b")
	if ex.Note == "" || ex.Ranges[0].From != 14 || ex.Ranges[len(ex.Ranges)-1].To != 21 {
		t.Errorf("excerpt = %+v", ex)
	}
}

func TestMarksHighlightCodeLinesOnly(t *testing.T) {
	f, idx := extractIndex(t)
	ex := idx.Excerpt(Ref{Dir: "x", Name: "M.Run", Mark: []string{"act(pods)", "List the pods"}}, "b")
	// "List the pods" is only in a comment, which the file's page shows as
	// prose: it cannot be marked, and the note says so.
	if len(ex.Marked) != 1 || f.Lines[ex.Marked[0]-1] != "\tact(pods)" {
		t.Errorf("marked %v, want the line of act(pods)", ex.Marked)
	}
	if !strings.Contains(ex.Note, `"List the pods"`) {
		t.Errorf("note = %q, want it to name the text that marks nothing", ex.Note)
	}
}

func TestALongMarkedExcerptIsCutToItsMarkedLines(t *testing.T) {
	var b strings.Builder
	b.WriteString("package x\n\n// Long does many things.\nfunc Long() {\n")
	for i := 0; i < 40; i++ {
		if i == 20 {
			b.WriteString("\t// The step that matters.\n\tkey()\n")
			continue
		}
		b.WriteString("\tstep()\n")
	}
	b.WriteString("}\n\nfunc key()  {}\nfunc step() {}\n")
	f := parse(t, b.String())
	ex := IndexDecls([]*File{f}).Excerpt(Ref{Dir: "x", Name: "Long", Mark: []string{"key()"}}, "b")
	want := "func Long() {\n⋮\n\tkey()\n\tstep()\n\tstep()"
	if got := excerptText(ex); got != want || ex.Note != "" {
		t.Errorf("excerpt =\n%s\nnote %q; want\n%s", got, ex.Note, want)
	}
	if short := IndexDecls([]*File{f}).Excerpt(Ref{Dir: "x", Name: "key", Mark: []string{"key"}}, "b"); len(short.Ranges) != 1 || len(short.Marked) != 1 {
		t.Errorf("a short excerpt was cut: %+v", short)
	}
}

func TestACutExcerptKeepsTheLinesThatOpenEachStatementAroundAMark(t *testing.T) {
	var b strings.Builder
	b.WriteString("package x\n\n// Sync does many things.\nfunc Sync(ch chan int, n int) {\n")
	filler := func(k int) {
		for i := 0; i < k; i++ {
			b.WriteString("\tstep()\n")
		}
	}
	filler(10)
	b.WriteString("\tfor {\n\t\tselect {\n")
	b.WriteString("\t\tcase v := <-ch:\n")
	filler(8)
	b.WriteString("\t\t\tif v > 0 &&\n\t\t\t\tn > 0 {\n")
	filler(6)
	b.WriteString("\t\t\t} else {\n")
	filler(6)
	b.WriteString("\t\t\t\tgo func() {\n")
	filler(6)
	b.WriteString("\t\t\t\t\tkey(v,\n\t\t\t\t\t\tn)\n")
	b.WriteString("\t\t\t\t}()\n\t\t\t}\n\t\t}\n\t}\n}\n\nfunc key(int, int) {}\nfunc step()        {}\n")
	f := parse(t, b.String())
	ex := IndexDecls([]*File{f}).Excerpt(Ref{Dir: "x", Name: "Sync", Mark: []string{"n)"}}, "b")
	got := excerptText(ex)
	for _, want := range []string{
		"func Sync(ch chan int, n int) {", "\tfor {", "\t\tselect {", "\t\tcase v := <-ch:",
		"\t\t\tif v > 0 &&\n\t\t\t\tn > 0 {", "\t\t\t} else {", "\t\t\t\tgo func() {", "\t\t\t\t\tkey(v,\n\t\t\t\t\t\tn)",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("the excerpt lacks %q:\n%s", want, got)
		}
	}
	if strings.Count(got, "step()") > 6 {
		t.Errorf("the excerpt was not cut:\n%s", got)
	}
}

const commentSample = `package x

// Sync syncs.
func Sync() {
	setup()
	// Count the pods: the prose says so too.
	count()

	// Ours: the port counts twice,
	// which 2014 did not.
	count()
	// Kept by name: a detail the prose leaves out.
	act()
	// About code the excerpt does not show.
	rest()
}

func setup() {}
func count() {}
func act()   {}
func rest()  {}
`

// TestAnExcerptShowsACommentWholeOrNotAtAll: the comments the page's
// prose says are left out, a block that opens with Ours: or that a Ref
// keeps by name is shown whole above its code, and no block is shown
// without its code.
func TestAnExcerptShowsACommentWholeOrNotAtAll(t *testing.T) {
	f := parse(t, commentSample)
	idx := IndexDecls([]*File{f})
	ex := idx.Excerpt(Ref{Dir: "x", Name: "Sync", Keep: []string{"Kept by name"}, Mark: []string{"act()"}}, "b")
	want := "func Sync() {\n\tsetup()\n⋮\n\tcount()\n\n\t// Ours: the port counts twice,\n\t// which 2014 did not.\n\tcount()\n\t// Kept by name: a detail the prose leaves out.\n\tact()\n⋮\n\trest()\n}"
	if got := excerptText(ex); got != want || ex.Note != "" {
		t.Errorf("excerpt =\n%s\nnote %q; want\n%s", got, ex.Note, want)
	}
	// Narrowed to one step, the Ours: block goes with its code.
	ex = idx.Excerpt(Ref{Dir: "x", Name: "Sync", Focus: "act()", Keep: []string{"Kept by name"}}, "b")
	want = "func Sync() {\n⋮\n\t// Kept by name: a detail the prose leaves out.\n\tact()"
	if got := excerptText(ex); got != want || ex.Note != "" {
		t.Errorf("excerpt =\n%s\nnote %q; want\n%s", got, ex.Note, want)
	}
	ex = idx.Excerpt(Ref{Dir: "x", Name: "Sync", Keep: []string{"no such comment"}}, "b")
	if !strings.Contains(ex.Note, `"no such comment"`) {
		t.Errorf("note = %q, want it to name the kept text no comment shown contains", ex.Note)
	}
}
