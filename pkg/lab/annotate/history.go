package annotate

import (
	"encoding/json"
	"fmt"
	"html/template"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/kube-rewind/kube-rewind/pkg/history"
)

// HistoryResults is where the last history run (make history) leaves its
// figures, relative to the root the docs are built from.
const HistoryResults = "_output/history/latest/history.json"

// historyRun is the part of a history run's results a page shows.
type historyRun struct {
	Started time.Time `json:"started"`
	Changes []struct {
		Name     string                    `json:"name"`
		Figure   string                    `json:"figure"`
		Unit     string                    `json:"unit"`
		Size     string                    `json:"size"`
		Scen     string                    `json:"scenario"`
		With     *struct{ Median float64 } `json:"with"`
		Without  *struct{ Median float64 } `json:"without"`
		Appeared string                    `json:"appeared"`
	} `json:"changes"`
}

// loadHistoryRun reads the last history run under root; nil when there is
// none or it cannot be read.
func loadHistoryRun(root string) *historyRun {
	data, err := os.ReadFile(filepath.Join(root, HistoryResults))
	if err != nil {
		return nil
	}
	var run historyRun
	if json.Unmarshal(data, &run) != nil {
		return nil
	}
	return &run
}

// historyNote says, for a row, which catalogue entries it is about and
// what the last history run measured for each.
func historyNote(names []string, run *historyRun) template.HTML {
	var parts []string
	for _, name := range names {
		c, err := history.Get(name)
		if err != nil {
			continue
		}
		s := fmt.Sprintf("History: `%s`, %s (%s, %s).", c.Name, c.Title, strings.Join(c.Refs(), " "), c.Date)
		if run != nil {
			for _, m := range run.Changes {
				if m.Name == name && m.With != nil && m.Without != nil {
					s += fmt.Sprintf(" Last history run (%s): %s on %s %s, %.4g %s with it, %.4g without (effect: %s).",
						run.Started.UTC().Format("2006-01-02"), m.Figure, m.Scen, m.Size, m.With.Median, m.Unit, m.Without.Median, m.Appeared)
				}
			}
		}
		parts = append(parts, s)
	}
	return Inline(strings.Join(parts, " "))
}
