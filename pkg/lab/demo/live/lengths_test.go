package live

import (
	"bytes"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/kube-rewind/kube-rewind/pkg/lab/demo"
	"github.com/kube-rewind/kube-rewind/pkg/lab/demo/pagetest"
	"github.com/kube-rewind/kube-rewind/pkg/lab/scenario"
	"github.com/kube-rewind/kube-rewind/pkg/lab/scenario/scripts"
)

func TestTheListSaysHowLongEachScenarioPlaysAndWhatTheAudienceSees(t *testing.T) {
	var b bytes.Buffer
	WriteList(&b)
	for _, sc := range scripts.All() {
		line := ""
		for _, l := range strings.Split(b.String(), "\n") {
			if strings.HasPrefix(l, sc.Name+" ") {
				line = l
			}
		}
		if !strings.Contains(line, "plays ") || !strings.Contains(line, sc.Title) {
			t.Errorf("the list says of %s: %q", sc.Name, line)
		}
	}
	if !strings.Contains(b.String(), "The audience sees: ") {
		t.Errorf("the list does not say what the audience sees")
	}
}

// TestTheTalkLengthsAreTheRecordings checks that the length make demo
// lists for a scenario examples/talk has a recording of is what the
// recording plays for, that no such scenario keeps a length of its own to
// fall out of step with it, and that every other scenario has one.
func TestTheTalkLengthsAreTheRecordings(t *testing.T) {
	recorded := map[string]bool{}
	for _, file := range pagetest.ShippedRecordings(t, talkDir) {
		rec, err := demo.ReadRecording(file)
		if err != nil {
			t.Fatal(err)
		}
		recorded[rec.Talk.Name] = true
		got, ok := TalkSeconds(rec.Talk.Name)
		if want := math.Round(rec.PlayedSeconds()); !ok || got != want {
			t.Errorf("%s plays for %v s at talk size, says make demo; %s plays for %v s", rec.Talk.Name, got, file, want)
		}
	}
	for _, sc := range scripts.All() {
		switch {
		case recorded[sc.Name] && sc.TalkLength != 0:
			t.Errorf("%s gives a TalkLength of %v, although examples/talk holds a recording of it", sc.Name, sc.TalkLength)
		case !recorded[sc.Name] && sc.TalkLength <= 0:
			t.Errorf("%s gives no TalkLength, and examples/talk holds no recording of it", sc.Name)
		}
	}
}

func TestALengthIsTheRecordingsWhereThereIsOneAndTheScriptsElsewhere(t *testing.T) {
	scaleUp, err := scripts.Get("scale-up")
	if err != nil {
		t.Fatal(err)
	}
	rec, err := demo.ReadRecording(filepath.Join(talkDir, "scale-up.html"))
	if err != nil {
		t.Fatal(err)
	}
	unrecorded := &scenario.Scenario{Name: "drain", TalkLength: 72 * time.Second}
	// A page named after one scenario that holds another's recording is
	// not the first's.
	misnamed := t.TempDir()
	churn, err := os.ReadFile(filepath.Join(talkDir, "churn.html"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(misnamed, "scale-up.html"), churn, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		sc   *scenario.Scenario
		dir  string
		want float64
		ok   bool
	}{
		{"a recording", scaleUp, talkDir, math.Round(rec.PlayedSeconds()), true},
		{"another scenario's recording", &scenario.Scenario{Name: "scale-up", TalkLength: time.Second}, misnamed, 1, true},
		{"no recording", unrecorded, talkDir, 72, true},
		{"no recordings at all", unrecorded, "", 72, true},
		{"neither", &scenario.Scenario{Name: "drain"}, talkDir, 0, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got, ok := talkSeconds(tc.sc, tc.dir); got != tc.want || ok != tc.ok {
				t.Errorf("talkSeconds = %v, %v; want %v, %v", got, ok, tc.want, tc.ok)
			}
		})
	}
}

func TestTheRecordingsAreFoundFromAPackagesDirectory(t *testing.T) {
	dir := recordingsDir()
	if dir == "" {
		t.Fatal("no examples/talk found above the working directory")
	}
	want, _ := filepath.Abs(talkDir)
	if got, _ := filepath.Abs(dir); got != want {
		t.Errorf("recordings found in %s, want %s", got, want)
	}
}
