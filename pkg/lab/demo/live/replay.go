package live

import (
	"context"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/kube-rewind/kube-rewind/pkg/lab/demo"
)

// ReplayOptions say how to play a recording.
type ReplayOptions struct {
	// Speed is how many times faster than recorded the frames go: 2 plays
	// twice as fast, 0.5 at half the pace; 0 means the recorded pace.
	Speed float64
	// Auto plays every step without waiting for Enter; Hold and the end
	// work as in a live run.
	Auto bool
	Hold time.Duration
	// Addr is where the page listens, host:port; when it is taken a free
	// loopback port is used instead.
	Addr string
	Out  io.Writer
	In   io.Reader
	// PageReady, when set, is called with the page's URL once it serves.
	PageReady func(url string)
}

// Replay plays rec on the live page and in the terminal as the run went:
// the same narration, the same frames at the recorded pace (or Speed times
// faster), and a pause for Enter before each step, where the speaker of
// the recording paused. The time spent starting the clusters and waiting
// for Enter is left out.
func Replay(ctx context.Context, rec *demo.Recording, opts ReplayOptions) error {
	if opts.Out == nil {
		opts.Out = io.Discard
	}
	if opts.Speed <= 0 {
		opts.Speed = 1
	}
	con := &console{w: opts.Out, tty: isTerminal(opts.Out)}
	talk := rec.Talk
	d := &show{
		opts: Options{Auto: opts.Auto, Hold: opts.Hold, In: opts.In},
		talk: talk, con: con, page: demo.NewLivePage(talk, 0, false, false), replay: true,
	}
	frames := rec.Frames
	d.page.Publish(frames[0])
	stopPage, err := d.page.Serve(opts.Addr)
	if err != nil {
		return fmt.Errorf("serving the live page: %v", err)
	}
	defer stopPage()
	con.printf("%s %s\n", con.style("Live page:", bold), con.style(d.page.URL(), bold+yellow))
	if opts.PageReady != nil {
		opts.PageReady(d.page.URL())
	}
	done := make(chan struct{})
	defer close(done)
	if opts.In != nil {
		d.lines = readLines(opts.In, done)
	}
	con.printf("%s\n", con.style(fmt.Sprintf("A recording of %s, made %s, played at %g× its pace.", talk.Name, talk.Recorded, opts.Speed), dim))
	introduce(con, talk)

	// The replay starts where both clusters were up.
	i := 0
	for i < len(frames)-1 && !(frames[i].Sides[0].Ready && frames[i].Sides[1].Ready) {
		i++
	}
	offset, prev, step, note, then := frames[i].T, frames[i].T, 0, "", ""
	for ; i < len(frames); i++ {
		f := frames[i]
		// The conclusion of steps played as one comes once they are over.
		if f.Then != "" && f.Then != then {
			con.printf("%s\n", wrap(f.Then, 78, "  "))
		}
		then = f.Then
		if f.Phase == demo.PhaseReady && f.Step != step {
			step = f.Step
			f.T -= offset
			d.ask()
			d.page.Publish(f)
			con.printf("\n%s %s\n", con.style(fmt.Sprintf("Step %d of %d:", f.Step, f.Steps), bold), con.style(f.Title, bold))
			con.printf("%s\n", wrap(f.Say, 78, "  "))
			if err := d.pause(ctx, "  [Enter] plays this step on both sides."); err != nil {
				return err
			}
			// The recording's own pause is skipped: the next frame
			// follows at once.
			j := i + 1
			for j < len(frames) && frames[j].Phase == demo.PhaseReady && frames[j].Step == step {
				j++
			}
			if j < len(frames) {
				offset += frames[j].T - frames[i].T
				prev = frames[j].T
			}
			i = j - 1
			con.holdLive()
			continue
		}
		if f.Phase == demo.PhaseRunning && f.From > 0 && f.Step != step {
			step = f.Step
			con.printf("\n%s %s\n", con.style(fmt.Sprintf("Steps %d–%d of %d:", f.From, f.Step, f.Steps), bold), con.style(f.Title, bold))
			con.printf("%s\n", con.style(fmt.Sprintf("  at once: step %d was over in well under a second, its outcome still to come", f.Step-1), dim))
		}
		if wait := time.Duration((f.T - prev) / opts.Speed * float64(time.Second)); wait > 0 {
			select {
			case <-ctx.Done():
				return ctx.Err()
			case <-time.After(wait):
			}
		}
		prev = f.T
		f.T -= offset
		if f.Phase == demo.PhaseDone {
			d.ask()
		}
		d.page.Publish(f)
		// A note grows by "; " and news as each design finishes a step.
		if f.Note != note && f.Phase == demo.PhaseRunning && f.Note != "" {
			news := strings.TrimPrefix(strings.TrimPrefix(f.Note, note), "; ")
			con.printf("  %s\n", con.style(news, dim))
		}
		note = f.Note
		if f.Phase == demo.PhaseDone {
			d.showCounters(true)
			con.keepLive()
			con.printResults(talk, rec.Results, rec.Verdicts)
			break
		}
		d.showCounters(false)
	}
	return d.holdEnd(ctx)
}

// pause waits for Enter before a step, unless the replay plays by itself.
func (d *show) pause(ctx context.Context, prompt string) error {
	if d.opts.Auto {
		return ctx.Err()
	}
	return d.waitEnter(ctx, prompt)
}
