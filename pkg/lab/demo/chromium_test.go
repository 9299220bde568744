//go:build unix

package demo

// The live page as an audience sees it: a demo runs, headless Chromium
// takes a screenshot of the page, and the test looks for the colour of
// running pods in both halves. It runs only when asked
// (KUBE_REWIND_CHROMIUM=1, as .ci/run does), since it needs Debian's
// chromium package.

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/kube-rewind/kube-rewind/pkg/lab/demo/pagetest"
	"github.com/kube-rewind/kube-rewind/pkg/lab/testutil"
)

// TestARecordingOpenedFromDiskPlaysToItsLastStep opens each shipped
// recording's page from disk, as a speaker without a cluster would, lets
// it play by itself (?auto=1) and reads what it shows at the end: the last
// step, the results, and on each side the pods created that the recording
// ends with. Two-managers must show 40 created by the 2014 pair and 20 by
// today's. A screenshot mid-way must show running pods on both sides.
func TestARecordingOpenedFromDiskPlaysToItsLastStep(t *testing.T) {
	if !testutil.ChromiumWanted() {
		t.Skip("set KUBE_REWIND_CHROMIUM=1 to play the recordings in headless Chromium")
	}
	browser := testutil.Chromium(t)
	shots := testutil.ScreenshotDir(t)
	created := regexp.MustCompile(`data-f="cr">([^<]*)<`)
	for _, file := range pagetest.ShippedRecordings(t, talkDir) {
		name := strings.TrimSuffix(filepath.Base(file), ".html")
		t.Run(name, func(t *testing.T) {
			rec, err := ReadRecording(file)
			if err != nil {
				t.Fatal(err)
			}
			url := pagetest.FileURL(t, file)
			last := rec.Frames[len(rec.Frames)-1]
			played := rec.Frames[len(rec.Frames)-1].T - rec.Frames[0].T

			// Virtual time runs as fast as the page lets it: the whole
			// recording, at eight times its pace, plus a margin.
			dom := testutil.DumpDOM(t, browser, url+"?auto=1&speed=8", int(played*1000/8)+20000)
			wantStep := `id="step">` + stepLine(last) + "<"
			if !strings.Contains(dom, wantStep) || !strings.Contains(dom, `id="chip">done<`) {
				t.Errorf("the page did not reach its last step and the end (%s)", wantStep)
			}
			if !strings.Contains(dom, `<td class="why">`) {
				t.Errorf("the page shows no results")
			}
			got := created.FindAllStringSubmatch(dom, -1)
			if len(got) != 2 {
				t.Fatalf("found %d pods-created tiles, want 2", len(got))
			}
			for i := range got {
				if want := Thousands(last.Sides[i].Created); got[i][1] != want {
					t.Errorf("%s side shows %s pods created; the recording ends with %s", rec.Talk.Designs[i].Heading, got[i][1], want)
				}
			}
			t.Logf("%s ends on step %d of %d with %s and %s pods created", name, last.Steps, last.Steps, got[0][1], got[1][1])
			// two-managers's point, which the page shows as above: 2014's
			// pair creates more than its controller's 20, today's exactly 20.
			if old, today := last.Sides[0].Created, last.Sides[1].Created; name == "two-managers" && (old <= 20 || today != 20) {
				t.Errorf("two-managers shows %d pods created by 2014 and %d by today, want more than 20 and 20", old, today)
			}
			if name != "two-managers" {
				return
			}
			file := filepath.Join(shots, "replay-two-managers.png")
			testutil.Screenshot(t, browser, url+"?auto=1", file, 1280, 720, 12000)
			left, right := pagetest.RunningPixelsOf(t, file)
			t.Logf("%s: running-pod pixels: %d left, %d right", file, left, right)
			if left < 2000 || right < 2000 {
				t.Errorf("running pods are not on both sides of the replay: %d pixels left, %d right", left, right)
			}
		})
	}
}

