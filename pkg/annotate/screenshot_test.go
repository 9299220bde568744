//go:build unix

package annotate

// A look at the pages as a person would see them: headless Chromium
// renders them to PNG and the test checks the pictures are not blank.
// It runs only when asked (KUBE_REWIND_CHROMIUM=1, as .ci/run does), since
// it needs Debian's chromium package.

import (
	"context"
	"errors"
	"image"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// chromium finds the browser: $KUBE_REWIND_CHROMIUM_BIN, chromium or
// chromium-browser.
func chromium(t *testing.T) string {
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

// screenshot renders page at the given window size into a PNG file.
func screenshot(t *testing.T, bin, page, out, size string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin,
		"--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
		"--no-first-run", "--disable-background-networking",
		"--disable-component-update", "--disable-sync", "--hide-scrollbars",
		"--user-data-dir="+t.TempDir(),
		"--screenshot="+out,
		"--window-size="+size,
		"file://"+page,
	)
	// Chromium starts helper processes; a timeout ends the whole group.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	cmd.WaitDelay = 10 * time.Second
	if output, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("chromium %s: %v\n%s", filepath.Base(page), err, output)
	}
}

// colours reports how many distinct colours img has (at 5 bits per
// channel) and what fraction of its pixels are not near-white.
func colours(img image.Image) (distinct int, inked float64) {
	seen := map[uint32]bool{}
	b := img.Bounds()
	var dark int
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			r, g, bl, _ := img.At(x, y).RGBA()
			seen[(r>>11)<<10|(g>>11)<<5|bl>>11] = true
			if r < 0xf000 || g < 0xf000 || bl < 0xf000 {
				dark++
			}
		}
	}
	return len(seen), float64(dark) / float64(b.Dx()*b.Dy())
}

func TestScreenshotsOfThePagesAreNotBlank(t *testing.T) {
	if os.Getenv("KUBE_REWIND_CHROMIUM") != "1" {
		t.Skip("set KUBE_REWIND_CHROMIUM=1 to render pages in headless Chromium")
	}
	bin := chromium(t)
	dir := os.Getenv("KUBE_REWIND_DOCS")
	if dir == "" {
		dir = t.TempDir()
		if _, err := Build(repoRoot, dir); err != nil {
			t.Fatalf("Build: %v", err)
		}
	}
	dir, err := filepath.Abs(dir)
	if err != nil {
		t.Fatal(err)
	}
	shots := os.Getenv("KUBE_REWIND_SCREENSHOTS")
	if shots == "" {
		shots = t.TempDir()
	} else if err := os.MkdirAll(shots, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		page, size string
	}{
		{"index.html", "1280,900"},
		{"side-by-side-replication-manager.html", "1280,900"},
		{"side-by-side-endpoints.html", "1280,900"},
		{PageName("pkg/controller/replication_controller.go"), "1280,900"},
		{"index.html", "390,844"},
		{"side-by-side-replication-manager.html", "390,844"},
	} {
		t.Run(tc.page+"@"+tc.size, func(t *testing.T) {
			page := filepath.Join(dir, tc.page)
			if _, err := os.Stat(page); errors.Is(err, os.ErrNotExist) {
				t.Fatalf("%s was not generated", page)
			}
			out := filepath.Join(shots, tc.page+"@"+tc.size+".png")
			screenshot(t, bin, page, out, tc.size)
			f, err := os.Open(out)
			if err != nil {
				t.Fatalf("no screenshot: %v", err)
			}
			defer f.Close()
			img, err := png.Decode(f)
			if err != nil {
				t.Fatalf("screenshot is not a PNG: %v", err)
			}
			distinct, inked := colours(img)
			t.Logf("%s: %dx%d, %d colours, %.1f%% inked", out, img.Bounds().Dx(), img.Bounds().Dy(), distinct, 100*inked)
			if distinct < 40 {
				t.Errorf("only %d distinct colours: the page looks blank or unstyled", distinct)
			}
			if inked < 0.04 {
				t.Errorf("only %.1f%% of the pixels are not white: the page looks blank", 100*inked)
			}
		})
	}
}
