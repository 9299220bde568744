package demo

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/kube-rewind/kube-rewind/pkg/lab/demo/pagetest"
)

// sides returns two sides with the given running and desired counts.
func sides(running, desired int) []Side {
	s := Side{Ready: true, Running: running, Active: running, Desired: desired}
	return []Side{s, s}
}

func TestAStepOverAtOnceIsFoldedIntoTheNextAndItsWordsComeAfter(t *testing.T) {
	frames := []Frame{
		{T: 0, Phase: PhaseReady, Step: 1, Title: "Create a controller", Say: "One controller asks for pods.", Sides: sides(0, 0)},
		{T: 5, Phase: PhaseRunning, Step: 1, Title: "Create a controller", Say: "One controller asks for pods.", Sides: sides(0, 0)},
		{T: 5.05, Phase: PhaseRunning, Step: 1, Title: "Create a controller", Say: "One controller asks for pods.", Sides: sides(0, 20)},
		{T: 5.1, Phase: PhaseReady, Step: 2, Title: "Watch", Say: "There were too many.", Sides: sides(0, 20)},
		{T: 9, Phase: PhaseRunning, Step: 2, Title: "Watch", Say: "There were too many.", Sides: sides(3, 20)},
		{T: 19, Phase: PhaseRunning, Step: 2, Title: "Watch", Say: "There were too many.", Sides: sides(20, 20)},
		{T: 19.1, Phase: PhaseDone, Step: 2, Title: "Watch", Say: "There were too many.", Sides: sides(20, 20)},
	}
	out, folded := foldFrames(append([]Frame(nil), frames...))
	if folded != 1 || fmt.Sprint(Pauses(out)) != "[1]" {
		t.Fatalf("folded %d steps, pauses before %v; want step 1 folded into step 2, one pause", folded, Pauses(out))
	}
	for _, f := range out {
		if f.Step == 2 && (f.From != 1 || f.Title != "Create a controller · Watch" || f.Say != "One controller asks for pods.") {
			t.Errorf("a frame of step 2 says %d, %q, %q; want the group's words", f.From, f.Title, f.Say)
		}
		if (f.Then != "") != (f.Phase == PhaseDone) {
			t.Errorf("a %s frame concludes %q: the conclusion comes once the group is over, not before", f.Phase, f.Then)
		}
	}
	if last := out[len(out)-1]; last.Then != "There were too many." || stepLine(last) != "Steps 1–2 of 0: Create a controller · Watch" {
		t.Errorf("the end says %q under %q", last.Then, stepLine(last))
	}

	// A step over as soon, whose pods already run on both sides, has shown
	// its outcome: it keeps its pause.
	frames[2].Sides, frames[3].Sides = sides(20, 20), sides(20, 20)
	if _, folded := foldFrames(append([]Frame(nil), frames...)); folded != 0 {
		t.Errorf("a step that left every pod running was folded")
	}
	// And a step that took a second or more keeps it too.
	frames[2].Sides, frames[3].Sides = sides(0, 20), sides(0, 20)
	frames[3].T = 6.2
	if _, folded := foldFrames(append([]Frame(nil), frames...)); folded != 0 {
		t.Errorf("a step of 1.2 s was folded")
	}
}

func TestTheShippedRecordingsPauseWhereSomethingIsToSee(t *testing.T) {
	for name, want := range map[string]string{
		// Creating the controller is over in 50 ms: the pods come in the
		// next step.
		"two-managers": "[1 2]",
		"scale-up":     "[1]",
		// Controller a's three pods run within half a second: the
		// audience sees them before b comes.
		"overlap": "[1 2]",
		"churn":   "[1 2 3]",
	} {
		rec, err := ReadRecording(filepath.Join(talkDir, name+".html"))
		if err != nil {
			t.Fatal(err)
		}
		if got := fmt.Sprint(Pauses(rec.Frames)); got != want {
			t.Errorf("%s pauses before steps %s, want %s", name, got, want)
		}
	}
}

