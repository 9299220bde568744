//go:build unix

package site

// A look at the pages as a person would see them: headless Chromium
// renders them to PNG and the test checks the pictures are not blank.
// It runs only when asked (KUBE_REWIND_CHROMIUM=1, as .ci/run does), since
// it needs Debian's chromium package.

import (
	"encoding/json"
	"errors"
	"fmt"
	"html"
	"image"
	"image/png"
	"io"
	"maps"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/kube-rewind/kube-rewind/pkg/lab/annotate"
	"github.com/kube-rewind/kube-rewind/pkg/lab/annotate/pages"
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
	dir := docsDir(t)
	shots := testutil.ScreenshotDir(t)
	for _, tc := range []struct {
		page          string
		width, height int
	}{
		{"index.html", 1280, 900},
		{pages.WalkPage, 1400, 900},
		{"side-by-side-replication-manager.html", 1400, 900},
		{"side-by-side-endpoints.html", 1280, 900},
		{annotate.PageName("pkg/controller/replication_controller.go"), 1400, 900},
		{pages.WalkPage, 390, 844},
		{"index.html", 390, 844},
		{"side-by-side-replication-manager.html", 390, 844},
		{annotate.PageName("pkg/controller/replication_controller.go"), 1280, 720},
		{annotate.PageName("pkg/controller/replication_controller.go"), 390, 844},
		{annotate.HistoryPage, 1400, 900},
		{annotate.HistoryPage, 390, 844},
		{annotate.PageName(MarkdownRoot), 1280, 720},
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

// docsDir is the site the browser tests look at: $KUBE_REWIND_DOCS, as
// make docs wrote it, or else one built for the test.
func docsDir(t *testing.T) string {
	t.Helper()
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
	return dir
}

// layoutProbe is a page that opens each page of the site in turn in a
// frame of the given width, as a browser window of that width would show
// it (the narrow-screen rules apply below 820 px), and records two things:
//   - how far past the frame's right edge anything reaches that does not
//     sit in a column that scrolls itself (code, the diagram, a wide
//     table), and what it is: such a page scrolls sideways;
//   - every column that scrolls itself and whose content is wider than it
//     is: part of it is hidden until the reader scrolls it. For a table
//     of a Markdown page it also records whether the table could fit at
//     all: the width of its narrowest layout, every cell wrapped, against
//     the width it may take.
//
// It writes what it found, as JSON, into its own document.
const layoutProbe = `<!DOCTYPE html><html><head><meta charset="utf-8"></head><body>
<iframe id="f" style="border:0;display:block" width="%[1]d" height="%[2]d"></iframe>
<pre id="out"></pre>
<script>
const pages = %[3]s, W = %[1]d;
const f = document.getElementById("f");
const describe = e => {
  const cls = (e.getAttribute("class") || "").trim();
  const text = (e.textContent || "").replace(/\s+/g, " ").trim().slice(0, 80);
  return e.tagName.toLowerCase() + (cls ? "." + cls.split(/\s+/).join(".") : "") + " «" + text + "»";
};
function measure(doc) {
  const win = doc.defaultView;
  const clips = e => /auto|scroll|hidden/.test(win.getComputedStyle(e).overflowX);
  const res = {over: 0, what: "", clipped: []};
  const visit = e => {
    const clipping = clips(e);
    const r = e.getBoundingClientRect();
    const right = e.clientWidth > 0 && !clipping ? r.left + Math.max(r.width, e.scrollWidth) : r.right;
    const over = Math.ceil(right) - W;
    // The deepest element that reaches furthest is the one to name.
    if (over > 0 && over >= res.over) { res.over = over; res.what = describe(e); }
    if (clipping) {
      if (e.scrollWidth > e.clientWidth + 1) {
        const c = {by: e.scrollWidth - e.clientWidth, what: describe(e), narrowest: 0, room: e.clientWidth};
        if (e.tagName == "TABLE" && e.closest(".md")) {
          const width = e.style.width;
          e.style.width = "min-content";
          c.narrowest = e.scrollWidth;
          e.style.width = width;
        }
        res.clipped.push(c);
      }
      return;
    }
    for (const c of e.children) visit(c);
  };
  for (const c of doc.body.children) visit(c);
  res.over = Math.max(res.over, doc.documentElement.scrollWidth - W);
  return res;
}
const results = {};
let i = 0;
f.onload = () => {
  try { results[pages[i]] = measure(f.contentDocument); }
  catch (err) { results[pages[i]] = {error: String(err)}; }
  i++;
  if (i < pages.length) { f.src = pages[i]; return; }
  document.getElementById("out").textContent = JSON.stringify(results);
  document.body.setAttribute("data-done", "1");
};
f.src = pages[0];
</script></body></html>`

// pageLayout is what layoutProbe found on one page.
type pageLayout struct {
	Over    int    `json:"over"`
	What    string `json:"what"`
	Clipped []struct {
		By   int    `json:"by"`
		What string `json:"what"`
		// Narrowest is, for a Markdown page's table, the width of its
		// narrowest layout; Room the width it may take.
		Narrowest int `json:"narrowest"`
		Room      int `json:"room"`
	} `json:"clipped"`
	Error string `json:"error"`
}

// layoutOfEveryPage serves dir on loopback, so that the probe may read
// the pages it frames, and lays every HTML page of it out width px wide.
func layoutOfEveryPage(t *testing.T, bin, dir string, width, height int) map[string]pageLayout {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		if strings.HasSuffix(e.Name(), ".html") && !strings.HasPrefix(e.Name(), "probe-") {
			names = append(names, e.Name())
		}
	}
	if len(names) < 20 {
		t.Fatalf("only %d pages in %s", len(names), dir)
	}
	list, err := json.Marshal(names)
	if err != nil {
		t.Fatal(err)
	}
	probe := fmt.Sprintf(layoutProbe, width, height, list)
	mux := http.NewServeMux()
	mux.HandleFunc("/probe-layout.html", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		io.WriteString(w, probe)
	})
	mux.Handle("/", http.FileServer(http.Dir(dir)))
	srv := httptest.NewServer(mux)
	defer srv.Close()
	// Loading a page costs virtual time only while the page's own timers
	// run, and the pages have none; the budget is what lets the probe
	// finish.
	dom := testutil.DumpDOMAt(t, bin, srv.URL+"/probe-layout.html", 1400, 900, 600000)
	if !strings.Contains(dom, `data-done="1"`) {
		t.Fatalf("the probe did not finish: %.300s", dom)
	}
	_, out, _ := strings.Cut(dom, `<pre id="out">`)
	out, _, _ = strings.Cut(out, "</pre>")
	var res map[string]pageLayout
	if err := json.Unmarshal([]byte(html.UnescapeString(out)), &res); err != nil {
		t.Fatalf("the probe's answer does not decode: %v", err)
	}
	for _, n := range names {
		if _, ok := res[n]; !ok {
			t.Errorf("%s was not laid out", n)
		}
	}
	return res
}

