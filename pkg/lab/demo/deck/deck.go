package deck

import (
	"bytes"
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/kube-rewind/kube-rewind/pkg/history"
	"github.com/kube-rewind/kube-rewind/pkg/lab/demo"
	"github.com/kube-rewind/kube-rewind/pkg/lab/scenario/scripts"
)

// A deck is a whole talk in one page, made from an outline (outline.go):
// a title card, cards of text and of code, the history's timeline, and
// the recordings, each after a card that places it on the timeline and
// played as the recorded page plays it, and a card that sums up what each
// measured. The page opens from disk and fetches nothing; s opens the
// presenter view, with the speaker's notes.

// DeckFormat names the layout of a deck's data.
const DeckFormat = "kube-rewind talk deck 2"

// Deck is what a deck's page plays.
type Deck struct {
	Format string `json:"format"`
	Title  string `json:"title"`
	// Minutes is the talk's planned length, for the presenter view; 0
	// when the outline gives none.
	Minutes    int               `json:"minutes,omitempty"`
	Slides     []Slide           `json:"slides"`
	Recordings []*demo.Recording `json:"recordings"`
}

// The kinds of slide.
const (
	slideTitle    = "title"
	slideTimeline = "timeline"
	slideNext     = "next"
	slideText     = "text"
	slideCode     = "code"
	slideTalk     = "talk"
	slideEnd      = "end"
	slideFall     = "waterfall"
)

// Slide is one card of a deck, or one recording.
type Slide struct {
	// Kind is title, timeline, next (the card before a recording), text,
	// code, waterfall, talk (a recording) or end.
	Kind  string   `json:"kind"`
	Title string   `json:"title,omitempty"`
	Lines []string `json:"lines,omitempty"`
	// Body is the outline's own text for the card, as HTML made by
	// blockHTML, every character of the outline escaped.
	Body string `json:"body,omitempty"`
	// Changes, on a timeline card, are the history's changes in the order
	// they landed; Hot marks those the deck's recordings show, or on the
	// card before a recording, those it shows.
	Changes []Milestone `json:"changes,omitempty"`
	// Rows, on the last card, are each recording's figure, side by side.
	Rows []Summary `json:"rows,omitempty"`
	// Code is a code card's excerpt.
	Code *Code `json:"code,omitempty"`
	// Bars are a waterfall card's rows (waterfall.go).
	Bars []Bar `json:"bars,omitempty"`
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
	// Missing, when set, is the left cell's words for a figure the left
	// design has no such thing to count (demo.Row.Missing).
	Missing string `json:"missing,omitempty"`
}

// Note is a line of the speaker's notes.
type Note struct {
	Text string `json:"text"`
	Step int    `json:"step,omitempty"`
}

// keyNotes say the player's keys, on the title card's notes.
var keyNotes = []Note{
	{Text: "Keys: Enter, Space, →, a click or the buttons go on; ← goes back; p pauses a recording; + and − change its pace, which stays for the next ones; r shows or hides its results; s opens this presenter view; n shows the notes on the projected page itself."},
	{Text: "Each recording plays at its recorded pace and pauses before each step: press Enter when you are ready to run it."},
}

// BuildDeck makes a deck of title from recordings, in the order given:
// the outline of a title card, the timeline, each recording after its
// card, and the summary.
func BuildDeck(title string, recs []*demo.Recording) (*Deck, error) {
	if len(recs) == 0 {
		return nil, fmt.Errorf("a deck needs at least one recording")
	}
	o := &Outline{Title: title}
	left, right := recs[0].Talk.Designs[0], recs[0].Talk.Designs[1]
	var names []string
	for _, rec := range recs {
		names = append(names, rec.Talk.Name)
	}
	o.Lines = []string{
		fmt.Sprintf("%s (%s) against %s (%s), on two identical clusters, side by side.", left.Heading, left.Sub, strings.ToLower(right.Heading), right.Sub),
		fmt.Sprintf("%d scenarios: %s.", len(recs), strings.Join(names, ", ")),
	}
	o.Sections = append(o.Sections, Section{Heading: "2014 → today, one change at a time", Kind: "timeline",
		Body:  "<p>The changes between the 2014 manager and today's, as kube-rewind's history catalogue records them. Highlighted: the ones this talk shows.</p>",
		Notes: []Note{{Text: "The catalogue in pkg/history is the source: its entries give each change's issues, pull requests, date and reason."}}})
	for _, rec := range recs {
		o.Sections = append(o.Sections, Section{Kind: "talk", Rec: rec, Recording: rec.Talk.Name})
	}
	o.Sections = append(o.Sections, Section{Heading: "What the two designs did, measured", Kind: "summary",
		Body:  "<p>Run any of them yourself: <code>make demo SCENARIO=&lt;name&gt;</code>. Read the code both ways: <code>make docs</code>.</p>",
		Notes: []Note{{Text: "Every figure comes from a recording shipped with kube-rewind; make bench measures them over repeated runs."}}})
	return o.Deck("")
}

