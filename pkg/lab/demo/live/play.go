package live

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"
	"time"

	"github.com/kube-rewind/kube-rewind/pkg/lab/demo"
	"github.com/kube-rewind/kube-rewind/pkg/lab/scenario"
)

// play runs every step on both clusters, narrating, then reads and prints
// the results. A step that only sets something going (scenario.Step.Starts),
// with its outcome not yet on both sides, is folded into the next, since a
// pause for Enter between the two would leave the page on a picture where
// nothing has happened yet: the page shows them as one ("Steps 2–3 of 3")
// under the first one's words, and the last one's words come once it is
// over, as the conclusion of what the audience has just seen.
func (d *show) play(ctx context.Context) (*Report, error) {
	c := d.con
	if !d.opts.Auto && d.opts.In != nil {
		done := make(chan struct{})
		defer close(done)
		d.lines = readLines(d.opts.In, done)
	}
	rep := &Report{Scenario: d.sc.Name, Size: d.size}
	then := ""
	for i := 0; i < len(d.steps); {
		first, step := i, d.steps[i]
		// The page says "press Enter" only when the demo waits for it.
		wait := d.lines != nil
		d.ask()
		d.page.Update(func(f *demo.Frame) {
			f.Phase, f.Step, f.From, f.Title, f.Say, f.Then, f.Note, f.Wait = demo.PhaseReady, i+1, 0, step.Title, step.Say, then, "", wait
		})
		c.printf("\n%s %s\n", c.style(fmt.Sprintf("Step %d of %d:", i+1, len(d.steps)), bold), c.style(step.Title, bold))
		c.printf("%s\n", wrap(step.Say, 78, "  "))
		if err := d.waitEnter(ctx, "  [Enter] runs this step on both clusters at once."); err != nil {
			return nil, err
		}
		for {
			step := d.steps[i]
			if i > first {
				c.printf("\n%s %s\n", c.style(fmt.Sprintf("Step %d of %d:", i+1, len(d.steps)), bold), c.style(step.Title, bold))
				c.printf("%s\n", c.style(fmt.Sprintf("  at once: step %d set it going in %.2f s, its outcome still to come", i, stepTime(rep.StepTimes[i-1]).Seconds()), dim))
			}
			d.page.Update(func(f *demo.Frame) {
				f.Phase, f.Step, f.Wait, f.Then, f.Note = demo.PhaseRunning, i+1, false, "", ""
				if i > first {
					f.From, f.Title, f.Say = first+1, groupTitle(d.steps[first:i+1]), d.steps[first].Say
				}
			})
			times, err := d.runStep(ctx, i, step)
			if err != nil {
				return nil, err
			}
			rep.StepTimes = append(rep.StepTimes, times)
			// One more frame inside the step, so that a figure measured
			// over the step ends where the step did.
			d.page.Update(func(*demo.Frame) {})
			i++
			if i == len(d.steps) || !d.folds(step) {
				break
			}
		}
		then = ""
		if i-1 > first {
			then = d.steps[i-1].Say
			c.printf("%s\n", wrap(then, 78, "  "))
		}
	}

	// The results read the samplers' last figures, so stop sampling first;
	// the page keeps showing the final state.
	for _, e := range d.envs {
		e.StopSampling()
	}
	rep.Legacy = d.envs[0].Results(d.sc)
	rep.Modern = d.envs[1].Results(d.sc)
	rep.Rows = demo.CompareAs([2]string{d.talk.Designs[0].Short, d.talk.Designs[1].Short}, rep.Legacy, rep.Modern)
	demo.MarkMissing(rep.Rows, d.talk.Designs[0])
	d.ask()
	d.page.Update(func(f *demo.Frame) {
		f.Phase, f.Results, f.Then, f.Wait = demo.PhaseDone, rep.Rows, then, false
		f.Note = "Done. The table compares both designs; the counters show where each ended."
	})
	vs := demo.Verdicts(d.sc, d.size, d.talk.Designs, rep.Legacy, rep.Modern)
	c.printResults(d.talk, rep.Rows, vs)
	if rec := d.page.Recording(rep.Rows, vs); rec != nil {
		rec.Talk.Recorded = time.Now().UTC().Format("2006-01-02 15:04 UTC")
		rec.Talk.Commit = d.opts.Commit
		if err := rec.Save(d.opts.Record); err != nil {
			return nil, fmt.Errorf("saving the recording: %v", err)
		}
		c.printf("\n  Recorded into %s: %s\n", d.opts.Record, recordedHow(d.opts.Record))
	}
	// Even a demo that ran by itself waits here, so that the results stay
	// on the page until the speaker is done with them.
	if d.opts.Auto && d.opts.In != nil {
		done := make(chan struct{})
		defer close(done)
		d.lines = readLines(d.opts.In, done)
	}
	if err := d.holdEnd(ctx); err != nil {
		return nil, err
	}
	return rep, nil
}

// recordedHow says what a speaker can do with the recording in file.
func recordedHow(file string) string {
	if strings.HasSuffix(file, ".json") {
		return "rcbench replay plays it, rcbench replay -html writes the page that plays it in a browser."
	}
	return "open it in a browser to play it from disk; rcbench replay plays it with this narration, rcbench deck puts it in a talk."
}

