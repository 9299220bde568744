package live

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/kube-rewind/kube-rewind/pkg/lab/demo"
	"github.com/kube-rewind/kube-rewind/pkg/lab/original"
	"github.com/kube-rewind/kube-rewind/pkg/lab/scenario"
	"github.com/kube-rewind/kube-rewind/pkg/lab/scenario/scripts"
	"github.com/kube-rewind/kube-rewind/pkg/lab/stack/today"
)

// Options say which scenario to run, how big, and where.
type Options struct {
	// Scenario is the name of a scenario (scripts.Names).
	Scenario string
	// Size is talk (the default: the size the scenario names for talks,
	// or else its quick one), quick (its smallest size, still with the
	// 10 s period of 2014), default (its largest ordinary size) or large
	// (its largest of all).
	Size string
	// Replicas, Period and Window, when set, override the size's; for
	// rehearsals and tests.
	Replicas int
	Period   time.Duration
	Window   time.Duration
	// Auto runs every step without waiting for Enter. At the end it still
	// waits, for Enter or for Hold, so that the results stay on the page.
	Auto bool
	// Hold, when set, ends the demo that long after the results even
	// without Enter.
	Hold time.Duration
	// Record, when set, is the file the run is recorded into once its
	// results are in: a page that plays it by itself in a browser, which
	// rcbench replay and rcbench deck read too (JSON instead when the name
	// ends in .json). A run that fails or is stopped records nothing.
	Record string
	// Commit is the commit the binaries were built from, which a
	// recording names (rcbench demo -commit; make publish gives it).
	Commit string
	// Addr is where the live page listens, host:port; when it is taken a
	// free loopback port is used instead.
	Addr string
	// BinDir holds the binaries (make build puts them in _output/bin).
	BinDir string
	// Dir holds both clusters' data and logs; empty means a temporary
	// directory, removed at the end unless something failed.
	Dir string
	// Out receives the narration; In the Enter presses.
	Out io.Writer
	In  io.Reader
	// PageReady, when set, is called with the page's URL once it serves.
	PageReady func(url string)
	// Without names changes of pkg/history; when set, today's manager
	// without them plays on the left instead of the 2014 one.
	Without []string
	// Left and Right name the variants of the two sides (pkg/lab/scenario's
	// Variants); empty means 2014 on the left and today on the right.
	Left, Right string
	// Kubeconfig names the cluster the variant cluster plays on, and
	// Namespace the namespace of its own it keeps to there (as rcbench
	// bench -kubeconfig and -namespace).
	Kubeconfig, Namespace string
}

// Report is what a demo leaves behind.
type Report struct {
	Scenario string
	Size     scenario.Size
	URL      string
	Rows     []demo.Row
	// Legacy and Modern are each design's results.
	Legacy, Modern []scenario.Result
	// StepTimes are how long each design took for each step.
	StepTimes [][2]time.Duration
}

// PickSize returns the size opts asks of sc.
func PickSize(sc *scenario.Scenario, opts Options) (scenario.Size, error) {
	var sizes []scenario.Size
	switch opts.Size {
	case "", "talk":
		sizes = sc.Sizes(true, false)[:1]
		if sc.Talk != (scenario.Size{}) {
			sizes = []scenario.Size{sc.Talk}
		}
	case "quick":
		sizes = sc.Sizes(true, false)[:1]
	case "default":
		sizes = sc.Sizes(false, false)
	case "large":
		sizes = sc.Sizes(false, true)
	default:
		return scenario.Size{}, fmt.Errorf("size %q: want talk, quick, default or large", opts.Size)
	}
	sz := sizes[len(sizes)-1]
	if opts.Replicas > 0 {
		sz.Replicas = opts.Replicas
		sz.Label = fmt.Sprintf("N=%d", opts.Replicas)
	}
	if opts.Period > 0 {
		sz.Period = opts.Period
	}
	if opts.Window > 0 {
		sz.Window = opts.Window
	}
	return sz, nil
}

