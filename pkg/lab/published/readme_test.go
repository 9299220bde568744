package published

import (
	"strings"
	"testing"
)

// A page added since the last publish says so, rather than name an empty
// commit or an error.
func TestAPageNeverPublishedSaysHowToPublishIt(t *testing.T) {
	s := Status{Page: *Get("learner")}
	if got := s.Measured() + "; " + s.Since(); got != "not published yet (make publish PAGES=learner writes it); nothing to be stale" {
		t.Errorf("an unpublished page reads %q", got)
	}
}

// The block is found by its marker's opening words, and rewriting it
// rewrites the marker whole: a marker naming where the lines came from
// before the code moved is brought up to date with the lines.
func TestRewritingTheReadmesLinesRewritesAnOlderMarker(t *testing.T) {
	older := "<!-- rcbench publish -readme writes the lines below, from somewhere else: do not edit them by hand -->"
	readme := "# x\n\n" + older + "\nAs of `abc1234`:\n- old\n" + ReadmeEnd + "\nafter\n"
	block, ok := ReadmeBlock(readme)
	if !ok || block != "As of `abc1234`:\n- old\n" {
		t.Fatalf("the block under an older marker reads %q (%v)", block, ok)
	}
	got, err := ReplaceReadme(readme, "As of `def5678`:\n- new\n")
	if err != nil {
		t.Fatal(err)
	}
	if want := "# x\n\n" + ReadmeBegin + "\nAs of `def5678`:\n- new\n" + ReadmeEnd + "\nafter\n"; got != want {
		t.Errorf("rewritten:\n%s\nwant:\n%s", got, want)
	}
	if _, err := ReplaceReadme(strings.ReplaceAll(readme, ReadmeEnd, ""), "x"); err == nil {
		t.Error("a README without the end marker was rewritten, want an error")
	}
}
