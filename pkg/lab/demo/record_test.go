package demo

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/kube-rewind/kube-rewind/pkg/lab/demo/pagetest"
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
	for _, file := range pagetest.ShippedRecordings(t, talkDir) {
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
