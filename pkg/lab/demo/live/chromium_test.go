//go:build unix

package live

// The live page as an audience sees it: a demo runs, headless Chromium
// takes a screenshot of the page, and the test looks for the colour of
// running pods in both halves. It runs only when asked
// (KUBE_REWIND_CHROMIUM=1, as .ci/run does), since it needs Debian's
// chromium package.

import (
	"context"
	"errors"
	"fmt"
	"image/png"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/kube-rewind/kube-rewind/pkg/lab/demo"
	"github.com/kube-rewind/kube-rewind/pkg/lab/demo/pagetest"
	"github.com/kube-rewind/kube-rewind/pkg/lab/testutil"
)

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
	ended := false
	defer func() {
		press.Close()
		if !ended {
			// The test failed on the way: stop the demo where it is.
			cancel()
		}
		if err := <-result; err != nil && (ended || !errors.Is(err, context.Canceled)) {
			t.Errorf("Run: %v\n%s", err, out)
		}
		assertNoChildren(t)
	}()
	url := <-urls
	n := opts.Replicas

	waitFrame(t, url, "both clusters and the first step", func(f demo.Frame) bool {
		return f.Phase == demo.PhaseReady && f.Step == 1 && len(f.Sides) == 2 && f.Sides[0].Ready && f.Sides[1].Ready
	})
	// Creating the controller is over at once, and the demo goes on to
	// wait for the pods without a pause: one Enter plays both steps.
	fmt.Fprintln(press)
	waitFrame(t, url, "every pod running on both sides", func(f demo.Frame) bool {
		return f.Step == 2 && len(f.Sides) == 2 && f.Sides[0].Running == n && f.Sides[1].Running == n
	})

	// The page stops listening after six frames (?frames=6), so that
	// Chromium sees every request end and takes its picture; the results
	// may be in by then, and ?results=0 leaves the pods in view. What the
	// page shows without JavaScript is checked on its HTML, in
	// page_test.go: Chromium's headless screenshots need scripts on.
	file := filepath.Join(shots, "demo-live.png")
	testutil.Screenshot(t, browser, url+"?frames=6&results=0", file, 1280, 720, 4000)
	f, err := os.Open(file)
	if err != nil {
		t.Fatalf("no screenshot: %v", err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatalf("the screenshot is not a PNG: %v", err)
	}
	left, right := pagetest.RunningPixels(img)
	t.Logf("%s: %dx%d, running-pod pixels: %d left, %d right", file, img.Bounds().Dx(), img.Bounds().Dy(), left, right)
	// The legend's square alone is about 200 pixels; twenty running pods
	// are thousands.
	if left < 2000 || right < 2000 {
		t.Errorf("running pods are not on both sides of the page: %d pixels left, %d right", left, right)
	}

	// The results; then Enter ends the demo. A press made before the demo
	// asks for it is dropped (waitEnter), so the test waits for the prompt,
	// and then for the demo to stop both clusters by itself.
	waitFrame(t, url, "the results", func(f demo.Frame) bool { return f.Phase == demo.PhaseDone && len(f.Results) > 0 })
	waitOutput(t, out, "[Enter] stops both clusters")
	fmt.Fprintln(press)
	ended = true
}

// waitOutput waits for the demo's console to print want.
func waitOutput(t *testing.T, out *testutil.Buffer, want string) {
	t.Helper()
	for deadline := time.Now().Add(2 * time.Minute); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		if strings.Contains(out.String(), want) {
			return
		}
	}
	t.Fatalf("the demo never printed %q:\n%s", want, out)
}
