//go:build unix

package testutil

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"
)

// ChromiumWanted reports whether the tests that need a browser should run:
// KUBE_REWIND_CHROMIUM=1, as .ci/run sets after installing Debian's
// chromium package.
func ChromiumWanted() bool { return os.Getenv("KUBE_REWIND_CHROMIUM") == "1" }

// Chromium finds the browser: $KUBE_REWIND_CHROMIUM_BIN, chromium or
// chromium-browser. It fails the test when there is none.
func Chromium(t testing.TB) string {
	t.Helper()
	if bin := os.Getenv("KUBE_REWIND_CHROMIUM_BIN"); bin != "" {
		return bin
	}
	for _, name := range []string{"chromium", "chromium-browser"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	t.Fatal("KUBE_REWIND_CHROMIUM=1 but no chromium on PATH (apt-get install chromium)")
	return ""
}

// Screenshot has headless Chromium render url in a window of width×height
// into the PNG file out. A budget above zero lets the page's own clock
// (timers, streams) run that many milliseconds first.
func Screenshot(t testing.TB, bin, url, out string, width, height, budget int) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	args := []string{
		"--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
		"--no-first-run", "--disable-background-networking",
		"--disable-component-update", "--disable-sync", "--hide-scrollbars",
		"--user-data-dir=" + t.TempDir(),
		"--screenshot=" + out,
		fmt.Sprintf("--window-size=%d,%d", width, height),
	}
	if budget > 0 {
		args = append(args, fmt.Sprintf("--virtual-time-budget=%d", budget))
	}
	cmd := exec.CommandContext(ctx, bin, append(args, url)...)
	// Chromium starts helper processes; a timeout ends the whole group.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	cmd.WaitDelay = 10 * time.Second
	if output, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("chromium %s: %v\n%s", url, err, output)
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

// DumpDOMAt is DumpDOM in a window of width×height (Chromium's default
// when either is zero).
func DumpDOMAt(t testing.TB, bin, url string, width, height, budget int) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	args := []string{
		"--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
		"--no-first-run", "--disable-background-networking",
		"--disable-component-update", "--disable-sync",
		"--user-data-dir=" + t.TempDir(),
		fmt.Sprintf("--virtual-time-budget=%d", budget),
	}
	if width > 0 && height > 0 {
		args = append(args, fmt.Sprintf("--window-size=%d,%d", width, height))
	}
	args = append(args, "--dump-dom", url)
	cmd := exec.CommandContext(ctx, bin, args...)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	cmd.WaitDelay = 10 * time.Second
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("chromium --dump-dom %s: %v\n%s", url, err, stderr.String())
	}
	return string(out)
}
