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
	rep.Rows = compareAs([2]string{d.designs[0].Label, d.designs[1].Label}, rep.Legacy, rep.Modern)
	d.hub.update(func(f *Frame) {
		f.Phase, f.Results = PhaseDone, rep.Rows
		f.Note = "Done. The table compares both designs; the counters show where each ended."
	})
	c.printResults(d.sc, d.size, rep.Rows, rep.Legacy, rep.Modern)
	if err := d.waitEnter(ctx, "\n  [Enter] stops both clusters and exits; the page stays as it is until then."); err != nil {
		return nil, err
	}
	return rep, nil
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
				errs[k] = fmt.Errorf("%s, step %d (%s): %v", d.designs[k].Variant.Name, i+1, step.Title, err)
				cancel()
			}
			finished <- k
		}(k, e)
	}
	allDone := make(chan struct{})
	go func() { wg.Wait(); close(allDone) }()

	tick := time.NewTicker(frameEvery)
	defer tick.Stop()
	d.showCounters(true)
	for {
		select {
		case k := <-finished:
			// A step that is over at once on both sides is no news.
			if errs[k] != nil || times[k] < 500*time.Millisecond {
				continue
			}
			news := fmt.Sprintf("%s finished this step in %.1f s", d.designs[k].Heading, times[k].Seconds())
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
	if len(f.Sides) < 2 {
		return
	}
	d.con.setLive([]string{d.con.counterLine(f.Sides[0]), d.con.counterLine(f.Sides[1])}, force)
}

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
