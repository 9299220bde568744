package publish

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/kube-rewind/kube-rewind/pkg/lab/demo"
	"github.com/kube-rewind/kube-rewind/pkg/lab/published"
)

func init() { published.MoreSheets["talk"] = talkSheet }

// talkSheet gives the talk's recordings as one sheet that prose cites
// ("talk > scale-up | peak goroutines | 2014"): under a heading per
// recording, a table of its results, each row a figure (the results
// table's label, its unit in brackets as a headline row has it), the
// 2014 side and today's, and a row "plays for (s)" with the seconds the
// recording plays.
func talkSheet(root string) (*published.Sheet, error) {
	files, err := filepath.Glob(filepath.Join(root, "examples/talk/*.html"))
	if err != nil {
		return nil, err
	}
	var b strings.Builder
	for _, f := range files {
		if strings.HasPrefix(filepath.Base(f), "20-minutes") {
			continue
		}
		rec, err := demo.ReadRecording(f)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", f, err)
		}
		fmt.Fprintf(&b, "## %s\n\n| figure | 2014 | today |\n|---|---|---|\n", strings.TrimSuffix(filepath.Base(f), ".html"))
		fmt.Fprintf(&b, "| plays for (s) | %.0f | %.0f |\n", rec.PlayedSeconds(), rec.PlayedSeconds())
		for _, r := range rec.Results {
			left := r.Legacy
			if r.Missing != "" {
				left = r.Missing
			}
			fmt.Fprintf(&b, "| %s (%s) | %s | %s |\n", cellText(r.Label()), cellText(r.Unit), cellText(left), cellText(r.Modern))
		}
		b.WriteString("\n")
	}
	return published.ParseSheet("talk", "examples/talk/*.html", b.String()), nil
}

func cellText(s string) string { return strings.ReplaceAll(s, "|", `\|`) }
