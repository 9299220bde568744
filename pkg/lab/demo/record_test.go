package demo

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/kube-rewind/kube-rewind/pkg/lab/scenario"
	"github.com/kube-rewind/kube-rewind/pkg/lab/testutil"
)

// talkDir holds the recordings that ship for speakers without a cluster.
const talkDir = "../../../examples/talk"

// maxRecording is the most a shipped recording's page may weigh.
const maxRecording = 1 << 20

func TestARecordingKeepsOneFrameOfEachPause(t *testing.T) {
	r := &recorder{}
	sides := []Side{{Name: "legacy", Ready: true}, {Name: "modern", Ready: true}}
	for i, f := range []Frame{
		{T: 0, Phase: PhaseStarting},
		{T: 1, Phase: PhaseStarting},
		{T: 2, Phase: PhaseReady, Step: 1, Sides: sides},
		{T: 3, Phase: PhaseReady, Step: 1, Sides: sides},
		{T: 9, Phase: PhaseRunning, Step: 1, Sides: sides},
		{T: 10, Phase: PhaseRunning, Step: 1, Sides: sides},
		{T: 11, Phase: PhaseDone, Step: 1, Sides: sides},
		{T: 12, Phase: PhaseDone, Step: 1, Sides: sides},
	} {
		f.Title = strconv.Itoa(i)
		r.add(f)
	}
	var kept []float64
	for _, f := range r.recording(Talk{}, nil, nil).Frames {
		kept = append(kept, f.T)
	}
	if fmt.Sprint(kept) != "[0 2 9 10 11]" {
		t.Errorf("kept the frames at %v s, want [0 2 9 10 11]: one of each pause, every one of a step", kept)
	}
}

func TestBothSidesDrawPodsAsSquaresOfOneSize(t *testing.T) {
	h := newHub(3, keyCreated)
	h.sides[0].closed, h.sides[0].last = true, Side{Name: "legacy", Ready: true, Running: 20, Grid: "r20", Cells: 40}
	h.sides[1].closed, h.sides[1].last = true, Side{Name: "modern", Ready: true, Running: 20, Grid: "r20", Cells: 20}
	h.refresh()
	f, _, _ := h.current()
	if f.Sides[0].Cells != 40 || f.Sides[1].Cells != 40 {
		t.Errorf("room for %d and %d squares; want 40 on both sides, so that a square is the same size", f.Sides[0].Cells, f.Sides[1].Cells)
	}
}

// shippedRecordings are the recordings' pages in examples/talk: every
// page there named after a scenario.
func shippedRecordings(t *testing.T) []string {
	t.Helper()
	files, _ := filepath.Glob(filepath.Join(talkDir, "*.html"))
	var out []string
	for _, f := range files {
		if _, err := scenario.Get(strings.TrimSuffix(filepath.Base(f), ".html")); err == nil {
			out = append(out, f)
		}
	}
	if len(out) == 0 {
		t.Fatalf("no recordings in %s", talkDir)
	}
	return out
}

func TestEveryLabelIsAtLeastTheRootSizeWhichFollowsTheWindow(t *testing.T) {
	// Read from the back of a room, nothing under 3.3 % of the window's
	// height: the root size is 3.4 % of it (2.55 % of the width of a
	// window narrower than 4:3), and no text of the projected page is
	// smaller than it. The browser tests measure it on every slide.
	if !strings.Contains(pageHTML, "font-size: calc(var(--scale) * min(3.4vh, 2.55vw))") {
		t.Fatalf("the root size does not follow the window (3.4vh is 24.5 px of 720, 2.55vw 26.1 px of 1024)")
	}
	style := pageHTML[:strings.Index(pageHTML, "</style>")]
	sizes := regexp.MustCompile(`font(?:-size)?:[^;]*?([0-9.]+)(px|rem|em|%)`).FindAllStringSubmatch(style, -1)
	if len(sizes) < 10 {
		t.Fatalf("found only %d font sizes in the page's style", len(sizes))
	}
	for _, m := range sizes {
		if v, _ := strconv.ParseFloat(m[1], 64); m[2] != "rem" || v < 1 {
			t.Errorf("%s: not in rem, or under the root size", m[0])
		}
	}
}

