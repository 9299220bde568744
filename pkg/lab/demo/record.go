package demo

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
)

// RecordingFormat names the layout of a recording, so that a replay can
// refuse a file it does not understand.
const RecordingFormat = "kube-rewind talk recording 1"

// recordingVersion is the version of the frames: 2 carry each side's
// figure and fold steps over in well under a second into the next; 3
// carry the figure the scenario declares, whose results row says where
// the left design has no such thing. A recording of an earlier version
// gets them when it is read (normalize).
const recordingVersion = 3

// Recording is a run of talk mode as the page saw it: what the page says
// of the scenario, every frame it was sent, and the results. A replay
// plays the frames again on the same page, pausing where the speaker
// pressed Enter.
type Recording struct {
	Format string `json:"format"`
	// Version is recordingVersion when the run was recorded; 0 before
	// frames carried figures.
	Version int `json:"version,omitempty"`
	// Derived says what a reader of an older recording computed from its
	// frames, rather than measured live.
	Derived  string    `json:"derived,omitempty"`
	Talk     Talk      `json:"talk"`
	Results  []Row     `json:"results"`
	Verdicts []Verdict `json:"verdicts,omitempty"`
	// Frames are in order of time. Frames that only repeat a pause are
	// left out: the replay pauses there anyway.
	Frames []Frame `json:"frames"`
}

// recorder keeps the frames a hub publishes.
type recorder struct {
	mu     sync.Mutex
	frames []Frame
}

// add keeps f unless it adds nothing a replay shows: a further frame of a
// pause before a step, of the clusters starting, or of the end.
func (r *recorder) add(f Frame) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if n := len(r.frames); n > 0 {
		last := r.frames[n-1]
		repeat := last.Phase == f.Phase && last.Step == f.Step && last.Note == f.Note
		if repeat && (f.Phase == PhaseReady || f.Phase == PhaseStarting || f.Phase == PhaseDone) {
			return
		}
	}
	r.frames = append(r.frames, f)
}

// recording returns what was kept, with the talk and the results.
func (r *recorder) recording(talk Talk, rows []Row, vs []Verdict) *Recording {
	r.mu.Lock()
	defer r.mu.Unlock()
	return &Recording{Format: RecordingFormat, Version: recordingVersion, Talk: talk, Results: rows, Verdicts: vs, Frames: append([]Frame(nil), r.frames...)}
}

// Marshal writes the recording as JSON with one frame a line, so that it
// diffs and greps line by line.
func (rec *Recording) Marshal() ([]byte, error) {
	head := *rec
	head.Frames = nil
	data, err := json.Marshal(head)
	if err != nil {
		return nil, err
	}
	var b bytes.Buffer
	b.Write(bytes.TrimSuffix(data, []byte("null}")))
	b.WriteString("[\n")
	for i, f := range rec.Frames {
		line, err := json.Marshal(f)
		if err != nil {
			return nil, err
		}
		if i > 0 {
			b.WriteString(",\n")
		}
		b.Write(line)
	}
	b.WriteString("\n]}\n")
	return b.Bytes(), nil
}

// ReadRecording loads a recording, from its page (the form it ships in) or
// from JSON, and checks that it can be played.
func ReadRecording(file string) (*Recording, error) {
	data, err := os.ReadFile(file)
	if err != nil {
		return nil, err
	}
	if trimmed := bytes.TrimSpace(data); len(trimmed) > 0 && trimmed[0] != '{' {
		inside, err := embedded(data, recordingID)
		if err != nil {
			return nil, fmt.Errorf("%s is not a talk recording: %v", file, err)
		}
		data = inside
	}
	var rec Recording
	if err := json.Unmarshal(data, &rec); err != nil {
		return nil, fmt.Errorf("%s is not a talk recording: %v", file, err)
	}
	if rec.Format != RecordingFormat {
		return nil, fmt.Errorf("%s is not a talk recording this version plays: its format is %q, want %q", file, rec.Format, RecordingFormat)
	}
	if len(rec.Frames) == 0 || len(rec.Talk.Designs) != 2 {
		return nil, fmt.Errorf("%s holds %d frames and %d sides: nothing to play", file, len(rec.Frames), len(rec.Talk.Designs))
	}
	for i, f := range rec.Frames {
		if len(f.Sides) != 2 {
			return nil, fmt.Errorf("%s: frame %d has %d sides, want 2", file, i+1, len(f.Sides))
		}
	}
	rec.normalize()
	return &rec, nil
}

// recordingID is the id of the script element that holds a recording in
// its page.
const recordingID = "recording"

// embedded returns the JSON a page holds in its script element of the
// given id.
func embedded(page []byte, id string) ([]byte, error) {
	open := []byte(`<script type="application/json" id="` + id + `">`)
	i := bytes.Index(page, open)
	if i < 0 {
		if bytes.Contains(page, []byte(`id="`+deckID+`"`)) {
			return nil, fmt.Errorf("it is a deck of several recordings; name one recording's page")
		}
		return nil, fmt.Errorf("it is neither JSON nor a page with a recording inside")
	}
	rest := page[i+len(open):]
	j := bytes.Index(rest, []byte("</script>"))
	if j < 0 {
		return nil, fmt.Errorf("its recording does not end")
	}
	return rest[:j], nil
}

// HTML renders a page that plays rec by itself: the live page with the
// recording inside it, one frame a line. It opens from disk and fetches
// nothing.
func (rec *Recording) HTML() ([]byte, error) {
	data, err := rec.Marshal()
	if err != nil {
		return nil, err
	}
	page := renderData(rec.Talk, rec.Frames[0], nil)
	page.Script = pageScript{Code: pageJS, ID: recordingID, Data: string(data), Player: true}
	var b bytes.Buffer
	if err := pageTemplate.Execute(&b, page); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// deckID is the id of the script element that holds a deck in its page.
const deckID = "deck"

// DeckPage renders a page that plays a deck by itself (pkg/lab/demo/deck):
// the talk page titled title with data, the deck as JSON, inside it,
// opening on its first card, with first's first frame beneath the cards.
// It opens from disk and fetches nothing.
func DeckPage(title, data string, first *Recording) ([]byte, error) {
	page := renderData(first.Talk, first.Frames[0], nil)
	page.Deck = &deckHead{Title: title}
	page.Script = pageScript{Code: pageJS, ID: deckID, Data: data, Player: true}
	var b bytes.Buffer
	if err := pageTemplate.Execute(&b, page); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// Save writes rec to file: as JSON, one frame a line, when the name ends
// in .json; otherwise as its page, which plays it in a browser and which
// rcbench replay and rcbench deck read as well.
func (rec *Recording) Save(file string) error {
	data, err := rec.Marshal()
	if !strings.HasSuffix(file, ".json") {
		data, err = rec.HTML()
	}
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
		return err
	}
	return os.WriteFile(file, data, 0o644)
}
