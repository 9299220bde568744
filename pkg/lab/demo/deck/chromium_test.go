//go:build unix

package deck

// The shipped deck and a deck of one recording in headless Chromium: the
// deck plays from disk to its last card, and its stills are written. They
// run only when asked (KUBE_REWIND_CHROMIUM=1, as .ci/run does), since they
// need Debian's chromium package.

import (
	"context"
	"fmt"
	"image/png"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/kube-rewind/kube-rewind/pkg/lab/demo"
	"github.com/kube-rewind/kube-rewind/pkg/lab/demo/pagetest"
	"github.com/kube-rewind/kube-rewind/pkg/lab/testutil"
)

// TestTheDeckOpensFromDiskAndReachesItsLastSlide plays the shipped deck
// from disk by itself (?auto=1, sixteen times the recorded pace) and
// checks that it ends on its last card, laid out within the window.
func TestTheDeckOpensFromDiskAndReachesItsLastSlide(t *testing.T) {
	if !testutil.ChromiumWanted() {
		t.Skip("set KUBE_REWIND_CHROMIUM=1 to play the deck in headless Chromium")
	}
	browser := testutil.Chromium(t)
	deck := filepath.Join(talkDir, shippedDeck)
	d, recs := shippedDeckOf(t)
	played := 0.0
	for _, rec := range recs {
		played += rec.Frames[len(rec.Frames)-1].T - rec.Frames[0].T
	}
	budget := int(played*1000/16) + len(d.Slides)*autoCard + 30000
	dom := testutil.DumpDOMAt(t, browser, pagetest.FileURL(t, deck)+"?auto=1&speed=16&check=1", 1280, 720, budget)
	want := fmt.Sprintf(`data-slide="%d"`, len(d.Slides))
	if !strings.Contains(dom, want) {
		m := regexp.MustCompile(`data-slide="\d+"`).FindString(dom)
		t.Fatalf("the deck did not reach its last slide: %s, want %s", m, want)
	}
	if !strings.Contains(dom, `data-layout="ok"`) {
		t.Errorf("its last card does not fit: %s", regexp.MustCompile(`data-layout="[^"]*"`).FindString(dom))
	}
	if !strings.Contains(dom, d.Slides[len(d.Slides)-1].Title) {
		t.Errorf("the last card's title is not on the page")
	}
}

// TestStillsAreWritten has Chromium export every picture of a deck of one
// recording, and looks for running pods on both sides at the end of its
// first step.
func TestStillsAreWritten(t *testing.T) {
	if !testutil.ChromiumWanted() {
		t.Skip("set KUBE_REWIND_CHROMIUM=1 to export stills with headless Chromium")
	}
	browser := testutil.Chromium(t)
	rec, err := demo.ReadRecording(filepath.Join(talkDir, "overlap.html"))
	if err != nil {
		t.Fatal(err)
	}
	d, err := BuildDeck("A deck of one", []*demo.Recording{rec})
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	page := filepath.Join(dir, "deck.html")
	html, err := d.HTML()
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(page, html, 0o644); err != nil {
		t.Fatal(err)
	}
	stills := testutil.ScreenshotDir(t)
	ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
	defer cancel()
	files, err := demo.WriteStills(ctx, browser, page, stills, 1280, 720, nil)
	if err != nil {
		t.Fatal(err)
	}
	// A title card, the timeline, the card before the recording, its two
	// groups of steps and the summary, each on one page at 1280×720.
	if len(files) != 6 {
		t.Fatalf("%d stills written, want 6: %v", len(files), files)
	}
	for _, f := range files {
		fh, err := os.Open(f)
		if err != nil {
			t.Fatal(err)
		}
		cfg, err := png.DecodeConfig(fh)
		fh.Close()
		if err != nil || cfg.Width != 1280 || cfg.Height != 720 {
			t.Errorf("%s: %dx%d, %v; want a 1280x720 PNG", f, cfg.Width, cfg.Height, err)
		}
	}
	var last string
	for _, f := range files {
		if strings.Contains(f, "overlap-step1") {
			last = f
		}
	}
	left, right := pagetest.RunningPixelsOf(t, last)
	if left < 500 || right < 500 {
		t.Errorf("%s: running pods are not on both sides: %d pixels left, %d right", last, left, right)
	}
}
