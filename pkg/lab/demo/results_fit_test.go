//go:build unix

package demo

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kube-rewind/kube-rewind/pkg/lab/demo/pagetest"
)

// The results tables of the shipped recordings laid out in headless
// Chromium. This package builds the same in both builds, so make test runs
// it once.

// TestEveryResultsTableFitsWithItsUnits lays out each shipped recording,
// at the end of its first step and on its results (each page of them), in
// the windows of a 720p and a 1080p projector, and reads what the page
// measured of itself (kubeRewind.check): nothing cut at its box's edge or
// outside the window, pod grids of one size. Every row shows its unit.
func TestEveryResultsTableFitsWithItsUnits(t *testing.T) {
	b := pagetest.Browser(t)
	for _, size := range [][2]int{{1280, 720}, {1920, 1080}} {
		tb, err := b.NewTab(size[0], size[1])
		if err != nil {
			t.Fatal(err)
		}
		for _, file := range pagetest.ShippedRecordings(t, talkDir) {
			rec, err := ReadRecording(file)
			if err != nil {
				t.Fatal(err)
			}
			name := fmt.Sprintf("%s at %dx%d", strings.TrimSuffix(filepath.Base(file), ".html"), size[0], size[1])
			if err := tb.Open(pagetest.FileURL(t, file) + "#still=1.1"); err != nil {
				t.Fatal(err)
			}
			var stills []Still
			if err := tb.Eval("kubeRewind.stills()", &stills); err != nil {
				t.Fatal(err)
			}
			units := map[int]string{}
			for _, st := range append([]Still{{Part: "1.1"}}, stills...) {
				c := pagetest.Eval[pagetest.LayoutCheck](t, tb, fmt.Sprintf("kubeRewind.still(%q), kubeRewind.check()", st.Part))
				if len(c.Problems) > 0 {
					t.Errorf("%s, #still=%s: %s", name, st.Part, strings.Join(c.Problems, "; "))
				}
				// The rows on screen, and their units.
				var shown [][2]string
				if err := tb.Eval(`Array.prototype.filter.call(document.querySelectorAll("#rows tr"), function (tr) { return tr.getClientRects().length; }).map(function (tr) {
					return [String(tr.rowIndex - 1), tr.querySelector("td.unit").textContent]; })`, &shown); err != nil {
					t.Fatal(err)
				}
				for _, r := range shown {
					var i int
					fmt.Sscan(r[0], &i)
					units[i] = r[1]
				}
			}
			if len(units) != len(rec.Results) {
				t.Errorf("%s: the results show %d rows of %d", name, len(units), len(rec.Results))
			}
			for i, r := range rec.Results {
				if units[i] == "" || units[i] != r.Unit {
					t.Errorf("%s: row %s shows the unit %q, want %q", name, r.Name, units[i], r.Unit)
				}
			}
		}
		tb.Close()
	}
}