// Run plays one scenario on both designs at once and returns their
// results. It stops everything it started before it returns: on success,
// on error, and when ctx is cancelled (Ctrl-C).
func Run(ctx context.Context, opts Options) (rep *Report, err error) {
	sc, err := scripts.Get(opts.Scenario)
	if err != nil {
		return nil, err
	}
	sz, err := PickSize(sc, opts)
	if err != nil {
		return nil, err
	}
	designs, err := designsFor(opts.Without, opts.Left, opts.Right)
	if err != nil {
		return nil, err
	}
	if err := haveBinaries(opts.BinDir, opts.Kubeconfig, designs); err != nil {
		return nil, err
	}
	if opts.Out == nil {
		opts.Out = io.Discard
	}
	// A recording that cannot be written is better known before the run.
	if opts.Record != "" {
		if err := os.MkdirAll(filepath.Dir(opts.Record), 0o755); err != nil {
			return nil, fmt.Errorf("recording into %s: %v", opts.Record, err)
		}
	}
	con := &console{w: opts.Out, tty: isTerminal(opts.Out)}
	steps := sc.Script.Steps(sz)
	talk := demo.TalkOf(sc, sz, designs)
	d := &show{opts: opts, sc: sc, size: sz, talk: talk, steps: steps, con: con,
		page: demo.NewLivePage(talk, len(steps), true, opts.Record != "")}

	// The page first, so that its address is the first thing printed and
	// the audience's browser can be pointed at it while clusters start.
	stopPage, err := d.page.Serve(opts.Addr)
	if err != nil {
		return nil, fmt.Errorf("serving the live page: %v", err)
	}
	defer stopPage()
	con.printf("%s %s\n", con.style("Live page:", bold), con.style(d.page.URL(), bold+yellow))
	if opts.PageReady != nil {
		opts.PageReady(d.page.URL())
	}

	dir, temp := opts.Dir, false
	if dir == "" {
		if dir, err = os.MkdirTemp("", "kube-rewind-demo-"); err != nil {
			return nil, err
		}
		temp = true
	}
	defer func() {
		if err != nil && !errors.Is(err, context.Canceled) {
			con.printf("The clusters' logs are in %s\n", dir)
		} else if temp {
			os.RemoveAll(dir)
		}
	}()

	d.introduce()
	if err := d.start(dir); err != nil {
		d.page.Update(func(f *demo.Frame) { f.Phase, f.Note = demo.PhaseFailed, err.Error() })
		return nil, err
	}
	defer d.stop()
	rep, err = d.play(ctx)
	if err != nil {
		phase := demo.PhaseFailed
		if ctx.Err() != nil {
			phase = demo.PhaseStopped
		}
		d.page.Update(func(f *demo.Frame) { f.Phase, f.Note = phase, err.Error() })
		return nil, err
	}
	rep.URL = d.page.URL()
	return rep, nil
}

// show is one run of talk mode, or one replay.
type show struct {
	opts Options
	sc   *scenario.Scenario
	size scenario.Size
	talk demo.Talk
	// replay is set when the demo plays a recording: there are no
	// clusters to stop.
	replay bool
	steps  []scenario.Step
	con    *console
	page   *demo.LivePage
	envs   [2]*scenario.Env
	// lines delivers the time each line of input was read: a press of
	// Enter.
	lines <-chan time.Time
	// asked is when the demo last asked for Enter: on the page, and then
	// in the terminal. A press from before it was meant for an earlier
	// question and does not count.
	asked time.Time
	// ending is set once the results are up and only the hold is left.
	ending bool
}

func (d *show) introduce() { introduce(d.con, d.talk) }

// introduce says what the scenario is about and which side is which.
func introduce(c *console, t demo.Talk) {
	c.printf("\n%s  %s\n", c.style(t.Name, bold), c.style(t.Title, bold))
	c.printf("%s\n", wrap("Reproduces "+t.Reproduces, 78, "  "))
	c.printf("\n%s\n\n", wrap(t.Explain, 78, "  "))
	c.printf("  Size %s, sync period %s. Two identical clusters on loopback:\n  %s on the left of the page, %s on the right.\n",
		t.Size, t.Period, c.style(t.Designs[0].Short+"'s controller-manager", violet), c.style(t.Designs[1].Short+"'s", teal))
}

// start brings up both clusters at once; if either fails, neither stays.
func (d *show) start(dir string) error {
	d.con.printf("\nStarting both clusters…\n")
	began := time.Now()
	var wg sync.WaitGroup
	errs := make([]error, 2)
	for i, ds := range d.talk.Designs {
		v := ds.Variant
		wg.Add(1)
		go func(i int, v scenario.Variant) {
			defer wg.Done()
			e, err := scenario.Start(d.sc, v, d.size, scenario.Options{BinDir: d.opts.BinDir, OriginalDir: original.DirBeside(d.opts.BinDir), TodayDir: today.DirBeside(d.opts.BinDir), Dir: filepath.Join(dir, v.Name),
				Kubeconfig: d.opts.Kubeconfig, Namespace: d.opts.Namespace})
			if err != nil {
				errs[i] = fmt.Errorf("starting the %s cluster: %v", v.Name, err)
				return
			}
			d.envs[i] = e
			d.page.Attach(i, e)
		}(i, v)
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		d.stop()
		return err
	}
	d.con.printf("Both clusters are up (%.1f s).\n", time.Since(began).Seconds())
	return nil
}

// stop ends both clusters, in parallel, and waits until every process has
// exited.
func (d *show) stop() {
	var wg sync.WaitGroup
	for i, e := range d.envs {
		if e == nil {
			continue
		}
		wg.Add(1)
		go func(i int, e *scenario.Env) {
			defer wg.Done()
			d.page.Detach(i)
			e.Close()
		}(i, e)
		d.envs[i] = nil
	}
	wg.Wait()
}
