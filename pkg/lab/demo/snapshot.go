package demo

import (
	"context"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/kube-rewind/kube-rewind/pkg/lab/sampler"
	"github.com/kube-rewind/kube-rewind/pkg/lab/scenario"
	"github.com/kube-rewind/kube-rewind/pkg/lab/stats"
)

// Side is what the page and the terminal show of one design at one moment.
// The JSON names are short because a frame goes to every open page four
// times a second.
type Side struct {
	// Name is the variant: legacy or modern.
	Name string `json:"name"`
	// Ready is false until the design's cluster is up.
	Ready bool `json:"ready"`
	// Pods by state: unscheduled, waiting, running, terminated.
	Unscheduled int `json:"u"`
	Waiting     int `json:"w"`
	Running     int `json:"r"`
	Terminated  int `json:"x"`
	// Active is every pod that has not terminated.
	Active int `json:"a"`
	// Desired is the sum of the replication controllers' replicas.
	Desired int `json:"d"`
	// Created and Deleted count pods since the cluster started.
	Created int `json:"cr"`
	Deleted int `json:"dl"`
	// Extra counts pods created beyond need: beyond every rise of Desired
	// and the replacements of pods that others deleted. It is the live
	// form of the scenarios' extra_pods. The surplus now, Active less
	// Desired, is another figure: pods created beyond need may since have
	// been deleted.
	Extra int `json:"ex"`
	// Goroutines of the controller-managers now, and at their peak.
	Goroutines     int `json:"go"`
	PeakGoroutines int `json:"pg"`
	// Rates are the controller-managers' requests per second by verb, as
	// the apiserver counted them over the last few seconds; Requests the
	// total since the start.
	Rates    map[string]float64 `json:"rq"`
	Requests int                `json:"tq"`
	// Totals are the managers' requests by verb since the start, as the
	// apiserver counted them.
	Totals map[string]int `json:"tv,omitempty"`
	// Replacement is the median time, in seconds, from a pod's deletion to
	// its replacement running, over every replacement so far (the churn
	// scenario's replacement_p50); none (-1) before the first.
	Replacement float64 `json:"rp,omitempty"`
	// ListsLastMin counted the managers' LISTs of the last minute (since
	// the start, in the first minute); recordings made before frames
	// carried Totals have it, and the figurer rebuilds Totals from it.
	ListsLastMin int `json:"lm,omitempty"`
	// PodPosts counts the managers' pod creates; FailedPosts those the
	// apiserver refused.
	PodPosts    int `json:"pp"`
	FailedPosts int `json:"pf"`
	// Fig is the figure the scenario is about (Talk.Figure), as measured
	// so far; none (-1) before there is anything to count.
	Fig float64 `json:"f"`
	// Grid is every pod's state, oldest first, run-length encoded: "r120w3u40"
	// is 120 running, 3 waiting, 40 unscheduled (x: terminated).
	Grid string `json:"g"`
	// Cells is how many squares the grid leaves room for: the most pods
	// or replicas seen so far, so the squares do not jump in size.
	Cells int `json:"n"`
}

// rateWindow is how far back a request rate looks. The 2014 manager's
// LISTs come in a burst every tick; five seconds shows the bursts without
// smearing a scale-up's POSTs over a whole period.
const rateWindow = 5.0

// stateCode is the grid letter of each pod state.
var stateCode = map[string]byte{
	sampler.StateUnscheduled: 'u',
	sampler.StateWaiting:     'w',
	sampler.StateRunning:     'r',
	sampler.StateTerminated:  'x',
}

// encodeGrid run-length encodes pod states.
func encodeGrid(pods []sampler.PodState) string {
	var b strings.Builder
	var cur byte
	n := 0
	flush := func() {
		if n > 0 {
			b.WriteByte(cur)
			b.WriteString(strconv.Itoa(n))
		}
	}
	for _, p := range pods {
		c := stateCode[p.State]
		if c == 0 {
			c = 'w'
		}
		if c != cur {
			flush()
			cur, n = c, 0
		}
		n++
	}
	flush()
	return b.String()
}

// run is one stretch of squares of one state.
type run struct {
	State byte
	N     int
}

// decodeGrid reverses encodeGrid; malformed input yields what parsed.
func decodeGrid(s string) []run {
	var out []run
	for i := 0; i < len(s); {
		c := s[i]
		j := i + 1
		for j < len(s) && s[j] >= '0' && s[j] <= '9' {
			j++
		}
		n, err := strconv.Atoi(s[i+1 : j])
		if err != nil {
			break
		}
		out = append(out, run{c, n})
		i = j
	}
	return out
}

// side follows one design's cluster for the page. The sampler does the
// measuring; the side adds how many pods are wanted, read from the
// replication controllers, and from that how many pods were created beyond
// need.
type side struct {
	name string

	mu  sync.Mutex
	env *scenario.Env
	// closed is set once the cluster is stopped: the last figures stay.
	closed bool
	last   Side
	// desired is the last sum of replicas seen; wanted adds up every rise
	// of it, the pods the managers had to create for the controllers.
	desired, wanted, extra int
	// counts are the pods as read just before that sum, so that the two
	// agree; listed says a sum has been read.
	counts       sampler.PodCounts
	listed       bool
	cells        int
	stopCh, done chan struct{}
}

