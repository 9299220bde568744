//go:build unix

package chromium

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"time"
)

// Find returns the browser: $KUBE_REWIND_CHROMIUM_BIN, or chromium or
// chromium-browser on PATH.
func Find() (string, error) {
	if bin := os.Getenv("KUBE_REWIND_CHROMIUM_BIN"); bin != "" {
		return bin, nil
	}
	for _, name := range []string{"chromium", "chromium-browser"} {
		if p, err := exec.LookPath(name); err == nil {
			return p, nil
		}
	}
	return "", errors.New("no chromium on PATH (apt-get install chromium, or set KUBE_REWIND_CHROMIUM_BIN)")
}

// Page says how to load a page: the window's size, and how many
// milliseconds of the page's own clock (timers, streams) to let run first.
type Page struct {
	Width, Height int
	Budget        int
}

// args are the flags of a headless run, with a fresh profile in dir.
func (p Page) args(dir string) []string {
	args := []string{
		"--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
		"--no-first-run", "--disable-background-networking",
		"--disable-component-update", "--disable-sync", "--hide-scrollbars",
		"--user-data-dir=" + dir,
	}
	if p.Width > 0 && p.Height > 0 {
		args = append(args, fmt.Sprintf("--window-size=%d,%d", p.Width, p.Height))
	}
	if p.Budget > 0 {
		args = append(args, fmt.Sprintf("--virtual-time-budget=%d", p.Budget))
	}
	return args
}

// Screenshot renders url into the PNG file out.
func Screenshot(ctx context.Context, bin, url, out string, p Page) error {
	_, err := run(ctx, bin, p, "--screenshot="+out, url)
	return err
}

// DumpDOM loads url and returns the document as its scripts left it.
func DumpDOM(ctx context.Context, bin, url string, p Page) (string, error) {
	return run(ctx, bin, p, "--dump-dom", url)
}

// run starts the browser with a profile of its own, removed afterwards,
// and returns what it wrote on standard output. Chromium starts helper
// processes: a cancelled context ends the whole group.
func run(ctx context.Context, bin string, p Page, last ...string) (string, error) {
	dir, err := os.MkdirTemp("", "kube-rewind-chromium-")
	if err != nil {
		return "", err
	}
	defer os.RemoveAll(dir)
	cmd := exec.CommandContext(ctx, bin, append(p.args(dir), last...)...)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	cmd.WaitDelay = 10 * time.Second
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return "", fmt.Errorf("chromium %s: %v\n%s", last[len(last)-1], err, stderr.String())
	}
	return string(out), nil
}