// playerDriver presses keys and clicks on a recording's page, as a
// speaker would, and writes what the page shows after each into the
// body's data-log, one entry a line: the chip, the step line, the clock,
// the pace and the footer.
const playerDriver = `<script>
(function () {
  var log = [];
  function $(id) { return document.getElementById(id); }
  function note(what) {
    log.push(what + " | " + $("chip").textContent + " | " + $("step").textContent + " | " + $("clock").textContent.split(" ")[0] +
      " | " + $("speed").textContent + " | " + $("where").textContent + " | next " + ($("next").disabled ? "off" : "on"));
    document.body.setAttribute("data-log", log.join("\n"));
  }
  function key(k) { document.dispatchEvent(new KeyboardEvent("keydown", { key: k, bubbles: true })); }
  var plan = [
    [0, function () { note("open"); }],
    [100, function () { key("Enter"); }],
    [1500, function () { key("p"); note("paused"); }],
    [3000, function () { note("still paused"); key("p"); }],
    [1500, function () { note("resumed"); key("-"); key("-"); note("slower"); }],
    [100, function () { key("ArrowRight"); note("skipped to the next pause"); }],
    [100, function () { key("ArrowLeft"); note("back"); }],
    [100, function () { document.querySelector("#say").click(); note("clicked"); }],
    [100, function () { $("next").click(); note("next button"); }],
    [100, function () { $("next").click(); $("next").click(); note("the end"); }],
  ];
  var at = 0;
  plan.forEach(function (p) { at += p[0]; setTimeout(p[1], at); });
})();
</script>`

// TestThePlayerPausesGoesSlowerSkipsAndGoesBack drives the two-managers
// recording's page as a speaker would: Enter runs the first step, p
// pauses within it and resumes, - slows down below the recorded pace, →
// skips to the next pause, ← goes back to the one before, a click and the
// on-screen button go on, and the footer says when it is over.
func TestThePlayerPausesGoesSlowerSkipsAndGoesBack(t *testing.T) {
	if !testutil.ChromiumWanted() {
		t.Skip("set KUBE_REWIND_CHROMIUM=1 to drive the player in headless Chromium")
	}
	browser := testutil.Chromium(t)
	html, err := os.ReadFile(filepath.Join(talkDir, "two-managers.html"))
	if err != nil {
		t.Fatal(err)
	}
	page := filepath.Join(t.TempDir(), "driven.html")
	driven := strings.Replace(string(html), "</body>", playerDriver+"\n</body>", 1)
	if err := os.WriteFile(page, []byte(driven), 0o644); err != nil {
		t.Fatal(err)
	}
	dom := testutil.DumpDOMAt(t, browser, pagetest.FileURL(t, page), 1280, 720, 12000)
	m := regexp.MustCompile(`(?s)data-log="([^"]*)"`).FindStringSubmatch(dom)
	if m == nil {
		t.Fatalf("the driver left no log")
	}
	entries := map[string][]string{}
	for _, line := range strings.Split(htmlUnescape(m[1]), "\n") {
		f := strings.Split(line, " | ")
		entries[f[0]] = f[1:]
		t.Log(line)
	}
	want := map[string]func(e []string) bool{
		"open":                      func(e []string) bool { return e[0] == "next: press Enter" && strings.HasPrefix(e[1], "Step 1 of 3") },
		"paused":                    func(e []string) bool { return e[0] == "paused" },
		"still paused":              func(e []string) bool { return e[0] == "paused" && e[2] == entries["paused"][2] },
		"resumed":                   func(e []string) bool { return e[0] == "running" },
		"slower":                    func(e []string) bool { return e[3] == "0.25×" },
		"skipped to the next pause": func(e []string) bool { return e[0] == "next: press Enter" && strings.HasPrefix(e[1], "Step 2 of 3") },
		"back":                      func(e []string) bool { return e[0] == "next: press Enter" && strings.HasPrefix(e[1], "Step 1 of 3") },
		"clicked":                   func(e []string) bool { return e[0] == "running" && strings.HasPrefix(e[1], "Step 1 of 3") },
		"next button":               func(e []string) bool { return e[0] == "next: press Enter" && strings.HasPrefix(e[1], "Step 2 of 3") },
		"the end":                   func(e []string) bool { return e[0] == "done" && e[4] == "the end" && e[5] == "next off" },
	}
	for name, ok := range want {
		e, seen := entries[name]
		if !seen || len(e) < 6 || !ok(e) {
			t.Errorf("%s: the page shows %q", name, e)
		}
	}
}

// htmlUnescape undoes the escaping of an attribute's value in a dumped
// document.
func htmlUnescape(s string) string {
	return strings.NewReplacer("&amp;", "&", "&lt;", "<", "&gt;", ">", "&quot;", `"`, "&#10;", "\n").Replace(s)
}
