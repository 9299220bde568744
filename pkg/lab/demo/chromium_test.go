//go:build unix

package demo

// The live page as an audience sees it: a demo runs, headless Chromium
// takes a screenshot of the page, and the test looks for the colour of
// running pods in both halves. It runs only when asked
// (KUBE_REWIND_CHROMIUM=1, as .ci/run does), since it needs Debian's
// chromium package.

import (
	"context"
	"encoding/json"
	"fmt"
	"image"
	"image/png"
	"io"
	"net/http"
	"os"
	"path/filepath"
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

func frameAt(url string) (Frame, error) {
	var f Frame
	resp, err := http.Get(url + "state.json")
	if err != nil {
		return f, err
	}
	defer resp.Body.Close()
	return f, json.NewDecoder(resp.Body).Decode(&f)
}

// waitFrame polls the page's state until cond holds.
func waitFrame(t *testing.T, url, what string, cond func(Frame) bool) {
	t.Helper()
	deadline := time.Now().Add(2 * time.Minute)
	var last Frame
	for time.Now().Before(deadline) {
		f, err := frameAt(url)
		if err == nil && cond(f) {
			return
		}
		last = f
		time.Sleep(100 * time.Millisecond)
	}
	t.Fatalf("gave up waiting for %s; last frame: phase %s step %d sides %+v", what, last.Phase, last.Step, last.Sides)
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
