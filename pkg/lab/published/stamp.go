package published

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"time"
)

// StampsFile holds a stamp per page that make publish has written,
// relative to the repository.
const StampsFile = "examples/published.json"

// Stamp says when and at what commit a page was measured, how long its
// run took, and the inputs it declared then.
type Stamp struct {
	Page    string    `json:"page"`
	Commit  string    `json:"commit"`
	Started time.Time `json:"started"`
	Seconds float64   `json:"seconds"`
	Inputs  []string  `json:"inputs"`
	// Note says what the stamp knows only in part (a table entry's).
	Note string `json:"note,omitempty"`
}

// Length is how long the page's run took; zero when the stamp does not
// say.
func (s Stamp) Length() time.Duration { return time.Duration(s.Seconds * float64(time.Second)) }

// Stamps is StampsFile's content.
type Stamps struct {
	Pages []Stamp `json:"pages"`
}

// earlier stamps the pages published before make publish wrote stamps:
// their commit, start and length as each page's own header gives them
// (the talk's recordings name no commit: theirs is the commit that first
// shipped them, recorded the same day). Their runs' JSON stayed on the
// machine that ran them, so these are declared here, and a stamp in
// StampsFile replaces one as soon as make publish writes the page again.
var earlier = []Stamp{
	{Page: "bench", Commit: "96fe2d7", Started: date("2026-11-24T16:06:00Z"), Seconds: 9*60 + 5},
	{Page: "originals", Commit: "550d3e4", Started: date("2026-11-26T15:58:00Z"), Seconds: 20*60 + 52},
	{Page: "sweep", Commit: "ca358fd", Started: date("2026-11-26T17:57:00Z"), Seconds: 52*60 + 16},
	{Page: "history", Commit: "3ed0976", Started: date("2026-11-26T18:54:00Z"), Seconds: 12*60 + 7},
	{Page: "listcost", Commit: "0d8543f", Started: date("2026-11-24T16:01:00Z"), Seconds: 3*60 + 57},
	{Page: "talk", Commit: "eac8cdf", Started: date("2026-11-24T05:13:00Z"),
		Note: "the recordings name no commit: this is the commit that first shipped them, the day they were recorded"},
	{Page: "deck", Commit: "cc91839", Started: date("2026-11-28T00:00:00Z"),
		Note: "the deck names no commit: this is the commit that last made it"},
}

func date(s string) time.Time {
	t, err := time.Parse(time.RFC3339, s)
	if err != nil {
		panic(err)
	}
	return t
}

// ReadStamps reads StampsFile under root; a missing file is no stamps.
func ReadStamps(root string) (*Stamps, error) {
	data, err := os.ReadFile(filepath.Join(root, StampsFile))
	if errors.Is(err, fs.ErrNotExist) {
		return &Stamps{}, nil
	}
	if err != nil {
		return nil, err
	}
	var s Stamps
	if err := json.Unmarshal(data, &s); err != nil {
		return nil, fmt.Errorf("%s: %v", StampsFile, err)
	}
	return &s, nil
}

// Write writes s to StampsFile under root, pages in Pages' order.
func (s *Stamps) Write(root string) error {
	order := map[string]int{}
	for i, p := range Pages {
		order[p.Name] = i
	}
	sort.SliceStable(s.Pages, func(i, j int) bool { return order[s.Pages[i].Page] < order[s.Pages[j].Page] })
	data, err := json.MarshalIndent(s, "", "  ")
	if err != nil {
		return err
	}
	path := filepath.Join(root, StampsFile)
	if err := os.WriteFile(path+".new", append(data, '\n'), 0o644); err != nil {
		return err
	}
	return os.Rename(path+".new", path)
}

// Set replaces page's stamp.
func (s *Stamps) Set(st Stamp) {
	for i := range s.Pages {
		if s.Pages[i].Page == st.Page {
			s.Pages[i] = st
			return
		}
	}
	s.Pages = append(s.Pages, st)
}

// Of returns page's stamp: its own in s, else the declared earlier one,
// with the page's inputs as declared now; ok is false when the page has
// neither.
func (s *Stamps) Of(page string) (Stamp, bool) {
	for _, st := range s.Pages {
		if st.Page == page {
			return st, true
		}
	}
	for _, st := range earlier {
		if st.Page == page {
			if p := Get(page); p != nil {
				st.Inputs = p.Inputs
			}
			return st, true
		}
	}
	return Stamp{Page: page}, false
}
