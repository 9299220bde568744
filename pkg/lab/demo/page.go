package demo

import (
	"context"
	_ "embed"
	"encoding/json"
	"fmt"
	"html/template"
	"math"
	"net"
	"net/http"
	"strconv"
	"time"

	"github.com/kube-rewind/kube-rewind/pkg/lab/sampler"
	"github.com/kube-rewind/kube-rewind/pkg/lab/scenario"
)

//go:embed assets/page.html
var pageHTML string

// The page's script is these files, joined in this order inside one
// function, so that they share its names and leave none behind.
var (
	//go:embed assets/js/view.js
	viewJS string
	//go:embed assets/js/fit.js
	fitJS string
	//go:embed assets/js/player.js
	playerJS string
	//go:embed assets/js/deck.js
	deckJS string
	//go:embed assets/js/presenter.js
	presenterJS string
	//go:embed assets/js/boot.js
	bootJS string

	pageJS = "(function () {\n\"use strict\";\n" + viewJS + fitJS + playerJS + deckJS + presenterJS + bootJS + "})();\n"
)

var pageTemplate = template.Must(template.New("page").Funcs(template.FuncMap{
	"svg":       func(s string) template.HTML { return template.HTML(s) },
	"js":        func(s string) template.JS { return template.JS(s) },
	"thousands": Thousands,
	"rate":      func(v float64) string { return FormatRate(v) },
}).Parse(pageHTML))

// Designs are the two columns of a talk, 2014 and today, each held to
// its design's expectations.
var Designs = []Design{
	checked(DesignOf(scenario.Legacy)),
	checked(DesignOf(scenario.Modern)),
}

// DesignOf is the column of variant v, named as v's description names it.
func DesignOf(v scenario.Variant) Design {
	heading, sub, short := v.Describe()
	return Design{Heading: heading, Sub: sub, Short: short, Variant: v}
}

func checked(d Design) Design {
	d.Checked = true
	return d
}

// Design is how the page and the terminal name one side.
type Design struct {
	Heading string `json:"heading"`
	Sub     string `json:"sub"`
	// Short names the side in the terminal's counters and notes.
	Short string `json:"short"`
	// Variant is what a live run starts for the side; Checked holds the
	// side to what its variant must show (Scenario.Expect: an original to
	// its port's design, today's stack to what kube-controller-manager
	// must). A recording needs neither.
	Variant scenario.Variant `json:"-"`
	Checked bool             `json:"-"`
}

// Talk is what the page and the narration say of a run besides its
// frames: the scenario's words, its size, the figure it is about and the
// names of the sides. A recording carries it, so that a replay needs
// nothing of the scenario's current definition.
type Talk struct {
	Name       string   `json:"name"`
	Title      string   `json:"title"`
	Reproduces string   `json:"reproduces"`
	Explain    string   `json:"explain"`
	Size       string   `json:"size"`
	Period     string   `json:"period"`
	Figure     Figure   `json:"figure"`
	Designs    []Design `json:"designs"`
	// Recorded is when a recording was made, empty for a live run.
	Recorded string `json:"recorded,omitempty"`
	// Commit is the commit a recording's binaries were built from, when
	// it was given (recordings made before it was are without).
	Commit string `json:"commit,omitempty"`
}

// TalkOf describes a live run of sc at size sz.
func TalkOf(sc *scenario.Scenario, sz scenario.Size, designs []Design) Talk {
	return Talk{
		Name: sc.Name, Title: sc.Title, Reproduces: sc.Reproduces, Explain: sc.Explain,
		Size: sz.Label, Period: sz.Period.String(), Figure: scenarioFigure(sc.Name),
		Designs: append([]Design(nil), designs...),
	}
}

// page serves the live page: / (rendered on the server, so it shows the
// state of the moment without JavaScript), /events (server-sent events,
// four frames a second) and /state.json (the latest frame).
type page struct {
	hub  *hub
	talk Talk
	url  string
	// closing is closed when the demo ends, so open event streams finish
	// and the server can shut down.
	closing chan struct{}
}

func (p *page) routes() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("/", p.index)
	mux.HandleFunc("/events", p.events)
	mux.HandleFunc("/state.json", p.state)
	return mux
}

type sideView struct {
	Side
	Index   int
	Heading string
	Sub     string
	Grid    string
	// RunningText and the others are the counts' values: "–" before the
	// side has anything to count.
	RunningText, DesiredText, CreatedText string
	ExtraText, SurplusText                string
	Surplus                               int
	// Over says more pods are active than desired.
	Over bool
	// FigText is the scenario's figure, as the results table has it once
	// it is in; CreatedKey and ExtraKey say which count is the figure too.
	FigText              string
	CreatedKey, ExtraKey bool
	PodsLine, FigLine    string
	Verbs                []verbRate
}