// TestTheTilesAgreeWithTheTable reads each shipped recording's last frame
// as its tiles show it: the scenario's figure must be the one the results
// table reports (to the precision of a figure computed from the frames of
// a recording made before frames carried it), and the extra pods the
// table's extra pods.
func TestTheTilesAgreeWithTheTable(t *testing.T) {
	for _, file := range pagetest.ShippedRecordings(t, talkDir) {
		rec, err := ReadRecording(file)
		if err != nil {
			t.Fatal(err)
		}
		fig := rec.Talk.Figure
		var done *Frame
		for i := range rec.Frames {
			if rec.Frames[i].Phase == PhaseDone {
				done = &rec.Frames[i]
				break
			}
		}
		if done == nil {
			t.Fatalf("%s: no results", file)
		}
		for i, s := range done.Sides {
			row := FigureRow(fig, rec.Results, i)
			if row == "" {
				t.Errorf("%s: the table has no row %q for the figure %q", file, fig.Row, fig.Label)
				continue
			}
			want, _ := strconv.ParseFloat(strings.ReplaceAll(row, "\u202f", ""), 64)
			switch {
			case s.Fig < 0 && strings.Contains(rec.Derived, "not in this recording"):
				t.Logf("%s: %s is not in the recording; the tile shows the table's %s once it is in", file, fig.Label, row)
			case math.Abs(s.Fig-want) > math.Max(0.1*want, 0.3):
				t.Errorf("%s, side %d: the tile's %s ends on %s, the table says %s", file, i, fig.Label, FormatFigure(s.Fig), row)
			}
			if v := figureText(fig, s, row); v != row {
				t.Errorf("%s: with the results in, the tile shows %s, not the table's %s", file, v, row)
			}
			for _, r := range rec.Results {
				if r.Name == "extra pods" && Thousands(s.Extra) != [2]string{r.Legacy, r.Modern}[i] {
					t.Errorf("%s, side %d: %d extra in all, the table says %s", file, i, s.Extra, [2]string{r.Legacy, r.Modern}[i])
				}
			}
		}
	}
}

func TestAFigureIsNoneBeforeItsStepAndStaysAfter(t *testing.T) {
	fg := newFigurer(Figure{Key: keyListsPerMin, Step: 2}, "10s", false)
	lists := func(n int) []Side {
		s := Side{Ready: true, Totals: map[string]int{"LIST": n}}
		return []Side{s, s}
	}
	var got []string
	for _, f := range []Frame{
		{T: 0, Phase: PhaseRunning, Step: 1, Sides: lists(50)},
		{T: 1, Phase: PhaseRunning, Step: 2, Sides: lists(60)},
		{T: 6, Phase: PhaseRunning, Step: 2, Sides: lists(66)},
		{T: 21, Phase: PhaseRunning, Step: 2, Sides: lists(84)},
		{T: 22, Phase: PhaseDone, Step: 2, Sides: lists(90)},
	} {
		fg.apply(&f)
		got = append(got, FormatFigure(f.Sides[0].Fig))
	}
	// Before step 2 and in its first period: nothing to count yet. Then
	// 24 LISTs in 20 s, 72 a minute, which the end keeps.
	if fmt.Sprint(got) != "[– – – 72 72]" {
		t.Errorf("LISTs a minute over the frames: %v, want [– – – 72 72]", got)
	}
}

// oldRecording writes the shipped recording file as one made before the
// frames carried the scenario's figure (version 0: no version, no figure
// in a frame) and returns its path.
func oldRecording(t *testing.T, file string) string {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	inside, err := embedded(data, recordingID)
	if err != nil {
		t.Fatal(err)
	}
	var rec map[string]any
	if err := json.Unmarshal(inside, &rec); err != nil {
		t.Fatal(err)
	}
	delete(rec, "version")
	delete(rec, "derived")
	for _, f := range rec["frames"].([]any) {
		for _, side := range f.(map[string]any)["sides"].([]any) {
			delete(side.(map[string]any), "f")
		}
	}
	out, err := json.Marshal(rec)
	if err != nil {
		t.Fatal(err)
	}
	old := filepath.Join(t.TempDir(), "old.json")
	if err := os.WriteFile(old, out, 0o644); err != nil {
		t.Fatal(err)
	}
	return old
}

func TestAnOldRecordingsFiguresComeFromItsFrames(t *testing.T) {
	rec, err := ReadRecording(oldRecording(t, filepath.Join(talkDir, "idle.html")))
	if err != nil {
		t.Fatal(err)
	}
	if rec.Version != recordingVersion || !strings.Contains(rec.Derived, "computed from the frames") {
		t.Errorf("version %d, derived %q", rec.Version, rec.Derived)
	}
	// The LISTs of the last minute, rebuilt into a total: counted from the
	// start in the first minute, then adding the total a minute earlier.
	var st figureSide
	var totals []int
	for _, f := range []struct {
		t  float64
		lm int
	}{{1, 0}, {30, 12}, {61, 24}, {91, 24}} {
		s := Side{Ready: true, ListsLastMin: f.lm}
		st.derive(f.t, &s)
		totals = append(totals, s.Totals["LIST"])
	}
	if fmt.Sprint(totals) != "[0 12 24 36]" {
		t.Errorf("LISTs since the start: %v, want [0 12 24 36]", totals)
	}
}

func TestTheTalkTotalsLessThanFiveMegabytes(t *testing.T) {
	total := int64(0)
	entries, err := os.ReadDir(talkDir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if fi, err := e.Info(); err == nil {
			total += fi.Size()
		}
	}
	if total > 5e6 {
		t.Errorf("%s weighs %d bytes, over 5 MB", talkDir, total)
	}
}
