package demo

import (
	"math"
	"time"

	"github.com/kube-rewind/kube-rewind/pkg/lab/published"
)

// How long a recording plays, for a speaker planning a talk, and where it
// pauses: a deck (pkg/lab/demo/deck) adds up its recordings', and make
// demo lists each scenario's (pkg/lab/demo/live).

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

// Pauses are the steps a recording of frames pauses before, in order:
// the steps of its pauseFrames.
func Pauses(frames []Frame) []int {
	var out []int
	for _, i := range pauseFrames(frames) {
		out = append(out, frames[i].Step)
	}
	return out
}

// Length says a length in seconds as a speaker reads it: "55 s",
// "1 min 44 s", "5 min".
func Length(seconds float64) string {
	return published.FormatDuration(time.Duration(math.Round(seconds) * float64(time.Second)))
}
