package demo

import (
	"bytes"
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/kube-rewind/kube-rewind/pkg/history"
	"github.com/kube-rewind/kube-rewind/pkg/lab/scenario"
)

// A deck is a whole talk in one page: a title card, the history's
// timeline, and for each recording a card that places it on the timeline
// followed by the recording itself, played as the recorded page plays it;
// a last card sums up what each scenario measured. The page opens from
// disk and fetches nothing; n shows the speaker's notes.

// DeckFormat names the layout of a deck's data.
const DeckFormat = "kube-rewind talk deck 1"

// deckID is the id of the script element that holds a deck in its page.
const deckID = "deck"

// Deck is what a deck's page plays.
type Deck struct {
	Format     string       `json:"format"`
	Title      string       `json:"title"`
	Slides     []Slide      `json:"slides"`
	Recordings []*Recording `json:"recordings"`
}

// Slide is one card of a deck, or one recording.
type Slide struct {
	// Kind is title, timeline, talk or end.
	Kind  string   `json:"kind"`
	Title string   `json:"title,omitempty"`
	Lines []string `json:"lines,omitempty"`
	// Changes, on a timeline card, are the history's changes in the order
	// they landed; Hot marks those the next recording is about.
	Changes []Milestone `json:"changes,omitempty"`
	// Rows, on the last card, are each recording's figure, side by side.
	Rows []Summary `json:"rows,omitempty"`
	// Rec, on a talk slide, is the recording's index in Recordings.
	Rec int `json:"rec"`
	// Notes are what the speaker may say; a note of a step (Step > 0)
	// stands out while that step plays.
	Notes []Note `json:"notes,omitempty"`
}

// Milestone is a change of pkg/history on a timeline card, as the
// catalogue gives it: the card cites it, it does not retell it.
type Milestone struct {
	Name  string   `json:"name"`
	Title string   `json:"title"`
	Date  string   `json:"date"`
	Refs  []string `json:"refs"`
	Hot   bool     `json:"hot,omitempty"`
}

// Summary is one line of the last card: a recording's figure as its
// results table gives it.
type Summary struct {
	Name   string `json:"name"`
	Figure string `json:"figure"`
	Left   string `json:"left"`
	Right  string `json:"right"`
	Unit   string `json:"unit,omitempty"`
}

// Note is a line of the speaker's notes.
type Note struct {
	Text string `json:"text"`
	Step int    `json:"step,omitempty"`
}

// BuildDeck makes a deck of title from recordings, in the order given.
func BuildDeck(title string, recs []*Recording) (*Deck, error) {
	if len(recs) == 0 {
		return nil, fmt.Errorf("a deck needs at least one recording")
	}
	d := &Deck{Format: DeckFormat, Title: title, Recordings: recs}
	var names, dates []string
	shown := map[string]bool{}
	for _, rec := range recs {
		names = append(names, rec.Talk.Name)
		if rec.Talk.Recorded != "" && !slices.Contains(dates, rec.Talk.Recorded[:10]) {
			dates = append(dates, rec.Talk.Recorded[:10])
		}
		for _, n := range changesOf(rec.Talk) {
			shown[n] = true
		}
	}
	left, right := recs[0].Talk.Designs[0], recs[0].Talk.Designs[1]
	d.Slides = append(d.Slides, Slide{
		Kind:  "title",
		Title: title,
		Lines: []string{
			fmt.Sprintf("%s (%s) against %s (%s), on two identical clusters, side by side.", left.Heading, left.Sub, strings.ToLower(right.Heading), right.Sub),
			fmt.Sprintf("%d scenarios: %s.", len(recs), strings.Join(names, ", ")),
			"Recorded with kube-rewind on " + strings.Join(dates, ", ") + ": every figure in this talk was measured in those runs.",
		},
		Notes: []Note{
			{Text: "Keys: Enter, Space, →, a click or the buttons go on; ← goes back; p pauses a recording; + and − change its pace; r shows or hides its results; n shows or hides these notes."},
			{Text: "Each recording plays at its recorded pace and pauses before each step: press Enter when you are ready to run it."},
		},
	})
	d.Slides = append(d.Slides, Slide{
		Kind:    "timeline",
		Title:   "2014 → today, one change at a time",
		Lines:   []string{"The changes between the 2014 manager and today's, as kube-rewind's history catalogue records them. Highlighted: the ones this talk shows."},
		Changes: timeline(shown),
		Notes:   []Note{{Text: "The catalogue in pkg/history is the source: its entries give each change's issues, pull requests, date and reason."}},
	})
	for i, rec := range recs {
		t := rec.Talk
		hot := map[string]bool{}
		for _, n := range changesOf(t) {
			hot[n] = true
		}
		if len(hot) > 0 {
			d.Slides = append(d.Slides, Slide{
				Kind:    "timeline",
				Title:   fmt.Sprintf("Next: %s", t.Title),
				Lines:   []string{"Reproduces " + t.Reproduces + "."},
				Changes: timeline(hot),
				Notes:   []Note{{Text: t.Explain}},
			})
		}
		d.Slides = append(d.Slides, Slide{Kind: "talk", Rec: i, Title: t.Title, Notes: talkNotes(rec)})
	}
	end := Slide{Kind: "end", Title: "What the two designs did, measured",
		Lines: []string{
			"Each figure is the one its scenario is about, from the recording's results table.",
			"Run any of them yourself: make demo SCENARIO=<name>. Read the code both ways: make docs.",
		},
		Notes: []Note{{Text: "Every figure comes from a recording shipped with kube-rewind; make bench measures them over repeated runs."}},
	}
	for _, rec := range recs {
		fig := rec.Talk.Figure
		for _, r := range rec.Results {
			if r.Name == fig.Row {
				end.Rows = append(end.Rows, Summary{Name: rec.Talk.Name, Figure: rowName(r), Left: r.Legacy, Right: r.Modern, Unit: r.Unit})
			}
		}
	}
	d.Slides = append(d.Slides, end)
	return d, nil
}