type verbRate struct {
	Verb string
	Rate float64
}

type pageData struct {
	Talk  Talk
	Frame Frame
	Sides []sideView
	// Chip and StepLine say where the run is, SayLine what to look for (or
	// the conclusion of the steps just played); Where is the footer's
	// right end: the page's address, or when the recording was made.
	Chip, StepLine, SayLine, Where string
	// PodsTop and FigTop are the tops of the chart's scales; ChartLabel
	// names the figure's line; Ticks are its time axis.
	PodsTop    string
	FigTop     string
	ChartLabel string
	Ticks      []tick
	States     []legendEntry
	Script     pageScript
	// TalkJSON is the talk for the live page's script.
	TalkJSON string
	// Deck, in a page that plays a deck, names it; the page then opens on
	// its first card.
	Deck *deckHead
}

// deckHead is what the page's template shows of the deck it plays.
type deckHead struct {
	Title string
}

// pageScript is what the page runs: its script, and for a page that plays
// by itself, the recording or the deck it plays, as JSON in a script
// element of type application/json with the given id.
type pageScript struct {
	Code   string
	ID     string
	Data   string
	Player bool
}

type legendEntry struct {
	Name, Colour string
}

func (p *page) index(w http.ResponseWriter, r *http.Request) {
	if r.URL.Path != "/" {
		http.NotFound(w, r)
		return
	}
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		w.Header().Set("Allow", "GET, HEAD")
		http.Error(w, "only GET is served here", http.StatusMethodNotAllowed)
		return
	}
	frame, _, _ := p.hub.current()
	data := renderData(p.talk, frame, p.hub.chart())
	data.Where = p.url
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	if err := pageTemplate.Execute(w, data); err != nil {
		// The header is gone; all that is left is to say so in the log.
		fmt.Println("demo page:", err)
	}
}

// renderData is what the page template shows of frame, with the chart's
// points.
func renderData(talk Talk, frame Frame, points []Point) pageData {
	podsTop, figTop := chartScale(points, frame.Sides)
	fig := talk.Figure
	data := pageData{
		Talk:       talk,
		Frame:      frame,
		Chip:       chipText(frame),
		StepLine:   stepLine(frame),
		SayLine:    sayLine(talk, frame),
		PodsTop:    Thousands(int(podsTop)),
		FigTop:     FormatFigure(figTop),
		ChartLabel: chartLabel(fig),
		Ticks:      chartTicks(frame.T),
		Script:     pageScript{Code: pageJS},
	}
	if b, err := json.Marshal(talk); err == nil {
		data.TalkJSON = string(b)
	}
	for _, c := range []struct {
		code byte
		name string
	}{{'u', "unscheduled"}, {'w', "waiting"}, {'r', "running"}, {'x', "terminated"}} {
		data.States = append(data.States, legendEntry{c.name, stateColour[c.code]})
	}
	for i, s := range frame.Sides {
		var d Design
		if i < len(talk.Designs) {
			d = talk.Designs[i]
		}
		v := sideView{Side: s, Index: i, Heading: d.Heading, Sub: d.Sub,
			Grid:     gridSVG(fmt.Sprintf("s%d", i), s.Grid, s.Cells),
			PodsLine: chartLine(points, 1+2*i, podsTop, frame.T),
			FigLine:  chartLine(points, 2+2*i, figTop, frame.T),
			Surplus:  s.Surplus(),
			Over:     s.Desired > 0 && s.Active > s.Desired,
		}
		v.RunningText, v.DesiredText, v.CreatedText = count(s, s.Running), count(s, s.Desired), count(s, s.Created)
		v.ExtraText, v.SurplusText = count(s, s.Extra), count(s, v.Surplus)
		v.FigText = figureText(fig, s, FigureRow(fig, frame.Results, i))
		v.CreatedKey, v.ExtraKey = fig.Key == keyCreated, fig.Key == keyExtra
		for _, verb := range sampler.Verbs {
			if s.Rates[verb] > 0 {
				v.Verbs = append(v.Verbs, verbRate{verb, s.Rates[verb]})
			}
		}
		data.Sides = append(data.Sides, v)
	}
	return data
}

// sayLine is the story's line: the conclusion of the steps just played as
// one, once they are over, or else what to look for in the step.
func sayLine(t Talk, f Frame) string {
	switch {
	case f.Then != "":
		return "↳ " + f.Then
	case f.Say != "":
		return f.Say
	}
	return t.Explain
}

// tick is a label of the chart's time axis: the run's clock, where it
// stands along the axis, in percent.
type tick struct {
	Left  float64
	Label string
}