// attach starts following env.
func (s *side) attach(env *scenario.Env) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.env = env
	s.stopCh, s.done = make(chan struct{}), make(chan struct{})
	go s.follow(env, s.stopCh, s.done)
}

// detach stops reading the cluster, before it is stopped; the last
// figures stay on the page.
func (s *side) detach() {
	s.mu.Lock()
	stopCh, done := s.stopCh, s.done
	s.stopCh, s.closed = nil, true
	s.mu.Unlock()
	if stopCh != nil {
		close(stopCh)
		<-done
	}
}

// follow reads the controllers' replicas over and over, one LIST at a
// time, so that a busy apiserver slows only this, never the page. The
// LIST goes out as the "scenario" client, which the apiserver does not
// count as the managers' work.
func (s *side) follow(env *scenario.Env, stopCh <-chan struct{}, done chan<- struct{}) {
	defer close(done)
	for {
		// The pods are read before the controllers: every pod counted was
		// created for a controller the list then shows, so a pod is never
		// taken for an extra one because its controller is not seen yet.
		c := env.Sampler.Pods.Counts()
		managerDeletes := int(env.Sampler.Rec.Last(sampler.ManagerRequests + "DELETE"))
		desired, err := env.Cluster.Desired(context.Background())
		if err == nil {
			s.mu.Lock()
			if desired > s.desired {
				s.wanted += desired - s.desired
			}
			s.desired = desired
			s.counts, s.listed = c, true
			// Pods deleted by someone other than the managers (churn) had
			// to be replaced, so their replacements are not extra. The
			// managers' DELETEs, 404s included, can outnumber the
			// deletions seen: then nobody else deleted any.
			others := max(0, c.Deleted-managerDeletes)
			s.extra = max(0, c.Created-s.wanted-others)
			s.mu.Unlock()
		}
		select {
		case <-stopCh:
			return
		case <-time.After(FrameEvery):
		}
	}
}

// snapshot reads the side's figures now.
func (s *side) snapshot() Side {
	s.mu.Lock()
	env, closed, last := s.env, s.closed, s.last
	desired, extra, counts, listed := s.desired, s.extra, s.counts, s.listed
	s.mu.Unlock()
	if closed {
		return last
	}
	out := Side{Name: s.name, Rates: map[string]float64{}}
	if env == nil {
		return out
	}
	out.Ready = true
	// The pods counted with the last sum of replicas, not a newer count:
	// pods created since would be set against a sum that does not yet
	// hold their controller ("0/0 running, 1 created, 1 extra"). The
	// figures trail the cluster by at most a frame.
	c := counts
	if !listed {
		c = env.Sampler.Pods.Counts()
	}
	out.Unscheduled, out.Waiting, out.Running, out.Terminated = c.Unscheduled, c.Waiting, c.Running, c.Terminated
	out.Active, out.Created, out.Deleted = c.Active, c.Created, c.Deleted
	out.Desired, out.Extra = desired, extra
	rec := env.Sampler.Rec
	out.Goroutines = int(rec.Last(sampler.ManagerGoroutines))
	out.PeakGoroutines = int(rec.Max(sampler.ManagerGoroutines))
	total := 0.0
	out.Totals = map[string]int{}
	for _, verb := range sampler.Verbs {
		series := rec.Series(sampler.ManagerRequests + verb)
		out.Rates[verb] = rate(series, rateWindow)
		if len(series) > 0 {
			total += series[len(series)-1].V
			out.Totals[verb] = int(series[len(series)-1].V)
		}
	}
	out.Requests = int(total)
	out.Replacement = none
	if lat := env.Sampler.Pods.ReplacementLatencies(); len(lat) > 0 {
		secs := make([]float64, len(lat))
		for i, d := range lat {
			secs[i] = d.Seconds()
		}
		out.Replacement = stats.Median(secs)
	}
	posts := rec.Last(sampler.ManagerPodPosts)
	out.PodPosts = int(posts)
	out.FailedPosts = int(posts - rec.Last(sampler.ManagerPodPostsOK))
	states := env.Sampler.Pods.States()
	out.Grid = encodeGrid(states)

	s.mu.Lock()
	defer s.mu.Unlock()
	for _, n := range []int{len(states), desired} {
		if n > s.cells {
			s.cells = n
		}
	}
	out.Cells = s.cells
	s.last = out
	return out
}

// rate is the growth per second of a cumulative series over about the
// last window seconds.
func rate(series []sampler.Point, window float64) float64 {
	if len(series) < 2 {
		return 0
	}
	last := series[len(series)-1]
	i := len(series) - 2
	for i > 0 && last.T-series[i].T < window {
		i--
	}
	base := series[i]
	if last.T <= base.T {
		return 0
	}
	v := (last.V - base.V) / (last.T - base.T)
	if v < 0 {
		return 0
	}
	return v
}
