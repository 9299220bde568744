package demo

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/kube-rewind/kube-rewind/pkg/lab/scenario/scripts"
)

// fixedPage serves a page whose two sides show fixed figures, without
// clusters: each side is closed, so it keeps returning its last figures.
func fixedPage(t *testing.T) (*page, *hub, *httptest.Server) {
	t.Helper()
	sc, err := scripts.Get("two-managers")
	if err != nil {
		t.Fatal(err)
	}
	talk := TalkOf(sc, sc.Sizes(true, false)[0], Designs)
	h := newHub(3, talk.Figure.Key)
	h.sides[0].closed, h.sides[0].last = true, Side{Name: "legacy", Ready: true, Running: 38, Waiting: 2, Active: 40, Desired: 20, Created: 40, Extra: 20, Goroutines: 106, Rates: map[string]float64{"POST": 16}, Grid: "r38w2", Cells: 40}
	h.sides[1].closed, h.sides[1].last = true, Side{Name: "modern", Ready: true, Running: 20, Active: 20, Desired: 20, Created: 20, Goroutines: 110, Rates: map[string]float64{}, Grid: "r20", Cells: 20}
	h.update(func(f *Frame) {
		f.Phase, f.Step, f.Title, f.Say = PhaseRunning, 2, "Create a controller of 20", "One controller asks for 20 pods."
	})
	p := &page{hub: h, talk: talk, url: "http://127.0.0.1:7014/", closing: make(chan struct{})}
	go h.run()
	srv := httptest.NewServer(p.routes())
	t.Cleanup(func() {
		close(p.closing)
		srv.Close()
		h.stop()
	})
	return p, h, srv
}

func get(t *testing.T, url string) (*http.Response, string) {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp, string(body)
}

func TestThePageShowsBothDesignsWithoutJavaScript(t *testing.T) {
	_, _, srv := fixedPage(t)
	resp, body := get(t, srv.URL+"/")
	if resp.StatusCode != http.StatusOK || !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/html") {
		t.Fatalf("GET / = %s %s", resp.Status, resp.Header.Get("Content-Type"))
	}
	for _, want := range []string{
		"Two controller-managers on one controller",
		"(history: leader-election)",
		"Step 2 of 3: Create a controller of 20",
		"One controller asks for 20 pods.",
		">2014<", ">Today<",
		`fill="url(#s0r)"`, `fill="url(#s1r)"`, `fill="url(#s0w)"`,
		`<polyline`,
		`http-equiv="refresh"`,
		"unscheduled", "waiting", "running", "terminated",
	} {
		if !strings.Contains(body, want) {
			t.Errorf("the page lacks %q", want)
		}
	}
	for _, banned := range []string{"http://", "https://"} {
		for _, line := range strings.Split(body, "\n") {
			if strings.Contains(line, banned) && !strings.Contains(line, "127.0.0.1:7014") {
				t.Errorf("the page refers to something outside itself: %s", strings.TrimSpace(line))
			}
		}
	}
}

func TestThePageAnswersOnlyWhatItServes(t *testing.T) {
	_, _, srv := fixedPage(t)
	for _, tc := range []struct {
		method, path string
		want         int
	}{
		{"GET", "/nothing-here", http.StatusNotFound},
		{"POST", "/", http.StatusMethodNotAllowed},
		{"GET", "/events?frames=0", http.StatusBadRequest},
		{"GET", "/events?frames=many", http.StatusBadRequest},
		{"GET", "/state.json", http.StatusOK},
	} {
		t.Run(tc.method+" "+tc.path, func(t *testing.T) {
			req, _ := http.NewRequest(tc.method, srv.URL+tc.path, nil)
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
			if resp.StatusCode != tc.want {
				t.Errorf("%s %s = %d, want %d", tc.method, tc.path, resp.StatusCode, tc.want)
			}
		})
	}
}

func TestAStillPictureGetsTheChartThenFramesThenBye(t *testing.T) {
	_, _, srv := fixedPage(t)
	resp, body := get(t, srv.URL+"/events?frames=2")
	if ct := resp.Header.Get("Content-Type"); ct != "text/event-stream" {
		t.Fatalf("Content-Type %q", ct)
	}
	events := strings.Split(strings.TrimSpace(body), "\n\n")
	if len(events) != 4 {
		t.Fatalf("%d events, want chart, 2 frames and bye:\n%s", len(events), body)
	}
	if !strings.Contains(events[0], "event: chart") || !strings.Contains(events[3], "event: bye") {
		t.Errorf("first and last events: %q, %q", events[0], events[3])
	}
	var f Frame
	if err := json.Unmarshal([]byte(strings.TrimPrefix(events[1], "data: ")), &f); err != nil {
		t.Fatalf("frame is not JSON: %v\n%s", err, events[1])
	}
	if len(f.Sides) != 2 || f.Sides[0].Grid != "r38w2" || f.Sides[1].Running != 20 || f.Step != 2 {
		t.Errorf("frame = %+v", f)
	}
	if len(events[1]) > 2000 {
		t.Errorf("a frame of 60 pods takes %d bytes", len(events[1]))
	}
}

func TestTheStreamDeliversEveryChangeAsItHappens(t *testing.T) {
	_, h, srv := fixedPage(t)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, "GET", srv.URL+"/events", nil)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	h.update(func(f *Frame) { f.Title = "a new step" })
	lines := bufio.NewScanner(resp.Body)
	lines.Buffer(nil, 1<<20)
	for lines.Scan() {
		line := lines.Text()
		if strings.HasPrefix(line, "data: ") && strings.Contains(line, `"title":"a new step"`) {
			return
		}
	}
	t.Fatalf("the stream ended without the new step: %v", lines.Err())
}
