package demo

import "github.com/kube-rewind/kube-rewind/pkg/lab/scenario"

// LivePage is the live page on loopback and the frames it shows, which
// talk mode's run and its replay (pkg/lab/demo/live) drive: they say
// where the talk is (Update), a replay hands it recorded frames
// (Publish), and a live run has it follow both clusters (Attach).
type LivePage struct {
	hub  *hub
	page *page
	rec  *recorder
	live bool
}

// NewLivePage makes the page of talk, of steps steps. A live page
// measures both sides every FrameEvery, from the clusters Attach gives it,
// and fills in each frame's figures; a replay's page shows the frames
// Publish hands it, which carry theirs. With record set, it keeps the
// frames a recording needs (Recording).
func NewLivePage(talk Talk, steps int, live, record bool) *LivePage {
	h := newHub(steps, talk.Figure.Key)
	if live {
		h.figures = newFigurer(talk.Figure, talk.Period, false)
		for i, ds := range talk.Designs {
			h.sides[i].name = ds.Variant.Name
		}
	}
	l := &LivePage{hub: h, page: &page{hub: h, talk: talk}, live: live}
	if record {
		l.rec = &recorder{}
		h.record = l.rec.add
	}
	return l
}

// Serve serves the page on addr, or on any free loopback port when addr
// is taken, and a live page starts measuring, until stop is called.
func (l *LivePage) Serve(addr string) (stop func(), err error) {
	stopPage, err := l.page.serve(addr)
	if err != nil {
		return nil, err
	}
	if !l.live {
		return stopPage, nil
	}
	go l.hub.run()
	return func() {
		l.hub.stop()
		stopPage()
	}, nil
}

// URL is the page's address, once it is served.
func (l *LivePage) URL() string { return l.page.url }

// Update changes the narrative part of the frame and publishes it at once.
func (l *LivePage) Update(f func(*Frame)) { l.hub.update(f) }

// Publish makes f the current frame: a replay's recorded frames.
func (l *LivePage) Publish(f Frame) { l.hub.publish(f) }

// Current is the latest frame.
func (l *LivePage) Current() Frame {
	f, _, _ := l.hub.current()
	return f
}

// Attach has side i (0 is the left) follow the cluster env.
func (l *LivePage) Attach(i int, env *scenario.Env) { l.hub.sides[i].attach(env) }

// Detach stops side i following its cluster; it keeps its last counts.
func (l *LivePage) Detach(i int) { l.hub.sides[i].detach() }

// Recording is what a page made with record kept, with the talk and its
// results; nil for a page that kept nothing.
func (l *LivePage) Recording(rows []Row, vs []Verdict) *Recording {
	if l.rec == nil {
		return nil
	}
	return l.rec.recording(l.page.talk, rows, vs)
}
