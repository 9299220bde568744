//go:build unix

package annotate

// A look at the pages as a person would see them: headless Chromium
// renders them to PNG and the test checks the pictures are not blank.
// It runs only when asked (KUBE_REWIND_CHROMIUM=1, as .ci/run does), since
// it needs Debian's chromium package.

import (
	"errors"
	"fmt"
	"image"
	"image/png"
	"os"
	"path/filepath"
	"testing"

	"github.com/kube-rewind/kube-rewind/pkg/lab/testutil"
)

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
	if !testutil.ChromiumWanted() {
		t.Skip("set KUBE_REWIND_CHROMIUM=1 to render pages in headless Chromium")
	}
	bin := testutil.Chromium(t)
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
	shots := testutil.ScreenshotDir(t)
	for _, tc := range []struct {
		page          string
		width, height int
	}{
		{"index.html", 1280, 900},
		{WalkPage, 1400, 900},
		{"side-by-side-replication-manager.html", 1400, 900},
		{"side-by-side-endpoints.html", 1280, 900},
		{PageName("pkg/controller/replication_controller.go"), 1400, 900},
		{WalkPage, 390, 844},
		{"index.html", 390, 844},
		{"side-by-side-replication-manager.html", 390, 844},
		{PageName("pkg/controller/replication_controller.go"), 1280, 720},
		{PageName("pkg/controller/replication_controller.go"), 390, 844},
		{HistoryPage, 1400, 900},
		{HistoryPage, 390, 844},
		{PageName(MarkdownRoot), 1280, 720},
	} {
		size := fmt.Sprintf("%dx%d", tc.width, tc.height)
		t.Run(tc.page+"@"+size, func(t *testing.T) {
			page := filepath.Join(dir, tc.page)
			if _, err := os.Stat(page); errors.Is(err, os.ErrNotExist) {
				t.Fatalf("%s was not generated", page)
			}
			out := filepath.Join(shots, tc.page+"@"+size+".png")
			testutil.Screenshot(t, bin, "file://"+page, out, tc.width, tc.height, 0)
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
