package live

import (
	"bytes"
	"math"
	"strings"
	"testing"

	"github.com/kube-rewind/kube-rewind/pkg/lab/demo"
	"github.com/kube-rewind/kube-rewind/pkg/lab/demo/pagetest"
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

// TestTheTalkLengthsAreTheRecordings keeps the lengths make demo lists
// for the scenarios examples/talk has a recording of equal to what the
// recordings play for.
func TestTheTalkLengthsAreTheRecordings(t *testing.T) {
	for _, file := range pagetest.ShippedRecordings(t, talkDir) {
		rec, err := demo.ReadRecording(file)
		if err != nil {
			t.Fatal(err)
		}
		if got, want := talkLength[rec.Talk.Name], math.Round(rec.PlayedSeconds()); got != want {
			t.Errorf("talkLength[%q] is %v s; %s plays for %v s", rec.Talk.Name, got, file, want)
		}
	}
	for _, sc := range scripts.All() {
		if _, ok := talkLength[sc.Name]; !ok {
			t.Errorf("talkLength has no entry for %s", sc.Name)
		}
	}
}
