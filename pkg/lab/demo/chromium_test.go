//go:build unix

package demo

// The live page as an audience sees it: a demo runs, headless Chromium
// takes a screenshot of the page, and the test looks for the colour of
// running pods in both halves. It runs only when asked
// (KUBE_REWIND_CHROMIUM=1, as .ci/run does), since it needs Debian's
// chromium package.

import (
	"context"
	"fmt"
	"image"
	"image/png"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/kube-rewind/kube-rewind/pkg/lab/testutil"
)

// runningPixels counts, in the left and the right half of img, the pixels
// of the colour of a running pod.
func runningPixels(img image.Image) (left, right int) {
	b := img.Bounds()
	near := func(v uint32, want uint8) bool {
		d := int(v>>8) - int(want)
		return d >= -6 && d <= 6
	}
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			r, g, bl, _ := img.At(x, y).RGBA()
			if near(r, 0x2e) && near(g, 0xa0) && near(bl, 0x43) {
				if x < b.Min.X+b.Dx()/2 {
					left++
				} else {
					right++
				}
			}
		}
	}
	return left, right
}

func TestTheLivePageShowsRunningPodsOnBothSides(t *testing.T) {
	if !testutil.ChromiumWanted() {
		t.Skip("set KUBE_REWIND_CHROMIUM=1 to look at the live page in headless Chromium")
	}
	browser := testutil.Chromium(t)
	shots := testutil.ScreenshotDir(t)

	// The demo waits for Enter between steps; the test presses it.
	out := &testutil.Buffer{}
	opts := tinyOptions(t, out)
	opts.Auto = false
	enter, press := io.Pipe()
	opts.In = enter
	urls := make(chan string, 1)
	opts.PageReady = func(url string) { urls <- url }
	ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
	defer cancel()
	result := make(chan error, 1)
	go func() {
		_, err := Run(ctx, opts)
		result <- err
	}()
	defer func() {
		press.Close()
		cancel()
		if err := <-result; err != nil {
			t.Errorf("Run: %v\n%s", err, out)
		}
		assertNoChildren(t)
	}()
	url := <-urls
	n := opts.Replicas

	waitFrame(t, url, "both clusters and the first step", func(f Frame) bool {
		return f.Phase == PhaseReady && f.Step == 1 && len(f.Sides) == 2 && f.Sides[0].Ready && f.Sides[1].Ready
	})
	fmt.Fprintln(press)
	waitFrame(t, url, "every pod running on both sides", func(f Frame) bool {
		return f.Step == 2 && len(f.Sides) == 2 && f.Sides[0].Running == n && f.Sides[1].Running == n
	})

	// The page stops listening after six frames (?frames=6), so that
	// Chromium sees every request end and takes its picture. What the page
	// shows without JavaScript is checked on its HTML, in page_test.go:
	// Chromium's headless screenshots need scripts on.
	file := filepath.Join(shots, "demo-live.png")
	testutil.Screenshot(t, browser, url+"?frames=6", file, 1280, 720, 4000)
	f, err := os.Open(file)
	if err != nil {
		t.Fatalf("no screenshot: %v", err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatalf("the screenshot is not a PNG: %v", err)
	}
	left, right := runningPixels(img)
	t.Logf("%s: %dx%d, running-pod pixels: %d left, %d right", file, img.Bounds().Dx(), img.Bounds().Dy(), left, right)
	// The legend's square alone is about 200 pixels; twenty running pods
	// are thousands.
	if left < 2000 || right < 2000 {
		t.Errorf("running pods are not on both sides of the page: %d pixels left, %d right", left, right)
	}

	// Step 2, then the results; then Enter ends the demo.
	fmt.Fprintln(press)
	waitFrame(t, url, "the results", func(f Frame) bool { return f.Phase == PhaseDone && len(f.Results) > 0 })
	fmt.Fprintln(press)
}

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
	files, _ := filepath.Glob(filepath.Join(talkDir, "*.json"))
	if len(files) == 0 {
		t.Fatalf("no recordings in %s", talkDir)
	}
	created := regexp.MustCompile(`data-f="cr">([^<]*)<`)
	for _, file := range files {
		name := strings.TrimSuffix(filepath.Base(file), ".json")
		t.Run(name, func(t *testing.T) {
			rec, err := ReadRecording(file)
			if err != nil {
				t.Fatal(err)
			}
			page, err := filepath.Abs(HTMLFile(file))
			if err != nil {
				t.Fatal(err)
			}
			url := "file://" + page
			last := rec.Frames[len(rec.Frames)-1]
			played := rec.Frames[len(rec.Frames)-1].T - rec.Frames[0].T

			// Virtual time runs as fast as the page lets it: the whole
			// recording, at eight times its pace, plus a margin.
			dom := testutil.DumpDOM(t, browser, url+"?auto=1&speed=8", int(played*1000/8)+20000)
			wantStep := fmt.Sprintf(`id="step">Step %d of %d:`, last.Steps, last.Steps)
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
				if want := thousands(last.Sides[i].Created); got[i][1] != want {
					t.Errorf("%s side shows %s pods created; the recording ends with %s", rec.Talk.Designs[i].Heading, got[i][1], want)
				}
			}
			t.Logf("%s ends on step %d of %d with %s and %s pods created", name, last.Steps, last.Steps, got[0][1], got[1][1])
			if name == "two-managers" && (got[0][1] != "40" || got[1][1] != "20") {
				t.Errorf("two-managers shows %s pods created by 2014 and %s by today, want 40 and 20", got[0][1], got[1][1])
			}
			if name != "two-managers" {
				return
			}
			file := filepath.Join(shots, "replay-two-managers.png")
			testutil.Screenshot(t, browser, url+"?auto=1", file, 1280, 720, 12000)
			left, right := runningPixelsOf(t, file)
			t.Logf("%s: running-pod pixels: %d left, %d right", file, left, right)
			if left < 2000 || right < 2000 {
				t.Errorf("running pods are not on both sides of the replay: %d pixels left, %d right", left, right)
			}
		})
	}
}

// runningPixelsOf reads a screenshot and counts runningPixels in it.
func runningPixelsOf(t *testing.T, file string) (left, right int) {
	t.Helper()
	f, err := os.Open(file)
	if err != nil {
		t.Fatalf("no screenshot: %v", err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatalf("the screenshot is not a PNG: %v", err)
	}
	return runningPixels(img)
}
