package published

import (
	"fmt"
	"path/filepath"
	"strings"
	"sync"
)

// An Evidence is a figure of a page as an earlier run published it, which
// a reason's prediction was made from. A text in code that states such a
// figure writes it with Evident, which names the page and the commit, so
// that the figure a prediction rests on is never the one it judges, and
// CheckEvidence reads the page at that commit from git to hold the text
// to it.
type Evidence struct {
	// Commit is the commit the page was published at (its stamp's or
	// its header's), and Key a reference's key (see Reference).
	Commit, Key string
	// Value is how the text writes the figure, as Render writes it
	// without the page's marks.
	Value string
}

var (
	evidenceMu sync.Mutex
	evidences  []Evidence
)

// Evident records an evidence and returns how a text states it: its
// value and where it is from, "<value> on the <page> page of <commit>".
func Evident(commit, key, value string) string {
	e := Evidence{Commit: commit, Key: key, Value: value}
	evidenceMu.Lock()
	evidences = append(evidences, e)
	evidenceMu.Unlock()
	r, err := ParseReference(key)
	if err != nil {
		return value
	}
	return fmt.Sprintf("%s on the %s page of %s", value, r.Page, commit)
}

// Evidences are the evidences recorded so far, by the packages that
// stated them as they initialised.
func Evidences() []Evidence {
	evidenceMu.Lock()
	defer evidenceMu.Unlock()
	return append([]Evidence(nil), evidences...)
}

// CheckEvidence reads e's page as published at e.Commit, from git in the
// repository at root, and says where e's value is not what it said.
func CheckEvidence(root string, e Evidence) error {
	r, err := ParseReference(e.Key)
	if err != nil {
		return err
	}
	file, ok := sheetFiles()[r.Page]
	if !ok {
		return fmt.Errorf("evidence %q: no results page %q", e.Key, r.Page)
	}
	// The page's file at the commit that published it: the first
	// commit after e.Commit that holds a page naming it.
	log, err := Git(root, "log", "--format=%h", "--", file)
	if err != nil {
		return err
	}
	for _, c := range strings.Fields(log) {
		text, err := Git(root, "show", c+":"+filepath.ToSlash(file))
		if err != nil || !strings.Contains(text, "`"+e.Commit+"`") && !strings.Contains(text, "built from "+e.Commit) && !strings.Contains(text, "Commit "+e.Commit) {
			continue
		}
		got, err := r.Render(ParseSheet(r.Page, file, text))
		if err != nil {
			return fmt.Errorf("evidence %q, the %s page of %s (in %s): %v", e.Key, r.Page, e.Commit, c, err)
		}
		if got != e.Value && !strings.HasPrefix(got, e.Value+" (") {
			return fmt.Errorf("evidence %q: the code says %q, the %s page of %s said %q", e.Key, e.Value, r.Page, e.Commit, got)
		}
		return nil
	}
	return fmt.Errorf("evidence %q: no version of %s in git was published at %s", e.Key, file, e.Commit)
}
