package demo

import (
	"fmt"
	"regexp"
	"strings"
)

// normalize brings a recording made by an earlier version to what a live
// run records now. A recording made before frames carried figures and
// folded fast steps (version 0) gets the scenario's figure as the page
// defines it today, computed from the frames, and the steps over in well
// under a second folded into the next, judged by the frames' times and
// counts; one whose figure was computed so when it was read (version 2,
// Derived set) gets it computed again, for the figure its scenario
// declares now. A figure measured live stays. It leaves the measured
// counts and the results as they were, and says in Derived what it
// computed.
func (rec *Recording) normalize() {
	// A recording made before the results said which rows count a feature
	// the left design lacks reads as one made now.
	MarkMissing(rec.Results, rec.Talk.Designs[0])
	for i := range rec.Frames {
		MarkMissing(rec.Frames[i].Results, rec.Talk.Designs[0])
	}
	if rec.Version >= recordingVersion {
		return
	}
	if rec.Version > 0 && rec.Derived == "" {
		rec.Version = recordingVersion
		return
	}
	rec.Talk.Figure = scenarioFigure(rec.Talk.Name)
	fg := newFigurer(rec.Talk.Figure, rec.Talk.Period, true)
	for i := range rec.Frames {
		fg.apply(&rec.Frames[i])
	}
	var said []string
	last := rec.Frames[len(rec.Frames)-1]
	// Frames that never counted what the results did (an early
	// recording's frames held no LISTs) do not hold the figure.
	if last.Sides[0].Fig == 0 && last.Sides[1].Fig == 0 && !zeroRow(rec.Talk.Figure, rec.Results) {
		for i := range rec.Frames {
			for j := range rec.Frames[i].Sides {
				rec.Frames[i].Sides[j].Fig = none
			}
		}
		last = rec.Frames[len(rec.Frames)-1]
	}
	if last.Sides[0].Fig < 0 && last.Sides[1].Fig < 0 {
		said = append(said, rec.Talk.Figure.Label+" is not in this recording: its tile shows the results' figure once they are in")
	} else {
		what := rec.Talk.Figure.Label + " computed from the frames"
		if rec.Talk.Figure.Key == keyReplacement {
			what += ", each replacement timed to a frame (a quarter of a second)"
		}
		said = append(said, what)
	}
	if rec.Version == 0 {
		frames, folded := foldFrames(rec.Frames)
		rec.Frames = frames
		if folded > 0 {
			said = append(said, fmt.Sprintf("%d step(s) over in well under a second folded into the next", folded))
		}
	} else if m := foldedSaid.FindString(rec.Derived); m != "" {
		said = append(said, m)
	}
	rec.Derived = "recorded before frames carried them, when read: " + strings.Join(said, "; ")
	rec.Version = recordingVersion
}

// zeroRow reports whether the results give the figure as 0 on both
// sides, or do not give it.
func zeroRow(fig Figure, rows []Row) bool {
	for i := range 2 {
		if v := FigureRow(fig, rows, i); v != "" && v != "0" && v != "none" {
			return false
		}
	}
	return true
}

// foldedSaid finds, in what a version 2 recording derived, the steps it
// folded.
var foldedSaid = regexp.MustCompile(`\d+ step\(s\) over in well under a second folded into the next`)

// foldFrames folds, in the frames of an old recording, each step that was
// over in well under a second, with its outcome not yet on both sides,
// into the next, as a live run now does (demo.play): the pause before the
// next step goes, the steps played as one carry the first one's words and
// their titles together, and the last one's words become the conclusion,
// shown from the end of the group until the next one runs. It returns the
// frames and how many steps it folded.
func foldFrames(frames []Frame) ([]Frame, int) {
	// begin[k] is the index of the first frame of step k (ready or
	// running), run[k] of its first running frame; title and say are its
	// words as recorded.
	begin, run := map[int]int{}, map[int]int{}
	title, say := map[int]string{}, map[int]string{}
	last := 0
	for i, f := range frames {
		if f.Step == 0 {
			continue
		}
		if _, ok := begin[f.Step]; !ok {
			begin[f.Step] = i
			title[f.Step], say[f.Step] = f.Title, f.Say
		}
		if _, ok := run[f.Step]; !ok && f.Phase == PhaseRunning {
			run[f.Step] = i
		}
		last = max(last, f.Step)
	}
	// end(k) is the index of the first frame after step k's own.
	end := func(k int) int {
		if b, ok := begin[k+1]; ok {
			return b
		}
		return len(frames)
	}
	fast := func(k int) bool {
		r, ok := run[k]
		next, more := begin[k+1]
		return ok && more && frames[next].T-frames[r].T < foldUnder.Seconds() && !Settled(frames[next-1].Sides)
	}
	folded := 0
	for a := 1; a <= last; {
		b := a
		for b < last && fast(b) {
			b++
		}
		folded += b - a
		titles := []string{title[a]}
		for k := a + 1; k <= b; k++ {
			titles = append(titles, title[k])
			for i := begin[k]; i < end(k); i++ {
				frames[i].From, frames[i].Title, frames[i].Say = a, strings.Join(titles, " · "), say[a]
			}
		}
		if b > a {
			// The conclusion stays up from the end of the group (its
			// last running frame on) until the next step runs.
			from, to := end(b), len(frames)
			for i := begin[b]; i < end(b); i++ {
				if frames[i].Phase == PhaseDone {
					from = i
					break
				}
			}
			if r, ok := run[b+1]; ok {
				to = r
			}
			for i := from; i < to; i++ {
				frames[i].Then = say[b]
			}
		}
		a = b + 1
	}
	// The ready frames of the steps folded into the one before go: the
	// replay must not pause there.
	out := make([]Frame, 0, len(frames))
	for _, f := range frames {
		if f.Phase == PhaseReady && f.From > 0 {
			continue
		}
		out = append(out, f)
	}
	return out, folded
}
