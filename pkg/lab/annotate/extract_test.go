package annotate

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
func extractIndex(t *testing.T) (*File, *declIndex) {
	t.Helper()
	f := parse(t, extractSample)
	return f, indexDecls([]*File{f})
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
		{"a method as Type.Name, with its doc comment", "M.Run", "// Run runs.", "}"},
		{"a method by its bare name", "Run", "// Run runs.", "}"},
		{"a type", "M", "// M is a manager.", "type M struct{}"},
		{"a const", "burst", "// burst caps creates per sync.", "const burst = 500"},
		{"the first of several alternatives", "nothere|M.Run|list", "// Run runs.", "}"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ex := excerpt(Ref{Dir: "x", Name: tc.ref}, idx, "test build")
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
	ex := excerpt(Ref{Dir: "x", Name: "gone|alsoGone"}, idx, "modern build")
	if ex.Missing == "" || !strings.Contains(ex.Missing, "gone or alsoGone") || !strings.Contains(ex.Missing, "modern build") {
		t.Errorf("missing note = %q", ex.Missing)
	}
	if got := excerpt(Ref{Dir: "x", Name: "anything"}, indexDecls(nil), "b"); got.Missing == "" {
		t.Errorf("an empty package found %+v", got)
	}
}

func TestAFocusNarrowsAFunctionToItsSignatureAndOneStep(t *testing.T) {
	_, idx := extractIndex(t)
	ex := excerpt(Ref{Dir: "x", Name: "M.Run", Focus: "list()"}, idx, "b")
	// A gap of one line is filled rather than marked.
	want := "func (m *M) Run() {\n\tfmt.Println(\"setup\")\n\t// List the pods, once per sync.\n\tpods := list()\n\tfmt.Println(pods)"
	if got := excerptText(ex); got != want || ex.Note != "" {
		t.Errorf("excerpt =\n%s\nnote %q; want\n%s", got, ex.Note, want)
	}
}

func TestAFocusThatIsNotFoundFallsBackToTheWholeDeclaration(t *testing.T) {
	_, idx := extractIndex(t)
	ex := excerpt(Ref{Dir: "x", Name: "M.Run", Focus: "no such text"}, idx, "b")
	if ex.Note == "" || len(ex.Ranges) != 1 || !strings.HasPrefix(excerptText(ex), "// Run runs.") {
		t.Errorf("excerpt = %+v", ex)
	}
}

func TestMarksHighlightCodeLinesOnly(t *testing.T) {
	f, idx := extractIndex(t)
	ex := excerpt(Ref{Dir: "x", Name: "M.Run", Mark: []string{"act(pods)", "List the pods"}}, idx, "b")
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
	ex := excerpt(Ref{Dir: "x", Name: "Long", Mark: []string{"key()"}}, indexDecls([]*File{f}), "b")
	want := "// Long does many things.\nfunc Long() {\n⋮\n\t// The step that matters.\n\tkey()\n\tstep()\n\tstep()"
	if got := excerptText(ex); got != want || ex.Note != "" {
		t.Errorf("excerpt =\n%s\nnote %q; want\n%s", got, ex.Note, want)
	}
	if short := excerpt(Ref{Dir: "x", Name: "key", Mark: []string{"key"}}, indexDecls([]*File{f}), "b"); len(short.Ranges) != 1 || len(short.Marked) != 1 {
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
	ex := excerpt(Ref{Dir: "x", Name: "Sync", Mark: []string{"n)"}}, indexDecls([]*File{f}), "b")
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