// holdEnd waits for Enter, or for Hold when it is set.
func (d *show) holdEnd(ctx context.Context) error {
	what := "stops both clusters and exits"
	if d.replay {
		what = "ends the replay"
	}
	prompt := "\n  [Enter] " + what + "; the page stays as it is until then."
	if d.opts.Hold <= 0 {
		return d.waitEnter(ctx, prompt)
	}
	prompt = fmt.Sprintf("\n  [Enter], or %v, %s; the page stays as it is until then.", d.opts.Hold, what)
	hold, cancel := context.WithTimeout(ctx, d.opts.Hold)
	defer cancel()
	d.ending = true
	if d.lines == nil {
		d.con.printf("%s\n", d.con.style(fmt.Sprintf("\n  The page stays as it is for %v.", d.opts.Hold), dim))
	} else {
		err := d.waitEnter(hold, prompt)
		if ctx.Err() != nil {
			return ctx.Err()
		}
		// Enter ends the hold; an input that ends (stdin closed, as from
		// /dev/null) does not: the hold runs its course.
		if err != nil && !errors.Is(err, context.DeadlineExceeded) {
			return err
		}
		if err == nil && d.lines != nil {
			return nil
		}
	}
	<-hold.Done()
	return ctx.Err()
}

// runStep runs one step on both clusters at once and shows the counters
// while it runs. If one design fails the step, the other is stopped too.
func (d *show) runStep(ctx context.Context, i int, step scenario.Step) ([2]time.Duration, error) {
	var times [2]time.Duration
	stepCtx, cancel := context.WithCancel(ctx)
	defer cancel()
	began := time.Now()
	var wg sync.WaitGroup
	errs := make([]error, 2)
	finished := make(chan int, 2)
	for k, e := range d.envs {
		wg.Add(1)
		go func(k int, e *scenario.Env) {
			defer wg.Done()
			err := step.Run(stepCtx, e)
			times[k] = time.Since(began)
			if err != nil {
				errs[k] = fmt.Errorf("%s, step %d (%s): %v", d.talk.Designs[k].Variant.Name, i+1, step.Title, err)
				cancel()
			}
			finished <- k
		}(k, e)
	}
	allDone := make(chan struct{})
	go func() { wg.Wait(); close(allDone) }()

	// The counters come once there is something to count: at the start
	// of a step the managers have not acted yet.
	tick := time.NewTicker(demo.FrameEvery)
	defer tick.Stop()
	d.con.holdLive()
	for {
		select {
		case k := <-finished:
			// A step that is over at once on both sides is no news.
			if errs[k] != nil || times[k] < 500*time.Millisecond {
				continue
			}
			news := fmt.Sprintf("%s finished this step in %.1f s", d.talk.Designs[k].Heading, times[k].Seconds())
			d.con.printf("  %s\n", d.con.style(news, dim))
			d.page.Update(func(f *demo.Frame) {
				if f.Note == "" {
					f.Note = news
				} else {
					f.Note += "; " + news
				}
			})
		case <-tick.C:
			d.showCounters(false)
		case <-allDone:
			for len(finished) > 0 {
				<-finished
			}
			d.showCounters(true)
			d.con.keepLive()
			if ctx.Err() != nil {
				return times, ctx.Err()
			}
			if err := errors.Join(errs...); err != nil {
				return times, err
			}
			return times, nil
		}
	}
}

// folds reports whether the step that just ran is folded into the next:
// it only set something going, and its outcome is not yet on the page
// (some side has no pod running, or not the pods it wants). Whether it
// did is the step's to say, not the clock's: on a loaded machine creating
// a controller can take seconds and is still no outcome to pause on.
func (d *show) folds(step scenario.Step) bool {
	if !step.Starts {
		return false
	}
	f := d.page.Current()
	return !demo.Settled(f.Sides)
}

// stepTime is how long a step took: as long as its slower side.
func stepTime(times [2]time.Duration) time.Duration { return max(times[0], times[1]) }

// groupTitle is the title of steps played as one.
func groupTitle(steps []scenario.Step) string {
	titles := make([]string, len(steps))
	for i, s := range steps {
		titles[i] = s.Title
	}
	return strings.Join(titles, " · ")
}

// showCounters prints both designs' counters from the latest frame.
func (d *show) showCounters(force bool) {
	f := d.page.Current()
	if len(f.Sides) < 2 || (f.Sides[0].Idle() && f.Sides[1].Idle()) {
		return
	}
	d.con.setLive([]string{d.con.counterLine(d.talk.Designs, 0, f.Sides[0]), d.con.counterLine(d.talk.Designs, 1, f.Sides[1])}, force)
}

// ask marks the moment the demo asks for Enter, just before the page
// shows the question: a press from then on answers it, one from before
// (made while a step ran, say) does not.
func (d *show) ask() { d.asked = time.Now() }

// waitEnter waits for a press of Enter made since the demo last asked
// (ask), unless the demo runs by itself. When the input ends, the demo
// goes on by itself.
func (d *show) waitEnter(ctx context.Context, prompt string) error {
	if ctx.Err() != nil {
		return ctx.Err()
	}
	if d.lines == nil {
		return nil
	}
	d.con.printf("%s\n", d.con.style(prompt, dim))
	for {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case at, ok := <-d.lines:
			if ok && at.Before(d.asked) {
				continue
			}
			if !ok {
				d.lines = nil
				// At the end a hold still runs its course (holdEnd).
				if d.opts.Hold <= 0 || !d.ending {
					d.con.printf("  (no more input: going on without pausing)\n")
				}
			}
			return nil
		}
	}
}

// readLines delivers the time each line of r was read, until r ends or
// done closes. A line is stamped as it arrives, not when the demo gets to
// it, so that waitEnter can tell a press made before it asked from one
// made after; the buffer holds a speaker's presses while the demo is busy.
// The goroutine is blocked in Read until r ends; os.Stdin ends with the
// process.
func readLines(r io.Reader, done <-chan struct{}) <-chan time.Time {
	ch := make(chan time.Time, 64)
	go func() {
		defer close(ch)
		s := bufio.NewScanner(r)
		for s.Scan() {
			select {
			case ch <- time.Now():
			case <-done:
				return
			}
		}
	}()
	return ch
}
