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
	Step  int    `json:"step"`
	Steps int    `json:"steps"`
	Title string `json:"title"`
	Say   string `json:"say"`
	// Note is a short line of news: a design finished a step, an error.
	Note    string `json:"note"`
	Sides   []Side `json:"sides"`
	Results []Row  `json:"results,omitempty"`
}

// Point is one moment of the rolling chart: pods running and goroutines,
// legacy first.
type Point [5]float64

// historyLen keeps a minute at four frames a second.
const historyLen = 240

// frameEvery is how often the page is updated.
const frameEvery = 250 * time.Millisecond

// hub makes frames and hands them to every open page.
type hub struct {
	start time.Time
	sides [2]*side

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

func newHub(steps int) *hub {
	h := &hub{
		start:   time.Now(),
		sides:   [2]*side{{name: "legacy"}, {name: "modern"}},
		changed: make(chan struct{}),
		stopCh:  make(chan struct{}),
		done:    make(chan struct{}),
	}
	h.frame = Frame{Phase: PhaseStarting, Steps: steps}
	h.refresh()
	return h
}

// run makes a frame every frameEvery until stop.
func (h *hub) run() {
	defer close(h.done)
	t := time.NewTicker(frameEvery)
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
	h.mu.Lock()
	f(&h.frame)
	h.mu.Unlock()
	h.refresh()
}

// refresh measures both sides and publishes a new frame.
func (h *hub) refresh() {
	h.refreshing.Lock()
	defer h.refreshing.Unlock()
	now := time.Since(h.start).Seconds()
	sides := []Side{h.sides[0].snapshot(), h.sides[1].snapshot()}
	h.mu.Lock()
	defer h.mu.Unlock()
	h.frame.T = now
	h.frame.Sides = sides
	data, err := json.Marshal(h.frame)
	if err != nil {
		return
	}
	h.frameJSON = data
	if sides[0].Ready || sides[1].Ready {
		p := Point{now, float64(sides[0].Running), float64(sides[0].Goroutines), float64(sides[1].Running), float64(sides[1].Goroutines)}
		h.history = append(h.history, p)
		if len(h.history) > historyLen {
			h.history = append(h.history[:0:0], h.history[len(h.history)-historyLen:]...)
		}
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