// Deck makes the deck of an outline whose recordings are read
// (ReadOutline). Code cards are cut from the repository at root.
func (o *Outline) Deck(root string) (*Deck, error) {
	d := &Deck{Format: DeckFormat, Title: o.Title, Minutes: o.Minutes}
	var dates []string
	shown := map[string]bool{}
	played := 0.0
	for _, s := range o.Sections {
		if s.Kind != "talk" {
			continue
		}
		if s.Rec == nil {
			return nil, fmt.Errorf("section %q: its recording %s was not read", s.Heading, s.Recording)
		}
		d.Recordings = append(d.Recordings, s.Rec)
		if r := s.Rec.Talk.Recorded; len(r) >= 10 && !slices.Contains(dates, r[:10]) {
			dates = append(dates, r[:10])
		}
		for _, n := range changesOf(s.Rec.Talk) {
			shown[n] = true
		}
		played += s.Rec.PlayedSeconds()
	}
	if len(d.Recordings) == 0 {
		return nil, fmt.Errorf("a deck needs at least one recording: a section with recording: FILE")
	}
	title := Slide{Kind: slideTitle, Title: o.Title, Lines: o.Lines, Notes: append(append([]Note(nil), o.Notes...), keyNotes...)}
	about := fmt.Sprintf("%d recordings, which play for %s at their recorded pace; the rest of the time is the speaker's.", len(d.Recordings), demo.Length(played))
	if len(dates) > 0 {
		about += " Recorded with kube-rewind on " + strings.Join(dates, ", ") + ": every figure in this talk was measured in those runs."
	}
	title.Notes = append(title.Notes, Note{Text: about})
	d.Slides = append(d.Slides, title)
	rec := 0
	for _, s := range o.Sections {
		switch s.Kind {
		case "timeline":
			d.Slides = append(d.Slides, Slide{Kind: slideTimeline, Title: s.Heading, Body: s.Body, Changes: timeline(shown), Notes: s.Notes})
		case "summary":
			d.Slides = append(d.Slides, Slide{Kind: slideEnd, Title: s.Heading, Body: s.Body, Rows: summaryRows(d.Recordings), Notes: s.Notes})
		case "waterfall":
			d.Slides = append(d.Slides, Slide{Kind: slideFall, Title: s.Heading, Body: s.Body, Bars: s.Bars, Notes: s.Notes})
		case "code":
			c, err := cutCodeOf(root, s)
			if err != nil {
				return nil, err
			}
			d.Slides = append(d.Slides, Slide{Kind: slideCode, Title: s.Heading, Body: s.Body, Code: c, Notes: s.Notes})
		case "talk":
			t := s.Rec.Talk
			hot := map[string]bool{}
			for _, n := range changesOf(t) {
				hot[n] = true
			}
			if len(hot) > 0 || s.Body != "" {
				heading := s.Heading
				if heading == "" {
					heading = "Next: " + t.Title
				}
				notes := append(append([]Note(nil), s.Notes...), Note{Text: t.Explain}, Note{Text: fmt.Sprintf("The recording that follows plays for %s at its recorded pace.", demo.Length(s.Rec.PlayedSeconds()))})
				d.Slides = append(d.Slides, Slide{Kind: slideNext, Title: heading, Lines: []string{"Reproduces " + t.Reproduces + "."}, Body: s.Body, Changes: timeline(hot), Notes: notes})
			}
			d.Slides = append(d.Slides, Slide{Kind: slideTalk, Rec: rec, Title: t.Title, Notes: talkNotes(s.Rec)})
			rec++
		default:
			d.Slides = append(d.Slides, Slide{Kind: slideText, Title: s.Heading, Body: s.Body, Notes: s.Notes})
		}
	}
	return d, nil
}

// summaryRows are each recording's figure, as its results table gives it.
func summaryRows(recs []*demo.Recording) []Summary {
	var rows []Summary
	for _, rec := range recs {
		fig := rec.Talk.Figure
		for _, r := range rec.Results {
			if r.Name == fig.Row {
				rows = append(rows, Summary{Name: rec.Talk.Name, Figure: r.Label(), Left: r.Legacy, Right: r.Modern, Unit: r.Unit, Missing: r.Missing})
			}
		}
	}
	return rows
}

// historyRef finds "(history: a, b)" in a scenario's words.
var historyRef = regexp.MustCompile(`history: ([a-z, -]+)\)`)

// changesOf names the changes of pkg/history a talk is about: those its
// words cite, those the catalogue says its scenario shows, and those the
// scenario of its name cites today (a recording keeps the words of its
// day).
func changesOf(t demo.Talk) []string {
	var names []string
	add := func(n string) {
		if _, err := history.Get(n); err == nil && !slices.Contains(names, n) {
			names = append(names, n)
		}
	}
	texts := []string{t.Reproduces}
	if sc, err := scripts.Get(t.Name); err == nil {
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
func talkNotes(rec *demo.Recording) []Note {
	t := rec.Talk
	notes := []Note{{Text: t.Explain}}
	seen := map[int]bool{}
	for _, f := range rec.Frames {
		if f.Step == 0 || seen[f.Step] || f.Phase == demo.PhaseDone {
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
	length := fmt.Sprintf("Plays for %s at its recorded pace, pauses before steps left out.", demo.Length(rec.PlayedSeconds()))
	if rec.Talk.Recorded != "" {
		length = fmt.Sprintf("Recorded %s at %s, sync period %s; plays for %s at its recorded pace, pauses before steps left out.", rec.Talk.Recorded, t.Size, t.Period, demo.Length(rec.PlayedSeconds()))
	}
	return append(notes, Note{Text: length})
}

// HTML renders the deck's page: the talk page with the deck inside it,
// opening on its title card.
func (d *Deck) HTML() ([]byte, error) {
	var data bytes.Buffer
	data.WriteString("{")
	head, err := json.Marshal(struct {
		Format  string  `json:"format"`
		Title   string  `json:"title"`
		Minutes int     `json:"minutes,omitempty"`
		Slides  []Slide `json:"slides"`
	}{d.Format, d.Title, d.Minutes, d.Slides})
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
	return demo.DeckPage(d.Title, data.String(), d.Recordings[0])
}
