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
	"testing"
	"time"

	"github.com/kube-rewind/kube-rewind/pkg/lab/testutil"
)

// talkDir holds the recordings that ship for speakers without a cluster.
const talkDir = "../../../examples/talk"

// maxRecording is the most a shipped recording, or its page, may weigh.
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
	h := newHub(3, figureCreated.Key)
	h.sides[0].closed, h.sides[0].last = true, Side{Name: "legacy", Ready: true, Running: 20, Grid: "r20", Cells: 40}
	h.sides[1].closed, h.sides[1].last = true, Side{Name: "modern", Ready: true, Running: 20, Grid: "r20", Cells: 20}
	h.refresh()
	f, _, _ := h.current()
	if f.Sides[0].Cells != 40 || f.Sides[1].Cells != 40 {
		t.Errorf("room for %d and %d squares; want 40 on both sides, so that a square is the same size", f.Sides[0].Cells, f.Sides[1].Cells)
	}
}

func TestEveryLabelOnThePageIsAtLeast20Pixels(t *testing.T) {
	// Read from the back of a room, at 1280×720, nothing smaller works.
	sizes := regexp.MustCompile(`font(?:-size)?:[^;]*?(\d+)px`).FindAllStringSubmatch(pageHTML, -1)
	if len(sizes) < 10 {
		t.Fatalf("found only %d font sizes in the page's style", len(sizes))
	}
	for _, m := range sizes {
		if px, _ := strconv.Atoi(m[1]); px < 20 {
			t.Errorf("%s: under 20 px", m[0])
		}
	}
}

func TestTheShippedRecordingsPlayAndTheirPagesAreCurrent(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join(talkDir, "*.json"))
	if len(files) == 0 {
		t.Fatalf("no recordings in %s", talkDir)
	}
	for _, file := range files {
		t.Run(filepath.Base(file), func(t *testing.T) {
			rec, err := ReadRecording(file)
			if err != nil {
				t.Fatal(err)
			}
			html, err := os.ReadFile(HTMLFile(file))
			if err != nil {
				t.Fatalf("the page that plays it: %v", err)
			}
			want, err := rec.HTML()
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(html, want) {
				t.Errorf("%s is not what the page is now: rcbench replay -html %s renews it", HTMLFile(file), file)
			}
			for _, f := range []string{file, HTMLFile(file)} {
				if fi, err := os.Stat(f); err == nil && fi.Size() > maxRecording {
					t.Errorf("%s weighs %d bytes, over 1 MB", f, fi.Size())
				}
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

func TestAReplayPausesBeforeEachStepAndEndsOnTheRecordedCounts(t *testing.T) {
	file := filepath.Join(talkDir, "two-managers.json")
	rec, err := ReadRecording(file)
	if err != nil {
		t.Fatal(err)
	}
	last := rec.Frames[len(rec.Frames)-1]
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
	for step := 1; step <= steps; step++ {
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
	for _, want := range []string{"Live page: http://127.0.0.1:", "A recording of two-managers", fmt.Sprintf("Step %d of %d", steps, steps), "Results, side by side", "showed what its design must"} {
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
