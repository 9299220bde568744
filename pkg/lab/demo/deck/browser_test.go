//go:build unix

package deck

// The shipped deck and a deck of one's own as a speaker and an audience
// meet them, in one headless Chromium per test with several pages: every
// slide and step fits its window at every size and zoom, with no text
// under 3.3 % of its height; the presenter view stays in step; printing
// gives a page a slide; a deck made from a Markdown outline plays from
// disk. They run where KUBE_REWIND_CHROMIUM=1 asks for them, as .ci/run
// does (Chromium's absence is then a failure), and skip in a line
// elsewhere. The package builds the same in both builds, so make test runs
// them once.

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/kube-rewind/kube-rewind/pkg/lab/demo/pagetest"
)

// TestEverySlideAndStepOfTheShippedDeckFitsAtEverySizeAndZoom lays out
// every picture of the shipped deck (every page of every card, each
// recording at its start and at the end of each group of steps, each page
// of its results) in windows of 1280×720, 1024×768, 1920×1080 and
// 3840×2160, at ?zoom=1, 1.2 and 1.5, and reads what the page measured:
// nothing outside the window or cut at its box's edge, pod grids of one
// size with room to be seen, and no text under 3.3 % of the window's
// height.
func TestEverySlideAndStepOfTheShippedDeckFitsAtEverySizeAndZoom(t *testing.T) {
	b := pagetest.Browser(t)
	url := pagetest.FileURL(t, filepath.Join(talkDir, shippedDeck))
	for _, size := range [][2]int{{1280, 720}, {1024, 768}, {1920, 1080}, {3840, 2160}} {
		tb, err := b.NewTab(size[0], size[1])
		if err != nil {
			t.Fatal(err)
		}
		for _, zoom := range []string{"1", "1.2", "1.5"} {
			name := fmt.Sprintf("%dx%d at zoom %s", size[0], size[1], zoom)
			if err := tb.Open(url + "?check=1&zoom=" + zoom + "#still=1.1"); err != nil {
				t.Fatal(err)
			}
			var checks []pagetest.LayoutCheck
			if err := tb.Eval("kubeRewind.checkAll()", &checks); err != nil || len(checks) < 20 {
				t.Fatalf("%s: the deck checked %d pictures (%v)", name, len(checks), err)
			}
			min, at := 1e9, ""
			for _, c := range checks {
				if len(c.Problems) > 0 {
					t.Errorf("%s, %s (#still=%s): %s", name, c.Name, c.Part, strings.Join(c.Problems, "; "))
				}
				if c.MinText < 0.033*float64(size[1]) {
					t.Errorf("%s, %s: text of %.1f px (%s), under 3.3 %% of %d px", name, c.Name, c.MinText, c.MinTextAt, size[1])
				}
				if c.MinText < min {
					min, at = c.MinText, c.Name
				}
			}
			t.Logf("%s: %d pictures fit; the smallest text is %.1f px, %.2f %% of the height (%s)", name, len(checks), min, 100*min/float64(size[1]), at)
		}
		tb.Close()
	}
}

