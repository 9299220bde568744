package demo

import (
	"bytes"
	"strings"
	"testing"

	"github.com/kube-rewind/kube-rewind/pkg/lab/scenario"
)

func TestTheListSaysHowLongEachScenarioPlaysAndWhatTheAudienceSees(t *testing.T) {
	var b bytes.Buffer
	WriteList(&b)
	for _, sc := range scenario.All() {
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
