package live

import (
	"fmt"
	"io"
	"strings"

	"github.com/kube-rewind/kube-rewind/pkg/lab/demo"
	"github.com/kube-rewind/kube-rewind/pkg/lab/scenario/scripts"
)

// How long each scenario plays at talk size, for a speaker planning a
// talk: make demo with no scenario lists them.

// talkLength is how long each scenario plays at talk size, in seconds,
// from both clusters up to the results, without the pauses before steps
// (which are the speaker's) or the few seconds of starting the clusters.
// For the scenarios examples/talk holds a recording of, it is the
// recording's (TestTheTalkLengthsAreTheRecordings keeps them equal); for
// the others, the length of one run recorded at talk size
// (rcbench demo -auto -record) on a busy 2-core machine, in which both
// designs showed what the scenario expects of them.
var talkLength = map[string]float64{
	"scale-up":           51,
	"scale-down":         100,
	"partial-scale-down": 15,
	"idle":               58,
	"churn":              30,
	"api-errors":         40,
	"watch-drop":         19,
	"two-managers":       23,
	"restart":            29,
	"crash":              90,
	"overlap":            31,
	"recreate":           4,
	"watch-window":       23,
}

// WriteList writes every scenario as talk mode plays it: its name, how
// long it plays at talk size, its title, what the audience sees and the
// incident it reproduces (make demo with no scenario).
func WriteList(w io.Writer) {
	width := 0
	for _, sc := range scripts.All() {
		width = max(width, len(sc.Name))
	}
	for _, sc := range scripts.All() {
		length := "length not measured"
		if s := talkLength[sc.Name]; s > 0 {
			length = "plays " + demo.Length(s)
		}
		if sz, err := PickSize(sc, Options{}); err == nil {
			length += " at " + sz.Label
		}
		fmt.Fprintf(w, "%-*s  %s · %s\n", width, sc.Name, length, sc.Title)
		indent := strings.Repeat(" ", width+2)
		fmt.Fprintf(w, "%s\n", wrap("The audience sees: "+sc.Explain, 78-len(indent), indent))
		fmt.Fprintf(w, "%s\n\n", wrap("Reproduces "+sc.Reproduces, 78-len(indent), indent))
	}
	fmt.Fprintf(w, "Lengths are at talk size, from both clusters up to the results, without the\npauses before steps or the few seconds of starting the clusters.\n")
}

// TalkSeconds is how long the scenario called name plays at talk size,
// in seconds, as talkLength holds it; ok is false for one it does not.
func TalkSeconds(name string) (seconds float64, ok bool) {
	seconds, ok = talkLength[name]
	return seconds, ok
}