// TestThePresenterViewStaysInStepWithTheProjectedPage opens the presenter
// view of the shipped deck with s, as a speaker would, and presses twenty
// keys, in turn on the projected page and in the presenter view: after
// each, the presenter view and its picture of the projected slide show
// where the projected page is. The pace chosen on one recording stays for
// the next.
func TestThePresenterViewStaysInStepWithTheProjectedPage(t *testing.T) {
	b := pagetest.Browser(t)
	projected := pagetest.Tab(t, b, pagetest.FileURL(t, filepath.Join(talkDir, shippedDeck)), 1280, 720)
	presenter, err := projected.Opened(func() error { return projected.Key("s") })
	if err != nil {
		t.Fatalf("s opened no presenter view: %v", err)
	}
	t.Cleanup(presenter.Close)
	if err := presenter.Size(1280, 800); err != nil {
		t.Fatal(err)
	}
	if err := presenter.Wait(`document.body.getAttribute("data-pos")`, time.Minute); err != nil {
		t.Fatalf("the presenter view never heard from the projected page: %v", err)
	}
	// where names a position as the presenter view does.
	where := `(function (p) { return [p.slide, p.page, p.frame, p.results ? 1 : 0, p.rpage].join("."); })(kubeRewind.position())`
	keys := []struct {
		presenter bool
		key       string
	}{
		{false, "ArrowRight"}, {true, "ArrowRight"}, {false, "ArrowRight"}, {true, "Enter"}, {false, "p"},
		{true, "+"}, {false, "ArrowRight"}, {true, "ArrowLeft"}, {false, "End"}, {true, "Home"},
		{false, "End"}, {true, "ArrowLeft"}, {false, "r"}, {true, "r"}, {false, "ArrowLeft"},
		{true, "ArrowRight"}, {false, "ArrowLeft"}, {true, "Home"}, {false, "ArrowRight"}, {true, "ArrowRight"},
	}
	for i, k := range keys {
		on := projected
		if k.presenter {
			on = presenter
		}
		if err := on.Key(k.key); err != nil {
			t.Fatal(err)
		}
		var want, got, shown string
		deadline := time.Now().Add(time.Minute)
		for {
			want = pagetest.Eval[string](t, projected, where)
			got = pagetest.Eval[string](t, presenter, `document.body.getAttribute("data-pos") || ""`)
			shown = pagetest.Eval[string](t, presenter, `document.body.getAttribute("data-shown-now") || ""`)
			if got == want && shown == want {
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("key %d (%s, on the %s): the projected page is at %s; the presenter view says %s and its picture shows %s",
					i+1, k.key, map[bool]string{false: "projected page", true: "presenter view"}[k.presenter], want, got, shown)
			}
			time.Sleep(50 * time.Millisecond)
		}
		t.Logf("key %d, %s on the %s: both at %s", i+1, k.key, map[bool]string{false: "projected page", true: "presenter view"}[k.presenter], want)
	}
	if speed := pagetest.Eval[float64](t, projected, "kubeRewind.position().speed"); speed != 2 {
		t.Errorf("the pace is %g× after + on the first recording and moving on; want 2×, kept", speed)
	}
	if s := pagetest.Eval[string](t, presenter, `document.body.getAttribute("data-speed")`); s != "2" {
		t.Errorf("the presenter view says the pace is %s×", s)
	}
	if notes := pagetest.Eval[string](t, presenter, `document.getElementById("pnotes").textContent`); notes == "" {
		t.Errorf("the presenter view shows no notes")
	}
	if notes := pagetest.Eval[bool](t, projected, `document.getElementById("notes").hidden`); !notes {
		t.Errorf("the projected page shows the notes, which nobody asked for")
	}
}

// TestPrintingTheDeckGivesOnePagePerSlide prints the shipped deck as
// Chromium's Print to PDF does, and counts the pages.
func TestPrintingTheDeckGivesOnePagePerSlide(t *testing.T) {
	b := pagetest.Browser(t)
	d, _ := shippedDeckOf(t)
	tb := pagetest.Tab(t, b, pagetest.FileURL(t, filepath.Join(talkDir, shippedDeck)), 1280, 720)
	pdf, err := tb.PDF()
	if err != nil {
		t.Fatal(err)
	}
	pages := len(regexp.MustCompile(`/Type\s*/Page[^s]`).FindAll(pdf, -1))
	if pages != len(d.Slides) {
		t.Errorf("the PDF has %d pages for %d slides", pages, len(d.Slides))
	}
	if printed := pagetest.Eval[string](t, tb, `document.body.getAttribute("data-printed")`); printed != fmt.Sprint(len(d.Slides)) {
		t.Errorf("the page laid out %s sheets for %d slides", printed, len(d.Slides))
	}
	// After printing, the page is where it was.
	if slide := pagetest.Eval[int](t, tb, "kubeRewind.position().slide"); slide != 0 {
		t.Errorf("after printing the page shows slide %d, not the first", slide+1)
	}
	t.Logf("%d slides, %d pages, %d bytes of PDF", len(d.Slides), pages, len(pdf))
}

