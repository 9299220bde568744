package demo

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"sync"
)

// RecordingFormat names the layout of a recording, so that a replay can
// refuse a file it does not understand.
const RecordingFormat = "kube-rewind talk recording 1"

// Recording is a run of talk mode as the page saw it: what the page says
// of the scenario, every frame it was sent, and the results. A replay
// plays the frames again on the same page, pausing where the speaker
// pressed Enter.
type Recording struct {
	Format   string    `json:"format"`
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
	return &Recording{Format: RecordingFormat, Talk: talk, Results: rows, Verdicts: vs, Frames: append([]Frame(nil), r.frames...)}
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

// ReadRecording loads a recording and checks that it can be played.
func ReadRecording(file string) (*Recording, error) {
	data, err := os.ReadFile(file)
	if err != nil {
		return nil, err
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
	return &rec, nil
}

// HTMLFile is where the self-playing page of a recording goes: beside it,
// named as it is but ending in .html.
func HTMLFile(file string) string {
	return strings.TrimSuffix(file, ".json") + ".html"
}

// HTML renders a page that plays rec by itself: the live page with the
// recording inside it. It opens from disk and fetches nothing.
func (rec *Recording) HTML() ([]byte, error) {
	data, err := json.Marshal(rec)
	if err != nil {
		return nil, err
	}
	page := renderData(rec.Talk, rec.Frames[0], nil)
	page.Recording = string(data)
	var b bytes.Buffer
	if err := pageTemplate.Execute(&b, page); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// Save writes rec to file and its self-playing page beside it.
func (rec *Recording) Save(file string) error {
	data, err := rec.Marshal()
	if err != nil {
		return err
	}
	html, err := rec.HTML()
	if err != nil {
		return err
	}
	if err := os.WriteFile(file, data, 0o644); err != nil {
		return err
	}
	return os.WriteFile(HTMLFile(file), html, 0o644)
}
