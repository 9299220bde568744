package demo

import (
	"encoding/json"
	"sync"
	"time"
)

// Phases of a demo, as the page shows them.
const (
	PhaseStarting = "starting"
	PhaseReady    = "ready"
	PhaseRunning  = "running"
	PhaseDone     = "done"
	PhaseFailed   = "failed"
	PhaseStopped  = "stopped"
)

// Frame is one update of the live page: where the demo is and how both
// designs look.
type Frame struct {
	// T is seconds since the demo started.
	T     float64 `json:"t"`
	Phase string  `json:"phase"`
	// Step is 1-based; 0 before the first.
	Step  int `json:"step"`
	Steps int `json:"steps"`
	// From, when set, is the first of the steps played as one up to Step:
	// steps over in well under a second are folded into the next. Title
	// and Say are then the group's.
	From  int    `json:"from,omitempty"`
	Title string `json:"title"`
	Say   string `json:"say"`
	// Then is the conclusion of the steps just played as one, once they
	// are over: the words of the step the others were folded into.
	Then string `json:"then,omitempty"`
	// Wait, in a ready frame of a live run, says that the demo waits for
	// Enter; with -auto it goes on by itself.
	Wait bool `json:"wait,omitempty"`
	// Note is a short line of news: a design finished a step, an error.
	Note    string `json:"note"`
	Sides   []Side `json:"sides"`
	Results []Row  `json:"results,omitempty"`
}

// Point is one moment of the rolling chart: seconds, then pods running
// and the scenario's figure of each side, the left side first.
type Point [5]float64

// pointOf is the chart's point for a frame; ok is false until a side is up.
func pointOf(f Frame, figure string) (p Point, ok bool) {
	if len(f.Sides) < 2 || !(f.Sides[0].Ready || f.Sides[1].Ready) {
		return p, false
	}
	s0, s1 := f.Sides[0], f.Sides[1]
	return Point{f.T, float64(s0.Running), chartValue(figure, s0), float64(s1.Running), chartValue(figure, s1)}, true
}

// historyLen keeps a minute at four frames a second.
const historyLen = 240

// FrameEvery is how often the page is updated.
const FrameEvery = 250 * time.Millisecond

// hub makes frames and hands them to every open page.
type hub struct {
	start time.Time
	sides [2]*side
	// figure is the key of the figure charted beside the pods.
	figure string
	// figures, in a live run, fills in each frame's figures before it is
	// published; a replay publishes frames that carry them.
	figures *figurer
	// record, when set, receives every frame published.
	record func(Frame)

	// refreshing lets one refresh run at a time, so that the chart's
	// points stay in order.
	refreshing sync.Mutex

	mu        sync.Mutex
	frame     Frame
	frameJSON []byte
	history   []Point
	// changed is closed, and replaced, whenever a new frame is ready.
	changed chan struct{}
	stopCh  chan struct{}
	done    chan struct{}
}

func newHub(steps int, figure string) *hub {
	h := &hub{
		start:   time.Now(),
		figure:  figure,
		sides:   [2]*side{{name: "legacy"}, {name: "modern"}},
		changed: make(chan struct{}),
		stopCh:  make(chan struct{}),
		done:    make(chan struct{}),
	}
	h.frame = Frame{Phase: PhaseStarting, Steps: steps}
	h.refresh()
	return h
}

// run makes a frame every FrameEvery until stop.
func (h *hub) run() {
	defer close(h.done)
	t := time.NewTicker(FrameEvery)
	defer t.Stop()
	for {
		select {
		case <-h.stopCh:
			return
		case <-t.C:
			h.refresh()
		}
	}
}

// stop ends the frames; the last one stays for late readers.
func (h *hub) stop() {
	close(h.stopCh)
	<-h.done
}

// update changes the narrative part of the frame and publishes at once.
func (h *hub) update(f func(*Frame)) {
	h.refreshing.Lock()
	defer h.refreshing.Unlock()
	h.mu.Lock()
	f(&h.frame)
	h.mu.Unlock()
	h.measure()
}

// refresh measures both sides and publishes a new frame.
func (h *hub) refresh() {
	h.refreshing.Lock()
	defer h.refreshing.Unlock()
	h.measure()
}

// measure is refresh once refreshing is held: a frame is copied, filled
// and published by one caller at a time, so none is lost.
func (h *hub) measure() {
	now := time.Since(h.start).Seconds()
	sides := []Side{h.sides[0].snapshot(), h.sides[1].snapshot()}
	// Both grids leave room for the larger side's pods, so that a square
	// is one pod of the same size on both halves of the page.
	cells := max(sides[0].Cells, sides[1].Cells)
	sides[0].Cells, sides[1].Cells = cells, cells
	h.mu.Lock()
	f := h.frame
	h.mu.Unlock()
	f.T, f.Sides = now, sides
	h.publish(f)
}

// publish makes f the current frame, adds it to the chart and wakes every
// open page. A replay calls it with recorded frames.
func (h *hub) publish(f Frame) {
	if h.figures != nil {
		h.figures.apply(&f)
	}
	data, err := json.Marshal(f)
	if err != nil {
		return
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	h.frame, h.frameJSON = f, data
	if p, ok := pointOf(f, h.figure); ok {
		h.history = append(h.history, p)
		if len(h.history) > historyLen {
			h.history = append(h.history[:0:0], h.history[len(h.history)-historyLen:]...)
		}
	}
	if h.record != nil {
		h.record(f)
	}
	close(h.changed)
	h.changed = make(chan struct{})
}

// current returns the latest frame, its JSON and a channel closed when the
// next one is ready.
func (h *hub) current() (Frame, []byte, <-chan struct{}) {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.frame, h.frameJSON, h.changed
}

// chart returns the last minute of the chart.
func (h *hub) chart() []Point {
	h.mu.Lock()
	defer h.mu.Unlock()
	return append([]Point(nil), h.history...)
}
