package pages

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kube-rewind/kube-rewind/pkg/history"
	"github.com/kube-rewind/kube-rewind/pkg/lab/source"
)

// repoRoot is the kube-rewind checkout these tests run in.
const repoRoot = "../../../.."

// exists reports whether the file or directory rel of the checkout exists.
func exists(rel string) bool {
	_, err := os.Stat(filepath.Join(repoRoot, filepath.FromSlash(rel)))
	return err == nil
}

// TestEveryRowNamesCodeThatExists keeps the comparison table honest: a
// renamed function shows up here, not as a silent note on the page. Refs
// into directories that do not exist yet are allowed (they render a note).
func TestEveryRowNamesCodeThatExists(t *testing.T) {
	for _, c := range Comparisons {
		modernPresent := exists(c.ModernFile)
		for _, r := range c.Rows {
			check := func(refs []source.Ref, b source.Variant) {
				for _, ref := range refs {
					if !exists(ref.Dir) {
						continue
					}
					// Cut fails on a name it cannot find and on any
					// note (a focus or a mark that no line holds).
					if _, err := source.Cut(repoRoot, ref, b); err != nil {
						t.Errorf("%s, row %q, %s: %v", c.Page, r.ID, ref.Name, err)
					}
				}
			}
			check(r.Legacy, source.Legacy)
			if modernPresent {
				check(r.Modern, source.Modern)
			}
		}
	}
}

// TestEveryHistoryNameIsInTheCatalogue checks that the side-by-side rows
// cite only entries pkg/history has.
func TestEveryHistoryNameIsInTheCatalogue(t *testing.T) {
	for _, c := range Comparisons {
		for _, r := range c.Rows {
			for _, name := range r.History {
				if _, err := history.Get(name); err != nil {
					t.Errorf("%s row %s: %v", c.Page, r.ID, err)
				}
			}
		}
	}
	note := string(historyNote([]string{"burst-cap"}, nil))
	if !strings.Contains(note, "burst-cap") || !strings.Contains(note, "#7869") {
		t.Errorf("history note %q does not name the entry and its PR", note)
	}
}