// TestNoPageScrollsSidewaysOnAPhone lays every page of the site out
// 390 px wide: nothing but a column that scrolls itself (code, the
// diagram, a wide table) may reach past that, since names never break
// inside a word.
func TestNoPageScrollsSidewaysOnAPhone(t *testing.T) {
	if !testutil.ChromiumWanted() {
		t.Skip("set KUBE_REWIND_CHROMIUM=1 to render pages in headless Chromium")
	}
	bin := testutil.Chromium(t)
	const width = 390
	res := layoutOfEveryPage(t, bin, docsDir(t), width, 844)
	for _, page := range slices.Sorted(maps.Keys(res)) {
		l := res[page]
		switch {
		case l.Error != "":
			t.Errorf("%s: %s", page, l.Error)
		case l.Over > 0:
			t.Errorf("on a %d px screen, %s reaches %d px past its right edge, pushed by %s", width, page, l.Over, l.What)
		}
	}
	t.Logf("%d pages laid out %d px wide", len(res), width)
}

// TestNothingIsClippedOnALaptop lays every page of the site out 1280 px
// wide, a laptop's screen: no page may scroll sideways, and no column
// that scrolls itself (code, preformatted text, a table) may hide part of
// its content, so a reader never has to scroll to see the end of a line.
// One thing may: a table of a Markdown page (a benchmark's report) whose
// narrowest layout, every cell wrapped, is wider than the room it may
// take, up to the window's right margin. No rendering could fit it
// without breaking its words; it scrolls in its own box, and the test
// says which it is.
func TestNothingIsClippedOnALaptop(t *testing.T) {
	if !testutil.ChromiumWanted() {
		t.Skip("set KUBE_REWIND_CHROMIUM=1 to render pages in headless Chromium")
	}
	bin := testutil.Chromium(t)
	const width = 1280
	res := layoutOfEveryPage(t, bin, docsDir(t), width, 800)
	for _, page := range slices.Sorted(maps.Keys(res)) {
		l := res[page]
		if l.Error != "" {
			t.Errorf("%s: %s", page, l.Error)
			continue
		}
		if l.Over > 0 {
			t.Errorf("at %d px, %s reaches %d px past its right edge, pushed by %s", width, page, l.Over, l.What)
		}
		for _, c := range l.Clipped {
			if c.Narrowest > c.Room {
				t.Logf("at %d px, %s scrolls a table %d px wide at its narrowest in %d px: %s", width, page, c.Narrowest, c.Room, c.What)
				continue
			}
			t.Errorf("at %d px, %s hides %d px of %s", width, page, c.By, c.What)
		}
	}
	t.Logf("%d pages laid out %d px wide", len(res), width)
}
