package site

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kube-rewind/kube-rewind/pkg/lab/published"
)

// TestTheDocsNameNoPathOfTheMachineThatBuiltThem scans every page of
// the built site, and every file it copies, for the machine's absolute
// paths (its checkout's, the site's own directory's) and remarks such as
// "(start of this session)".
func TestTheDocsNameNoPathOfTheMachineThatBuiltThem(t *testing.T) {
	dir, err := builtSite()
	if err != nil {
		t.Fatal(err)
	}
	checkout, err := filepath.Abs(repoRoot)
	if err != nil {
		t.Fatal(err)
	}
	err = filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		switch filepath.Ext(path) {
		case ".html", ".md", ".svg", ".json", ".css", ".txt":
		default:
			return nil
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		text := strings.ReplaceAll(string(data), dir, "<site>")
		hits := published.MachinePaths(text, checkout)
		if strings.Contains(string(data), dir) {
			hits = append(hits, dir)
		}
		if len(hits) > 0 {
			rel, _ := filepath.Rel(dir, path)
			t.Errorf("%s names the machine that built it: %q", rel, hits)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
