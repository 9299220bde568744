package demo

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"sync"
	"time"

	"github.com/kube-rewind/kube-rewind/pkg/lab/scenario"
)

// play runs every step on both clusters, narrating, then reads and prints
// the results.
func (d *demo) play(ctx context.Context) (*Report, error) {
	c := d.con
	if !d.opts.Auto && d.opts.In != nil {
		done := make(chan struct{})
		defer close(done)
		d.lines = readLines(d.opts.In, done)
	}
	rep := &Report{Scenario: d.sc.Name, Size: d.size}
	for i, step := range d.steps {
		d.hub.update(func(f *Frame) {
			f.Phase, f.Step, f.Title, f.Say, f.Note = PhaseReady, i+1, step.Title, step.Say, ""
		})
		c.printf("\n%s %s\n", c.style(fmt.Sprintf("Step %d of %d:", i+1, len(d.steps)), bold), c.style(step.Title, bold))
		c.printf("%s\n", wrap(step.Say, 78, "  "))
		if err := d.waitEnter(ctx, "  [Enter] runs this step on both clusters at once."); err != nil {
			return nil, err
		}
		d.hub.update(func(f *Frame) { f.Phase = PhaseRunning })
		times, err := d.runStep(ctx, i, step)
		if err != nil {
			return nil, err
		}
		rep.StepTimes = append(rep.StepTimes, times)
	}

	// The results read the samplers' last figures, so stop sampling first;
	// the page keeps showing the final state.
	for _, e := range d.envs {
		e.StopSampling()
	}
	rep.Legacy = d.sc.Results(d.envs[0])
	rep.Modern = d.sc.Results(d.envs[1])
	rep.Rows = compareAs([2]string{d.talk.Designs[0].Short, d.talk.Designs[1].Short}, rep.Legacy, rep.Modern)
	d.hub.update(func(f *Frame) {
		f.Phase, f.Results = PhaseDone, rep.Rows
		f.Note = "Done. The table compares both designs; the counters show where each ended."
	})
	vs := verdicts(d.sc, d.size, d.talk.Designs, rep.Legacy, rep.Modern)
	c.printResults(d.talk, rep.Rows, vs)
	if d.rec != nil {
		rec := d.rec.recording(d.talk, rep.Rows, vs)
		rec.Talk.Recorded = time.Now().UTC().Format("2006-01-02 15:04 UTC")
		if err := rec.Save(d.opts.Record); err != nil {
			return nil, fmt.Errorf("saving the recording: %v", err)
		}
		c.printf("\n  Recorded into %s; rcbench replay plays it, and %s plays it in a browser.\n", d.opts.Record, HTMLFile(d.opts.Record))
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

// holdEnd waits for Enter, or for Hold when it is set.
func (d *demo) holdEnd(ctx context.Context) error {
	what := "stops both clusters and exits"
	if d.replay {
		what = "ends the replay"
	}
	prompt := "\n  [Enter] " + what + "; the page stays as it is until then."
	if d.opts.Hold <= 0 {
		return d.waitEnter(ctx, prompt)
	}
	prompt = fmt.Sprintf("\n  [Enter], or %v, %s; the page stays as it is until then.", d.opts.Hold, what)
	if d.lines == nil {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(d.opts.Hold):
			return nil
		}
	}
	hold, cancel := context.WithTimeout(ctx, d.opts.Hold)
	defer cancel()
	err := d.waitEnter(hold, prompt)
	if ctx.Err() != nil {
		return ctx.Err()
	}
	if errors.Is(err, context.DeadlineExceeded) {
		return nil
	}
	return err
}

// runStep runs one step on both clusters at once and shows the counters
// while it runs. If one design fails the step, the other is stopped too.
func (d *demo) runStep(ctx context.Context, i int, step scenario.Step) ([2]time.Duration, error) {
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
	tick := time.NewTicker(frameEvery)
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
			d.hub.update(func(f *Frame) {
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

// showCounters prints both designs' counters from the latest frame.
func (d *demo) showCounters(force bool) {
	f, _, _ := d.hub.current()
	if len(f.Sides) < 2 || (idle(f.Sides[0]) && idle(f.Sides[1])) {
		return
	}
	d.con.setLive([]string{d.con.counterLine(d.talk.Designs, 0, f.Sides[0]), d.con.counterLine(d.talk.Designs, 1, f.Sides[1])}, force)
}

// idle reports whether a side has nothing to count yet: no controller has
// asked for pods and none was ever created. The counters would read 0/0
// until the managers act.
func idle(s Side) bool { return s.Desired == 0 && s.Active == 0 && s.Created == 0 }

// waitEnter waits for a line on the input unless the demo runs by itself.
// When the input ends, the demo goes on by itself.
func (d *demo) waitEnter(ctx context.Context, prompt string) error {
	if ctx.Err() != nil {
		return ctx.Err()
	}
	if d.lines == nil {
		return nil
	}
	// Presses made while a step ran do not count for the next one.
	for drained := false; !drained; {
		select {
		case _, ok := <-d.lines:
			if !ok {
				d.lines = nil
				return nil
			}
		default:
			drained = true
		}
	}
	d.con.printf("%s\n", d.con.style(prompt, dim))
	select {
	case <-ctx.Done():
		return ctx.Err()
	case _, ok := <-d.lines:
		if !ok {
			d.lines = nil
			d.con.printf("  (no more input: going on without pausing)\n")
		}
		return nil
	}
}

// readLines delivers the lines of r until it ends or done closes. The
// goroutine is blocked in Read until r ends; os.Stdin ends with the
// process.
func readLines(r io.Reader, done <-chan struct{}) <-chan string {
	ch := make(chan string)
	go func() {
		defer close(ch)
		s := bufio.NewScanner(r)
		for s.Scan() {
			select {
			case ch <- s.Text():
			case <-done:
				return
			}
		}
	}()
	return ch
}
