package pagetest

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/kube-rewind/kube-rewind/pkg/lab/scenario/scripts"
)

// ShippedRecordings are the recordings' pages in talkDir (examples/talk):
// every page there named after a scenario.
func ShippedRecordings(t *testing.T, talkDir string) []string {
	t.Helper()
	files, _ := filepath.Glob(filepath.Join(talkDir, "*.html"))
	var out []string
	for _, f := range files {
		if _, err := scripts.Get(strings.TrimSuffix(filepath.Base(f), ".html")); err == nil {
			out = append(out, f)
		}
	}
	if len(out) == 0 {
		t.Fatalf("no recordings in %s", talkDir)
	}
	return out
}
