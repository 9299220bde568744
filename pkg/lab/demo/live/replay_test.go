package live

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/kube-rewind/kube-rewind/pkg/lab/demo"
	"github.com/kube-rewind/kube-rewind/pkg/lab/testutil"
)

// talkDir holds the recordings that ship for speakers without a cluster.
const talkDir = "../../../../examples/talk"

func TestAHoldOutlastsAnInputThatEnds(t *testing.T) {
	// rcbench replay -auto -hold=20s FILE </dev/null: the input ends at
	// once, and the results must stay up for the hold all the same.
	d := &show{opts: Options{Auto: true, Hold: time.Hour, In: strings.NewReader("")}, con: &console{w: &bytes.Buffer{}}}
	d.lines = readLines(d.opts.In, make(chan struct{}))
	ctx, cancel := context.WithCancel(context.Background())
	ended := make(chan error, 1)
	go func() { ended <- d.holdEnd(ctx) }()
	select {
	case err := <-ended:
		t.Fatalf("the hold ended (%v) when the input did", err)
	case <-time.After(300 * time.Millisecond):
	}
	cancel()
	if err := <-ended; err != context.Canceled {
		t.Errorf("holdEnd after Ctrl-C = %v", err)
	}
}

func TestAReplayPausesBeforeEachStepAndEndsOnTheRecordedCounts(t *testing.T) {
	file := filepath.Join(talkDir, "two-managers.html")
	rec, err := demo.ReadRecording(file)
	if err != nil {
		t.Fatal(err)
	}
	last := rec.Frames[len(rec.Frames)-1]
	// Step 3 follows step 2 at once: creating the controller is over in
	// well under a second.
	if got := fmt.Sprint(demo.Pauses(rec.Frames)); got != "[1 2]" {
		t.Fatalf("the replay pauses before steps %s, want [1 2]", got)
	}
	enter, press := io.Pipe()
	out := &testutil.Buffer{}
	urls := make(chan string, 1)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	result := make(chan error, 1)
	go func() {
		result <- Replay(ctx, rec, ReplayOptions{Speed: 20, Addr: "127.0.0.1:0", Out: out, In: enter,
			PageReady: func(url string) { urls <- url }})
	}()
	url := <-urls
	steps := last.Steps
	for _, step := range demo.Pauses(rec.Frames) {
		waitFrame(t, url, fmt.Sprintf("the pause before step %d", step), func(f demo.Frame) bool {
			return f.Phase == demo.PhaseReady && f.Step == step
		})
		// Nothing moves on without Enter.
		time.Sleep(300 * time.Millisecond)
		if f, err := frameAt(url); err != nil || f.Phase != demo.PhaseReady || f.Step != step {
			t.Fatalf("without Enter the replay went on to phase %q step %d (%v)", f.Phase, f.Step, err)
		}
		fmt.Fprintln(press)
	}
	waitFrame(t, url, "the results", func(f demo.Frame) bool { return f.Phase == demo.PhaseDone && len(f.Results) > 0 })
	f, err := frameAt(url)
	if err != nil {
		t.Fatal(err)
	}
	for i := range f.Sides {
		if f.Sides[i].Created != last.Sides[i].Created || f.Sides[i].Running != last.Sides[i].Running {
			t.Errorf("side %d ends with %d created and %d running; the recording, %d and %d", i,
				f.Sides[i].Created, f.Sides[i].Running, last.Sides[i].Created, last.Sides[i].Running)
		}
	}
	fmt.Fprintln(press)
	if err := <-result; err != nil {
		t.Fatalf("Replay: %v\n%s", err, out)
	}
	text := out.String()
	for _, want := range []string{"Live page: http://127.0.0.1:", "A recording of two-managers", fmt.Sprintf("Steps 2–%d of %d", steps, steps), "at once", "Both 2014 managers created the pods", "Results, side by side", "showed what its design must"} {
		if !bytes.Contains([]byte(text), []byte(want)) {
			t.Errorf("the narration lacks %q:\n%s", want, text)
		}
	}
}

func frameAt(url string) (demo.Frame, error) {
	var f demo.Frame
	resp, err := http.Get(url + "state.json")
	if err != nil {
		return f, err
	}
	defer resp.Body.Close()
	return f, json.NewDecoder(resp.Body).Decode(&f)
}

// waitFrame polls the page's state until cond holds.
func waitFrame(t *testing.T, url, what string, cond func(demo.Frame) bool) {
	t.Helper()
	deadline := time.Now().Add(2 * time.Minute)
	var last demo.Frame
	for time.Now().Before(deadline) {
		f, err := frameAt(url)
		if err == nil && cond(f) {
			return
		}
		last = f
		time.Sleep(100 * time.Millisecond)
	}
	t.Fatalf("gave up waiting for %s; last frame: phase %s step %d sides %+v", what, last.Phase, last.Step, last.Sides)
}