// chartTicks are the time axis of a chart ending at now: every 20 s of
// the run's clock in the last minute, but those too near an end for their
// label.
func chartTicks(now float64) []tick {
	var out []tick
	for v := math.Ceil((now-chartSeconds)/20) * 20; v <= now; v += 20 {
		left := 100 - (now-v)/chartSeconds*100
		if v < 0 || left < 8 || left > 92 {
			continue
		}
		out = append(out, tick{Left: math.Round(left*10) / 10, Label: fmt.Sprintf("%.0f s", v)})
	}
	return out
}

// count is a tile's count: "–" while the side has nothing to count yet.
func count(s Side, n int) string {
	if s.Idle() {
		return "–"
	}
	return Thousands(n)
}

// Surplus is how many pods the side runs beyond what its controllers want,
// now.
func (s Side) Surplus() int { return max(0, s.Active-s.Desired) }

// chipText names the phase on the page: a ready frame says "press Enter"
// only when the run waits for it.
func chipText(f Frame) string {
	if f.Phase == PhaseReady {
		if f.Wait {
			return "next: press Enter"
		}
		return "next"
	}
	return f.Phase
}

// stepLine says which step, or steps played as one, the frame is at.
func stepLine(f Frame) string {
	switch {
	case f.Step == 0:
		return fmt.Sprintf("%d steps", f.Steps)
	case f.From > 0 && f.From < f.Step:
		return fmt.Sprintf("Steps %d–%d of %d: %s", f.From, f.Step, f.Steps, f.Title)
	}
	return fmt.Sprintf("Step %d of %d: %s", f.Step, f.Steps, f.Title)
}

// chartLabel names the figure's line on the chart: the goroutine count
// for a peak of goroutines.
func chartLabel(fig Figure) string {
	if fig.Key == keyPeakGoroutines {
		return "goroutines"
	}
	return fig.Label
}

// FigureRow is the results' value of the figure for side i, as the table
// prints it; empty until the results are in, or when no row reports it.
// A left side with no such thing as the figure counts says so.
func FigureRow(fig Figure, rows []Row, i int) string {
	for _, r := range rows {
		if fig.Row != "" && r.Name == fig.Row {
			if i == 0 {
				if r.Missing != "" {
					return "none"
				}
				return r.Legacy
			}
			return r.Modern
		}
	}
	return ""
}

// figureText is the value of a side's figure tile: as the results table
// has it once it is in, as measured so far before.
func figureText(fig Figure, s Side, row string) string {
	if row != "" {
		return row
	}
	return FormatFigure(s.Fig)
}

func (p *page) state(w http.ResponseWriter, r *http.Request) {
	_, data, _ := p.hub.current()
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	w.Write(data)
}

// events streams frames: first a "chart" event with the last minute of the
// chart, then every frame as it is made. With ?frames=N the stream ends
// after N frames with a "bye" event, on which the page stops listening: a
// headless browser taking a screenshot waits for every request to end.
func (p *page) events(w http.ResponseWriter, r *http.Request) {
	limit := -1
	if v := r.URL.Query().Get("frames"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 {
			http.Error(w, "frames must be a positive number of frames", http.StatusBadRequest)
			return
		}
		limit = n
	}
	flusher, ok := w.(http.Flusher)
	if !ok {
		http.Error(w, "streaming is not supported by this connection", http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-store")
	w.Header().Set("X-Accel-Buffering", "no")
	history, _ := json.Marshal(p.hub.chart())
	fmt.Fprintf(w, "retry: 1000\nevent: chart\ndata: %s\n\n", history)
	for sent := 0; ; sent++ {
		if sent == limit {
			fmt.Fprint(w, "event: bye\ndata: {}\n\n")
			flusher.Flush()
			return
		}
		_, data, changed := p.hub.current()
		fmt.Fprintf(w, "data: %s\n\n", data)
		flusher.Flush()
		select {
		case <-r.Context().Done():
			return
		case <-p.closing:
			return
		case <-changed:
		}
	}
}

// serve listens on addr, or on any free loopback port when addr is taken,
// and serves the page until stop is called.
func (p *page) serve(addr string) (stop func(), err error) {
	l, err := net.Listen("tcp", addr)
	if err != nil {
		var err2 error
		if l, err2 = net.Listen("tcp", "127.0.0.1:0"); err2 != nil {
			return nil, err
		}
	}
	p.url = "http://" + l.Addr().String() + "/"
	p.closing = make(chan struct{})
	srv := &http.Server{Handler: p.routes(), ReadHeaderTimeout: 10 * time.Second}
	done := make(chan struct{})
	go func() {
		defer close(done)
		srv.Serve(l)
	}()
	return func() {
		close(p.closing)
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		if srv.Shutdown(ctx) != nil {
			srv.Close()
		}
		<-done
	}, nil
}
