package demo

import (
	"context"
	_ "embed"
	"encoding/json"
	"fmt"
	"html/template"
	"net"
	"net/http"
	"strconv"
	"time"

	"github.com/kube-rewind/kube-rewind/pkg/lab/sampler"
	"github.com/kube-rewind/kube-rewind/pkg/lab/scenario"
)

//go:embed assets/page.html
var pageHTML string

//go:embed assets/page.js
var pageJS string

var pageTemplate = template.Must(template.New("page").Funcs(template.FuncMap{
	"svg":       func(s string) template.HTML { return template.HTML(s) },
	"js":        func(s string) template.JS { return template.JS(s) },
	"thousands": thousands,
	"rate":      func(v float64) string { return formatRate(v) },
}).Parse(pageHTML))

// designs are the headings of the two columns and the names the
// terminal gives them.
var designs = []Design{
	{Heading: "2014", Sub: "v0.4: a watch, a LIST every 10 s, a goroutine per pod", Short: "2014", Variant: scenario.Legacy, Expect: scenario.Legacy.Name},
	{Heading: "Today", Sub: "informers, workqueue, expectations, slow start", Short: "today", Variant: scenario.Modern, Expect: scenario.Modern.Name},
}

// Design is how the page and the terminal name one side.
type Design struct {
	Heading string `json:"heading"`
	Sub     string `json:"sub"`
	// Short names the side in the terminal's counters and notes.
	Short string `json:"short"`
	// Variant is what a live run starts for the side; Expect names the
	// variant whose expectation (Scenario.Expect) it is checked against,
	// none when empty. A recording needs neither.
	Variant scenario.Variant `json:"-"`
	Expect  string           `json:"-"`
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
}

// talkOf describes a live run of sc at size sz.
func talkOf(sc *scenario.Scenario, sz scenario.Size, designs []Design) Talk {
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
	// Second is the second tile: the scenario's figure, or goroutines when
	// the figure (pods created) has a tile of its own.
	Second, SecondLabel string
	PodsLine, FigLine   string
	Verbs               []verbRate
}

type verbRate struct {
	Verb string
	Rate float64
}

type pageData struct {
	Talk  Talk
	URL   string
	Frame Frame
	Sides []sideView
	// PodsTop and FigTop are the tops of the chart's scales.
	PodsTop string
	FigTop  string
	States  []legendEntry
	Script  string
	// Recording, in a page that plays a recording by itself, is the
	// recording as JSON; the page then needs no server.
	Recording string
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
	data.URL = p.url
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
	fig := talk.Figure.Key
	data := pageData{
		Talk:    talk,
		Frame:   frame,
		PodsTop: thousands(int(podsTop)),
		FigTop:  formatFigure(fig, figTop),
		Script:  pageJS,
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
		}
		v.Second, v.SecondLabel = secondTile(talk.Figure, s)
		for _, verb := range sampler.Verbs {
			v.Verbs = append(v.Verbs, verbRate{verb, s.Rates[verb]})
		}
		data.Sides = append(data.Sides, v)
	}
	return data
}

// secondTile is the value and label of a side's second tile.
func secondTile(fig Figure, s Side) (value, label string) {
	if fig.Key == figureCreated.Key {
		fig = figureGoroutines
	}
	return formatFigure(fig.Key, figureValue(fig.Key, s)), fig.Label
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
