package live

import (
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strings"

	"github.com/kube-rewind/kube-rewind/pkg/lab/demo"
	"github.com/kube-rewind/kube-rewind/pkg/lab/scenario"
	"github.com/kube-rewind/kube-rewind/pkg/lab/scenario/scripts"
)

// How long each scenario plays at talk size, for a speaker planning a
// talk: make demo with no scenario lists them. Where examples/talk holds a
// recording of the scenario, it is the recording's length, read from it;
// elsewhere, the length the scenario's script gives (TalkLength). Either
// runs from both clusters up to the results, without the pauses before
// steps (which are the speaker's) or the few seconds of starting the
// clusters.

// shippedRecordings is where the recordings that ship with the repository
// are, from its top.
const shippedRecordings = "examples/talk"

// recordingsDir returns the directory of the shipped recordings: under the
// working directory or the nearest directory above it that has one (make
// demo runs at the top of the repository, the tests in their package's),
// else under the nearest above the running binary (make builds rcbench
// into the repository's _output); empty where neither has one.
func recordingsDir() string {
	var starts []string
	if wd, err := os.Getwd(); err == nil {
		starts = append(starts, wd)
	}
	if exe, err := os.Executable(); err == nil {
		starts = append(starts, filepath.Dir(exe))
	}
	for _, dir := range starts {
		for {
			if fi, err := os.Stat(filepath.Join(dir, shippedRecordings)); err == nil && fi.IsDir() {
				return filepath.Join(dir, shippedRecordings)
			}
			parent := filepath.Dir(dir)
			if parent == dir {
				break
			}
			dir = parent
		}
	}
	return ""
}

// talkSeconds is how long sc plays at talk size, in whole seconds: the
// length of its recording where dir holds one, its script's TalkLength
// otherwise; ok is false where it has neither.
func talkSeconds(sc *scenario.Scenario, dir string) (seconds float64, ok bool) {
	if dir != "" {
		rec, err := demo.ReadRecording(filepath.Join(dir, sc.Name+".html"))
		if err == nil && rec.Talk.Name == sc.Name {
			return math.Round(rec.PlayedSeconds()), true
		}
	}
	if sc.TalkLength > 0 {
		return math.Round(sc.TalkLength.Seconds()), true
	}
	return 0, false
}

// WriteList writes every scenario as talk mode plays it: its name, how
// long it plays at talk size, its title, what the audience sees and the
// incident it reproduces (make demo with no scenario).
func WriteList(w io.Writer) {
	width, dir := 0, recordingsDir()
	for _, sc := range scripts.All() {
		width = max(width, len(sc.Name))
	}
	for _, sc := range scripts.All() {
		length := "length not measured"
		if s, ok := talkSeconds(sc, dir); ok {
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
	if dir == "" {
		fmt.Fprintf(w, "The recordings (%s) were not found above the working directory or the binary, so\nthe recorded scenarios' lengths are not measured here: run from the repository.\n", shippedRecordings)
	}
}

// TalkSeconds is how long the scenario called name plays at talk size,
// in whole seconds (see talkSeconds), with the recordings found from the
// working directory or the binary (recordingsDir); ok is false for one
// without a recording or a length of its own, or no scenario.
func TalkSeconds(name string) (seconds float64, ok bool) {
	return talkSecondsIn(recordingsDir(), name)
}

// TalkSecondsIn is TalkSeconds with the recordings of the repository
// whose top is root, wherever the command runs.
func TalkSecondsIn(root, name string) (seconds float64, ok bool) {
	return talkSecondsIn(filepath.Join(root, shippedRecordings), name)
}

func talkSecondsIn(dir, name string) (seconds float64, ok bool) {
	sc, err := scripts.Get(name)
	if err != nil {
		return 0, false
	}
	return talkSeconds(sc, dir)
}
