//go:build unix

package pagetest

import (
	"context"
	"image"
	"image/png"
	"net/url"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/kube-rewind/kube-rewind/pkg/lab/chromium"
	"github.com/kube-rewind/kube-rewind/pkg/lab/testutil"
)

// Browser starts a headless Chromium for the test, closed when it ends.
// The tests that lay the talk's pages out run in make test wherever
// Chromium is installed, in the default build only (either build makes the
// same pages), and skip in one line where it is not; KUBE_REWIND_CHROMIUM=1,
// as .ci/run sets, makes its absence a failure.
func Browser(t *testing.T) *chromium.Browser {
	t.Helper()
	bin, err := chromium.Find()
	if err != nil {
		if testutil.ChromiumWanted() {
			t.Fatalf("KUBE_REWIND_CHROMIUM=1 but %v", err)
		}
		t.Skip("no Chromium on this machine: " + err.Error())
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	b, err := chromium.Start(ctx, bin)
	if err != nil {
		cancel()
		t.Fatal(err)
	}
	t.Cleanup(func() {
		b.Close()
		cancel()
	})
	return b
}

// Tab opens a tab of width×height on url.
func Tab(t *testing.T, b *chromium.Browser, url string, width, height int) *chromium.Tab {
	t.Helper()
	tb, err := b.NewTab(width, height)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(tb.Close)
	if err := tb.Open(url); err != nil {
		t.Fatal(err)
	}
	return tb
}

// Eval evaluates js in tb into a value of type T, failing the test on an
// error.
func Eval[T any](t *testing.T, tb *chromium.Tab, js string) T {
	t.Helper()
	var v T
	if err := tb.Eval(js, &v); err != nil {
		t.Fatalf("%s: %v", js, err)
	}
	return v
}

// LayoutCheck is what the page measures of the slide on screen
// (kubeRewind.check).
type LayoutCheck struct {
	// Part and Name say which picture (checkAll).
	Part      string   `json:"part"`
	Name      string   `json:"name"`
	Problems  []string `json:"problems"`
	MinText   float64  `json:"minText"`
	MinTextAt string   `json:"minTextAt"`
	Height    float64  `json:"height"`
}

// FileURL is the file:// address of a file on disk.
func FileURL(t *testing.T, file string) string {
	t.Helper()
	abs, err := filepath.Abs(file)
	if err != nil {
		t.Fatal(err)
	}
	return (&url.URL{Scheme: "file", Path: abs}).String()
}

// RunningPixels counts, in the left and the right half of img, the pixels
// of the colour of a running pod.
func RunningPixels(img image.Image) (left, right int) {
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

// RunningPixelsOf reads a screenshot and counts RunningPixels in it.
func RunningPixelsOf(t *testing.T, file string) (left, right int) {
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
	return RunningPixels(img)
}