// ownOutline is a talk of one's own: a title card with the speaker's name
// and event, a card of text, a code card and two recordings.
const ownOutline = `# A talk of one's own

Ada Lovelace · Analytical Engines Conference 2027

> Thank the organisers.

## Why this talk

- The 2014 manager had no lock.
- Today's elects a leader.

## How the 2014 manager creates pods

code: pkg/controller ReplicationManager.syncReplicationController
mark: rm.podControl.createReplica(ctx, controllerSpec)

> One goroutine for each missing pod.

## Two managers

recording: two-managers.html

## Two controllers over the same pods

recording: [overlap](overlap.html)
`

// TestADeckOfOnesOwnFromAnOutlinePlaysFromDisk makes a deck of a Markdown
// outline beside two recordings, opens it from disk, looks at its title
// and code cards, and lets it play to its end by itself.
func TestADeckOfOnesOwnFromAnOutlinePlaysFromDisk(t *testing.T) {
	b := pagetest.Browser(t)
	dir := t.TempDir()
	for _, name := range []string{"two-managers.html", "overlap.html"} {
		data, err := os.ReadFile(filepath.Join(talkDir, name))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	outline := filepath.Join(dir, "talk.md")
	if err := os.WriteFile(outline, []byte(ownOutline), 0o644); err != nil {
		t.Fatal(err)
	}
	o, err := ReadOutline(outline)
	if err != nil {
		t.Fatal(err)
	}
	d, err := o.Deck(repoRoot)
	if err != nil {
		t.Fatal(err)
	}
	html, err := d.HTML()
	if err != nil {
		t.Fatal(err)
	}
	page := filepath.Join(dir, "talk.html")
	if err := os.WriteFile(page, html, 0o644); err != nil {
		t.Fatal(err)
	}
	url := pagetest.FileURL(t, page)

	tb := pagetest.Tab(t, b, url+"#still=1.1", 1280, 720)
	if title := pagetest.Eval[string](t, tb, `document.getElementById("card").textContent`); !strings.Contains(title, "A talk of one's own") || !strings.Contains(title, "Ada Lovelace · Analytical Engines Conference 2027") {
		t.Errorf("the title card says %q", title)
	}
	pagetest.Eval[bool](t, tb, `kubeRewind.still("3.1")`)
	if marked := pagetest.Eval[string](t, tb, `Array.prototype.map.call(document.querySelectorAll("#card .ln.m"), function (e) { return e.textContent; }).join("\n")`); !strings.Contains(marked, "rm.podControl.createReplica(ctx, controllerSpec)") {
		t.Errorf("the code card marks %q", marked)
	}
	if c := pagetest.Eval[pagetest.LayoutCheck](t, tb, "kubeRewind.check()"); len(c.Problems) > 0 {
		t.Errorf("the code card does not fit: %v", c.Problems)
	}

	// Played by itself at sixteen times the recorded pace, it reaches the
	// end of its last recording.
	if err := tb.Open(url + "?auto=1&speed=16"); err != nil {
		t.Fatal(err)
	}
	last := len(d.Slides)
	if err := tb.Wait(fmt.Sprintf(`kubeRewind.position().slide === %d && kubeRewind.position().ended`, last-1), 4*time.Minute); err != nil {
		t.Fatalf("the deck did not play to the end of its last recording: %v (at %s)", err, pagetest.Eval[string](t, tb, "JSON.stringify(kubeRewind.position())"))
	}
	end := d.Recordings[1].Frames[len(d.Recordings[1].Frames)-1]
	if created := pagetest.Eval[string](t, tb, `document.querySelector("#s1 [data-f=cr]").textContent`); strings.ReplaceAll(created, "\u202f", "") != strconv.Itoa(end.Sides[1].Created) {
		t.Errorf("the last recording, overlap, ends with %s pods created by today's manager; it recorded %d", created, end.Sides[1].Created)
	}
	var kinds []string
	for _, s := range d.Slides {
		kinds = append(kinds, s.Kind)
	}
	t.Logf("%d slides (%s) played from disk", len(d.Slides), strings.Join(kinds, ", "))
}
