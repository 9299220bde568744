//go:build unix

package testutil

import (
	"context"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/kube-rewind/kube-rewind/pkg/lab/chromium"
)

// ChromiumWanted reports whether the tests that need a browser should run:
// KUBE_REWIND_CHROMIUM=1, as .ci/run sets after installing Debian's
// chromium package.
func ChromiumWanted() bool { return os.Getenv("KUBE_REWIND_CHROMIUM") == "1" }

// Chromium finds the browser (chromium.Find). It fails the test when
// there is none.
func Chromium(t testing.TB) string {
	t.Helper()
	bin, err := chromium.Find()
	if err != nil {
		t.Fatalf("KUBE_REWIND_CHROMIUM=1 but %v", err)
	}
	return bin
}

// chromiumLimit is how long one Chromium run may take once it has the
// browser to itself (lockChromium). A deck played at the deck tests'
// ?speed=16 on a loaded make test, beside others, took well over the
// 2 min limit it once had, and two runs killed at that limit failed the
// test.
const chromiumLimit = 8 * time.Minute

// lockChromium makes the tests' Chromium runs take turns across every
// test process of the machine (make test runs both builds' packages and
// more at once, each with its own browsers), so that none is starved by
// the others into its limit. It returns the unlock.
func lockChromium(t testing.TB) func() {
	t.Helper()
	f, err := os.OpenFile(filepath.Join(os.TempDir(), "kube-rewind-chromium.lock"), os.O_CREATE|os.O_RDWR, 0o666)
	if err != nil {
		t.Fatalf("the Chromium lock: %v", err)
	}
	began := time.Now()
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX); err != nil {
		f.Close()
		t.Fatalf("the Chromium lock: %v", err)
	}
	if waited := time.Since(began); waited > time.Second {
		t.Logf("waited %v for another test's Chromium", waited.Round(time.Second))
	}
	return func() {
		syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
		f.Close()
	}
}

// Screenshot has headless Chromium render url in a window of width×height
// into the PNG file out. A budget above zero lets the page's own clock
// (timers, streams) run that many milliseconds first.
func Screenshot(t testing.TB, bin, url, out string, width, height, budget int) {
	t.Helper()
	defer lockChromium(t)()
	ctx, cancel := context.WithTimeout(context.Background(), chromiumLimit)
	defer cancel()
	if err := chromium.Screenshot(ctx, bin, url, out, chromium.Page{Width: width, Height: height, Budget: budget}); err != nil {
		t.Fatal(err)
	}
}

// ScreenshotDir is where a test keeps its screenshots:
// $KUBE_REWIND_SCREENSHOTS when set, to look at them afterwards, or else a
// temporary directory.
func ScreenshotDir(t testing.TB) string {
	t.Helper()
	dir := os.Getenv("KUBE_REWIND_SCREENSHOTS")
	if dir == "" {
		return t.TempDir()
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	return dir
}

// DumpDOM has headless Chromium load url, let the page's clock run budget
// milliseconds, and returns the document as the page's scripts left it.
func DumpDOM(t testing.TB, bin, url string, budget int) string {
	t.Helper()
	return DumpDOMAt(t, bin, url, 0, 0, budget)
}

// DumpDOMAt is DumpDOM in a window of width×height, for a page whose
// scripts measure their layout.
func DumpDOMAt(t testing.TB, bin, url string, width, height, budget int) string {
	t.Helper()
	defer lockChromium(t)()
	ctx, cancel := context.WithTimeout(context.Background(), chromiumLimit)
	defer cancel()
	dom, err := chromium.DumpDOM(ctx, bin, url, chromium.Page{Width: width, Height: height, Budget: budget})
	if err != nil {
		t.Fatal(err)
	}
	return dom
}
