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
	want := "func (m *M) Run() {\n⋮\n\t// List the pods, once per sync.\n\tpods := list()\n\tfmt.Println(pods)"
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
