package source

import (
	"strings"
	"testing"
)

// parse splits src or fails the test.
func parse(t *testing.T, src string) *File {
	t.Helper()
	f, err := ParseFile("x/x.go", []byte(src))
	if err != nil {
		t.Fatalf("ParseFile: %v", err)
	}
	return f
}

// codeText joins the code lines of a section.
func codeText(f *File, s Section) string {
	var out []string
	for _, r := range s.Code {
		out = append(out, f.Lines[r.From-1:r.To]...)
	}
	return strings.Join(out, "\n")
}

// proseText joins the paragraphs of a section.
func proseText(ps []Paragraph) string {
	var out []string
	for _, p := range ps {
		out = append(out, p.Text)
	}
	return strings.Join(out, " | ")
}

const sample = `//go:build !modern

package x

// Follows kubernetes/kubernetes pkg/x/x.go as of v0.4
// (October 2014).

import "fmt"

// Greet prints a greeting.
//
// Ours: the 2014 code printed nothing.
func Greet() {
	s := "// not a comment" // says hello
	// The second step explains itself
	// over two lines.
	fmt.Println(s)
}
`

func TestSplittingMakesDocCommentsProseForTheCodeBelow(t *testing.T) {
	f := parse(t, sample)
	var found bool
	for _, s := range f.Sections {
		if strings.HasPrefix(proseText(s.Prose), "Greet prints a greeting.") {
			found = true
			if got := codeText(f, s); !strings.HasPrefix(got, "func Greet() {") {
				t.Errorf("the doc comment's code starts %q, want the func line", got)
			}
			if len(s.Prose) != 2 || s.Prose[1].Marker != "Ours" {
				t.Errorf("paragraphs = %+v, want two with the second marked Ours", s.Prose)
			}
		}
	}
	if !found {
		t.Fatalf("no section has the doc comment as prose: %+v", f.Sections)
	}
}

func TestSplittingKeepsEndOfLineCommentsAndStringsInTheCode(t *testing.T) {
	f := parse(t, sample)
	for _, s := range f.Sections {
		prose := proseText(s.Prose)
		if strings.Contains(prose, "says hello") || strings.Contains(prose, "not a comment") {
			t.Errorf("prose %q took text that belongs to the code", prose)
		}
	}
	var all []string
	for _, s := range f.Sections {
		all = append(all, codeText(f, s))
	}
	code := strings.Join(all, "\n")
	if !strings.Contains(code, `s := "// not a comment" // says hello`) {
		t.Errorf("the line with a string and an end-of-line comment is not in the code:\n%s", code)
	}
}

func TestSplittingStartsANewSectionAtACommentInsideAFunction(t *testing.T) {
	f := parse(t, sample)
	last := f.Sections[len(f.Sections)-1]
	if got, want := proseText(last.Prose), "The second step explains itself over two lines."; got != want {
		t.Errorf("last prose = %q, want %q", got, want)
	}
	if got, want := codeText(f, last), "\tfmt.Println(s)\n}"; got != want {
		t.Errorf("last code = %q, want %q", got, want)
	}
}

func TestSplittingLiftsTheProvenanceParagraphIntoTheIntroduction(t *testing.T) {
	f := parse(t, sample)
	if got, want := proseText(f.Intro), "Follows kubernetes/kubernetes pkg/x/x.go as of v0.4 (October 2014)."; got != want {
		t.Errorf("intro = %q, want %q", got, want)
	}
	for _, s := range f.Sections {
		if strings.Contains(proseText(s.Prose), "Follows") || strings.Contains(codeText(f, s), "Follows") {
			t.Errorf("the introduction also appears in a section: %+v", s)
		}
	}
	// The package clause and the imports share the first section, with
	// the lifted lines as a gap between two ranges.
	first := f.Sections[0]
	if len(first.Prose) != 0 || len(first.Code) != 2 {
		t.Fatalf("first section = %+v, want no prose and two code ranges", first)
	}
	if got := codeText(f, first); got != "//go:build !modern\n\npackage x\nimport \"fmt\"" {
		t.Errorf("first section code = %q", got)
	}
}

func TestSplittingLeavesAFirstDeclarationsDocCommentOutOfTheIntroduction(t *testing.T) {
	f := parse(t, "package x\n\n// F does nothing.\nfunc F() {}\n")
	if len(f.Intro) != 0 {
		t.Errorf("intro = %+v, want none", f.Intro)
	}
	if got := proseText(f.Sections[len(f.Sections)-1].Prose); got != "F does nothing." {
		t.Errorf("F's prose = %q", got)
	}
}

func TestSplittingMergesCommentRunsSeparatedOnlyByBlankLines(t *testing.T) {
	f := parse(t, "package x\n\nvar A = 0\n\n// One.\n\n// Two.\nvar V = 1\n")
	last := f.Sections[len(f.Sections)-1]
	if got := proseText(last.Prose); got != "One. | Two." {
		t.Errorf("prose = %q, want both runs as two paragraphs", got)
	}
	if got := codeText(f, last); got != "var V = 1" {
		t.Errorf("code = %q", got)
	}
}

func TestSplittingReadsTheBuildConstraint(t *testing.T) {
	for _, tc := range []struct {
		name, src string
		want      Variant
	}{
		{"untagged files are shared", "package x\n", Shared},
		{"!modern is the 2014 build", "//go:build !modern\n\npackage x\n", Legacy},
		{"modern is the modern build", "//go:build modern\n\npackage x\n", Modern},
		{"other tags are other", "//go:build linux\n\npackage x\n", Other},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := parse(t, tc.src).Variant; got != tc.want {
				t.Errorf("variant = %v, want %v", got, tc.want)
			}
		})
	}
}

func TestSplittingKeepsThePackageCommentForTheIndex(t *testing.T) {
	f := parse(t, "// Package x does one thing.\n//\n// And more.\npackage x\n")
	if got := proseText(f.PackageDoc); got != "Package x does one thing. | And more." {
		t.Errorf("package doc = %q", got)
	}
}

func TestSplittingCoversEveryLineExactlyOnce(t *testing.T) {
	f := parse(t, sample)
	seen := map[int]int{}
	for _, s := range f.Sections {
		for _, r := range s.Code {
			for l := r.From; l <= r.To; l++ {
				seen[l]++
			}
		}
		if s.ProseFrom > 0 {
			for l := s.ProseFrom; l <= s.ProseTo; l++ {
				seen[l]++
			}
		}
	}
	for l, line := range f.Lines {
		n := seen[l+1]
		switch {
		case n > 1:
			t.Errorf("line %d is shown %d times", l+1, n)
		case n == 0 && strings.TrimSpace(line) != "" && !strings.Contains(line, "Follows") && !strings.Contains(line, "(October 2014)"):
			t.Errorf("line %d (%q) is lost", l+1, line)
		}
	}
}
