package pagetest

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/kube-rewind/kube-rewind/pkg/lab/scenario/scripts"
	"github.com/kube-rewind/kube-rewind/pkg/lab/stack/stacktest"
)

// ShippedOnce skips, in the modern build, a test that plays the pages
// shipped in examples/talk in Chromium: static files, the same whichever
// build's test opens them, so the untagged build's run is the one. Playing
// them in both builds at once doubled the browsers of a loaded make test,
// and two were killed at their limit.
func ShippedOnce(t testing.TB) {
	t.Helper()
	if stacktest.Design == "modern" {
		t.Skip("plays the shipped pages, static files the same in both builds: the untagged build plays them")
	}
}

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
