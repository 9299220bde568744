package demo

import (
	"fmt"
	"io"
	"math"
	"strings"

	"github.com/kube-rewind/kube-rewind/pkg/lab/scenario"
)

// How long things take, for a speaker planning a talk: each scenario at
// talk size, a recording as its page plays it (a deck adds up its
// recordings', pkg/lab/demo/deck).

// talkLength is how long each scenario plays at talk size, in seconds,
// from both clusters up to the results, without the pauses before steps
// (which are the speaker's) or the few seconds of starting the clusters.
// For the scenarios examples/talk holds a recording of, it is the
// recording's (TestTheTalkLengthsAreTheRecordings keeps them equal); for
// the others, the length of one run recorded at talk size
// (rcbench demo -auto -record) on a busy 2-core machine, in which both
// designs showed what the scenario expects of them.
var talkLength = map[string]float64{
	"scale-up":           104,
	"scale-down":         179,
	"partial-scale-down": 15,
	"idle":               55,
	"churn":              39,
	"api-errors":         64,
	"watch-drop":         42,
	"two-managers":       33,
	"restart":            33,
	"crash":              90,
	"overlap":            31,
	"recreate":           4,
	"watch-window":       23,
}

// PlayedSeconds is how long rec plays on its page at its recorded pace,
// from both sides up to its last frame, pauses before steps left out: the
// player's clock (page.js, Player).
func (rec *Recording) PlayedSeconds() float64 {
	frames := rec.Frames
	s0 := 0
	for s0 < len(frames)-1 && !(frames[s0].Sides[0].Ready && frames[s0].Sides[1].Ready) {
		s0++
	}
	if p := pauseFrames(frames); len(p) > 0 && p[0] < s0 {
		s0 = p[0]
	}
	t := 0.0
	for i := s0 + 1; i < len(frames); i++ {
		if frames[i-1].Phase != PhaseReady {
			t += frames[i].T - frames[i-1].T
		}
	}
	return t
}

// pauseFrames are the indexes of the frames a player pauses at: the first
// ready frame of each step, but for steps folded into the one before.
func pauseFrames(frames []Frame) []int {
	var out []int
	last := -1
	for i, f := range frames {
		if f.Phase == PhaseReady && f.From == 0 && f.Step != last {
			out = append(out, i)
			last = f.Step
		}
	}
	return out
}

// Length says a length in seconds as a speaker reads it: "55 s",
// "1 min 44 s", "5 min".
func Length(seconds float64) string {
	s := int(math.Round(seconds))
	switch {
	case s < 60:
		return fmt.Sprintf("%d s", s)
	case s%60 == 0:
		return fmt.Sprintf("%d min", s/60)
	}
	return fmt.Sprintf("%d min %d s", s/60, s%60)
}

// WriteList writes every scenario as talk mode plays it: its name, how
// long it plays at talk size, its title, what the audience sees and the
// incident it reproduces (make demo with no scenario).
func WriteList(w io.Writer) {
	width := 0
	for _, sc := range scenario.All() {
		width = max(width, len(sc.Name))
	}
	for _, sc := range scenario.All() {
		length := "length not measured"
		if s := talkLength[sc.Name]; s > 0 {
			length = "plays " + Length(s)
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