func TestTheShippedRecordingsPlayAndTheirPagesAreCurrent(t *testing.T) {
	for _, file := range shippedRecordings(t) {
		t.Run(filepath.Base(file), func(t *testing.T) {
			rec, err := ReadRecording(file)
			if err != nil {
				t.Fatal(err)
			}
			html, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			want, err := rec.HTML()
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(html, want) {
				t.Errorf("%s is not what the page is now: rcbench replay -html %s %s renews it", file, file, file)
			}
			if len(html) > maxRecording {
				t.Errorf("%s weighs %d bytes, over 1 MB", file, len(html))
			}
			for _, bad := range []string{"http://", "https://", "src=", "href="} {
				if bytes.Contains(html, []byte(bad)) {
					t.Errorf("the page refers to something outside itself (%q)", bad)
				}
			}
			last := rec.Frames[len(rec.Frames)-1]
			if last.Phase != PhaseDone || len(last.Results) == 0 || len(rec.Results) == 0 {
				t.Errorf("the recording ends in phase %q with %d results: it should end on the results", last.Phase, len(rec.Results))
			}
		})
	}
}

func TestARecordingReadsFromItsPageOrItsJSONAlike(t *testing.T) {
	rec, err := ReadRecording(filepath.Join(talkDir, "two-managers.html"))
	if err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(t.TempDir(), "two-managers.json")
	if err := rec.Save(file); err != nil {
		t.Fatal(err)
	}
	again, err := ReadRecording(file)
	if err != nil {
		t.Fatal(err)
	}
	a, _ := rec.Marshal()
	b, _ := again.Marshal()
	if !bytes.Equal(a, b) {
		t.Errorf("the recording read from JSON differs from the one read from its page")
	}
	if _, err := ReadRecording(filepath.Join(talkDir, "20-minutes.html")); err == nil || !strings.Contains(err.Error(), "deck") {
		t.Errorf("reading a deck as a recording = %v, want an error saying it is a deck", err)
	}
}

func TestAReplayPausesBeforeEachStepAndEndsOnTheRecordedCounts(t *testing.T) {
	file := filepath.Join(talkDir, "two-managers.html")
	rec, err := ReadRecording(file)
	if err != nil {
		t.Fatal(err)
	}
	last := rec.Frames[len(rec.Frames)-1]
	// Step 3 follows step 2 at once: creating the controller is over in
	// well under a second.
	if got := fmt.Sprint(pauses(rec.Frames)); got != "[1 2]" {
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
	for _, step := range pauses(rec.Frames) {
		waitFrame(t, url, fmt.Sprintf("the pause before step %d", step), func(f Frame) bool {
			return f.Phase == PhaseReady && f.Step == step
		})
		// Nothing moves on without Enter.
		time.Sleep(300 * time.Millisecond)
		if f, err := frameAt(url); err != nil || f.Phase != PhaseReady || f.Step != step {
			t.Fatalf("without Enter the replay went on to phase %q step %d (%v)", f.Phase, f.Step, err)
		}
		fmt.Fprintln(press)
	}
	waitFrame(t, url, "the results", func(f Frame) bool { return f.Phase == PhaseDone && len(f.Results) > 0 })
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

func frameAt(url string) (Frame, error) {
	var f Frame
	resp, err := http.Get(url + "state.json")
	if err != nil {
		return f, err
	}
	defer resp.Body.Close()
	return f, json.NewDecoder(resp.Body).Decode(&f)
}

// waitFrame polls the page's state until cond holds.
func waitFrame(t *testing.T, url, what string, cond func(Frame) bool) {
	t.Helper()
	deadline := time.Now().Add(2 * time.Minute)
	var last Frame
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

func TestAFileThatIsNotARecordingIsRefusedByName(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct{ name, body, want string }{
		{"not-json", "<html>", "is not a talk recording"},
		{"other-format", `{"format":"something else","frames":[]}`, `its format is "something else"`},
		{"empty", `{"format":"` + RecordingFormat + `","frames":[]}`, "nothing to play"},
	} {
		file := filepath.Join(dir, tc.name+".json")
		if err := os.WriteFile(file, []byte(tc.body), 0o644); err != nil {
			t.Fatal(err)
		}
		if _, err := ReadRecording(file); err == nil || !bytes.Contains([]byte(err.Error()), []byte(tc.want)) {
			t.Errorf("%s: ReadRecording = %v, want an error saying %q", tc.name, err, tc.want)
		}
	}
}