// historyRef finds "(history: a, b)" in a scenario's words.
var historyRef = regexp.MustCompile(`history: ([a-z, -]+)\)`)

// changesOf names the changes of pkg/history a talk is about: those its
// words cite, those the catalogue says its scenario shows, and those the
// scenario of its name cites today (a recording keeps the words of its
// day).
func changesOf(t Talk) []string {
	var names []string
	add := func(n string) {
		if _, err := history.Get(n); err == nil && !slices.Contains(names, n) {
			names = append(names, n)
		}
	}
	texts := []string{t.Reproduces}
	if sc, err := scenario.Get(t.Name); err == nil {
		texts = append(texts, sc.Reproduces)
	}
	for _, text := range texts {
		for _, m := range historyRef.FindAllStringSubmatch(text, -1) {
			for _, n := range strings.Split(m[1], ",") {
				add(strings.TrimSpace(n))
			}
		}
	}
	for _, c := range history.Changes {
		if c.Scenario == t.Name {
			add(c.Name)
		}
	}
	return names
}

// timeline is the catalogue as milestones, hot ones marked.
func timeline(hot map[string]bool) []Milestone {
	var out []Milestone
	for _, c := range history.Changes {
		out = append(out, Milestone{Name: c.Name, Title: c.Title, Date: c.Date, Refs: c.PRs, Hot: hot[c.Name]})
	}
	return out
}

// talkNotes are the speaker's notes of a recording: what it shows, each
// step's words, and what both designs showed.
func talkNotes(rec *Recording) []Note {
	t := rec.Talk
	notes := []Note{{Text: t.Explain}}
	seen := map[int]bool{}
	for _, f := range rec.Frames {
		if f.Step == 0 || seen[f.Step] || f.Phase == PhaseDone {
			continue
		}
		seen[f.Step] = true
		text := fmt.Sprintf("Step %d, %s: %s", f.Step, f.Title, f.Say)
		if f.From > 0 {
			text = fmt.Sprintf("Step %d follows at once.", f.Step)
		}
		notes = append(notes, Note{Text: text, Step: f.Step})
	}
	for _, f := range rec.Frames {
		if f.Then != "" {
			notes = append(notes, Note{Text: "Then: " + f.Then, Step: f.Step})
			break
		}
	}
	for _, v := range rec.Verdicts {
		if v.OK {
			notes = append(notes, Note{Text: fmt.Sprintf("%s showed what its design must.", v.Design)})
		} else {
			notes = append(notes, Note{Text: fmt.Sprintf("%s did not show its point in this run: %s", v.Design, v.Why)})
		}
	}
	if rec.Talk.Recorded != "" {
		notes = append(notes, Note{Text: fmt.Sprintf("Recorded %s at %s, sync period %s.", rec.Talk.Recorded, t.Size, t.Period)})
	}
	return notes
}

// HTML renders the deck's page: the talk page with the deck inside it,
// opening on its title card.
func (d *Deck) HTML() ([]byte, error) {
	var data bytes.Buffer
	data.WriteString("{")
	head, err := json.Marshal(struct {
		Format string  `json:"format"`
		Title  string  `json:"title"`
		Slides []Slide `json:"slides"`
	}{d.Format, d.Title, d.Slides})
	if err != nil {
		return nil, err
	}
	data.Write(head[1 : len(head)-1])
	data.WriteString(`,"recordings":[`)
	for i, rec := range d.Recordings {
		if i > 0 {
			data.WriteString(",\n")
		}
		b, err := rec.Marshal()
		if err != nil {
			return nil, err
		}
		data.Write(bytes.TrimSpace(b))
	}
	data.WriteString("]}\n")
	first := d.Recordings[0]
	page := renderData(first.Talk, first.Frames[0], nil)
	page.Deck = d
	page.Script = pageScript{Code: pageJS, ID: deckID, Data: data.String(), Player: true}
	var b bytes.Buffer
	if err := pageTemplate.Execute(&b, page); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// Stills names each picture of the deck, in order, as the page shows it
// for #still=<slide>.<part>: every card, and each recording at the end of
// each of its steps (steps played as one end together), the last one with
// its results.
func (d *Deck) Stills() []string {
	var out []string
	n := 0
	for i, s := range d.Slides {
		if s.Kind != "talk" {
			n++
			out = append(out, fmt.Sprintf("%d.1 %02d-%s", i+1, n, s.Kind))
			continue
		}
		rec := d.Recordings[s.Rec]
		for g, step := range pauses(rec.Frames) {
			n++
			out = append(out, fmt.Sprintf("%d.%d %02d-%s-step%d", i+1, g+1, n, rec.Talk.Name, step))
		}
	}
	return out
}

// pauses are the steps a recording pauses before, in order: those of its
// ready frames, but for steps folded into the one before.
func pauses(frames []Frame) []int {
	var out []int
	for _, f := range frames {
		if f.Phase == PhaseReady && f.From == 0 && (len(out) == 0 || out[len(out)-1] != f.Step) {
			out = append(out, f.Step)
		}
	}
	return out
}
