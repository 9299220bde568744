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
	"regexp"
	"strings"
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

// TestNoPageScrollsSidewaysOnAPhone lays pages out 390 px wide: nothing
// but a column that scrolls itself (code, the diagram, a wide table) may
// reach past that, since names never break inside a word. A copy of each
// page carries a script that records how far any element, or the text
// inside one, reaches.
// Chromium's window is at least 500 px wide, so the copy sets the page's
// own width to 390 px; the narrow-screen rules apply at either width.
func TestNoPageScrollsSidewaysOnAPhone(t *testing.T) {
	if !testutil.ChromiumWanted() {
		t.Skip("set KUBE_REWIND_CHROMIUM=1 to render pages in headless Chromium")
	}
	bin := testutil.Chromium(t)
	dir := t.TempDir()
	if _, err := Build(repoRoot, dir); err != nil {
		t.Fatalf("Build: %v", err)
	}
	const width = 390
	probe := fmt.Sprintf(`<style>html { width: %dpx; }</style><script>
let over = 0;
const clips = e => /auto|scroll|hidden/.test(getComputedStyle(e).overflowX);
const scrolls = e => { for (let a = e.parentElement; a; a = a.parentElement) { if (clips(a)) return true; } return false; };
for (const e of document.querySelectorAll("body *")) {
  if (scrolls(e)) continue;
  const r = e.getBoundingClientRect();
  const right = e.clientWidth > 0 && !clips(e) ? r.left + Math.max(r.width, e.scrollWidth) : r.right;
  over = Math.max(over, Math.ceil(right) - %d);
}
document.body.setAttribute("data-overflow", over);
</script></body>`, width, width)
	overflow := regexp.MustCompile(`data-overflow="(-?\d+)"`)
	for _, page := range []string{
		"index.html", WalkPage, HistoryPage, PageName(MarkdownRoot),
		"side-by-side-replication-manager.html", "side-by-side-endpoints.html",
		PageName("pkg/controller/replication_controller.go"),
		PageName("pkg/controller/replication_controller_modern.go"),
		PageName("pkg/service/endpoints_controller_modern.go"),
	} {
		t.Run(page, func(t *testing.T) {
			data, err := os.ReadFile(filepath.Join(dir, page))
			if err != nil {
				t.Fatal(err)
			}
			copyName := filepath.Join(dir, "probe-"+page)
			if err := os.WriteFile(copyName, []byte(strings.Replace(string(data), "</body>", probe, 1)), 0o644); err != nil {
				t.Fatal(err)
			}
			dom := testutil.DumpDOMAt(t, bin, "file://"+copyName, 500, 844, 2000)
			m := overflow.FindStringSubmatch(dom)
			if m == nil {
				t.Fatalf("the probe did not run")
			}
			if m[1] != "0" && !strings.HasPrefix(m[1], "-") {
				t.Errorf("on a %d px screen, %s reaches %s px past its right edge", width, page, m[1])
			}
		})
	}
}
