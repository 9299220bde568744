package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"syscall"

	"github.com/kube-rewind/kube-rewind/pkg/lab/demo"
	"github.com/kube-rewind/kube-rewind/pkg/lab/demo/live"
)

// replayCommand plays a recording of talk mode (rcbench demo -record) on
// the same live page and with the same narration, without clusters.
func replayCommand(args []string) int {
	fs := flag.NewFlagSet("rcbench replay", flag.ContinueOnError)
	fs.Usage = func() {
		fmt.Fprintf(fs.Output(), "usage: rcbench replay [flags] FILE\n\nPlays a recording made by rcbench demo -record=FILE on the live page, with its\nnarration in the terminal, pausing for Enter before each step. FILE is the\nrecording's page (which also plays it in a browser, from disk) or its JSON.\n\n")
		fs.PrintDefaults()
	}
	speed := fs.Float64("speed", 1, "Play this many times faster than recorded (1: the recorded pace, 0.5: half as fast).")
	auto := fs.Bool("auto", false, "Play every step without waiting for Enter; the results stay up until Enter or -hold.")
	hold := fs.Duration("hold", 0, "With the results up, stop after this long even without Enter (default: wait for Enter).")
	port := fs.Int("port", 7014, "The live page's port on 127.0.0.1; another free one is used when it is taken.")
	html := fs.String("html", "", "Only write the page that plays the recording by itself, as this version draws it, into this file (it may be FILE itself), and exit.")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	if fs.NArg() != 1 {
		fmt.Fprintln(os.Stderr, "rcbench replay: name one recording (rcbench demo -record=FILE makes one)")
		return 2
	}
	if *speed <= 0 {
		fmt.Fprintf(os.Stderr, "rcbench replay: -speed=%g: want a pace above 0 (1 is the recorded pace)\n", *speed)
		return 2
	}
	file := fs.Arg(0)
	rec, err := demo.ReadRecording(file)
	if err != nil {
		fmt.Fprintf(os.Stderr, "rcbench replay: %v\n", err)
		return 1
	}
	if *html != "" {
		if err := rec.Save(*html); err != nil {
			fmt.Fprintf(os.Stderr, "rcbench replay: %v\n", err)
			return 1
		}
		fmt.Println(*html)
		return 0
	}

	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGINT, syscall.SIGTERM)
	defer stop()
	err = live.Replay(ctx, rec, live.ReplayOptions{
		Speed: *speed,
		Auto:  *auto,
		Hold:  *hold,
		Addr:  fmt.Sprintf("127.0.0.1:%d", *port),
		Out:   os.Stdout,
		In:    os.Stdin,
	})
	switch {
	case err == nil:
		return 0
	case errors.Is(err, context.Canceled):
		fmt.Println("\nInterrupted.")
		return 130
	}
	fmt.Fprintf(os.Stderr, "rcbench replay: %v\n", err)
	return 1
}
