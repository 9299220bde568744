package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"syscall"

	"github.com/kube-rewind/kube-rewind/pkg/lab/chromium"
	"github.com/kube-rewind/kube-rewind/pkg/lab/demo"
)

// deckCommand makes a whole talk of recordings: one page, with title and
// timeline cards, the recordings in the order given and the speaker's
// notes, that plays from disk; -stills has Chromium export its pictures.
func deckCommand(args []string) int {
	fs := flag.NewFlagSet("rcbench deck", flag.ContinueOnError)
	fs.Usage = func() {
		fmt.Fprintf(fs.Output(), "usage: rcbench deck [flags] RECORDING...\n\nMakes one page that plays a whole talk from disk, with no server and no network:\na title card, the history's timeline, and each recording (rcbench demo -record)\nin the order given, each after a card placing it on the timeline, then a card\nof what each measured. n shows the speaker's notes.\n\n")
		fs.PrintDefaults()
	}
	out := fs.String("o", "talk.html", "The page to write.")
	title := fs.String("title", "Kubernetes' control loop, 2014 → today", "The talk's title, on its first card.")
	stills := fs.String("stills", "", "Also export every card, and each recording at the end of each step, as PNGs into this directory (needs headless Chromium).")
	size := fs.String("still-size", "1920x1080", "The stills' size in pixels, WIDTHxHEIGHT.")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	if fs.NArg() == 0 {
		fmt.Fprintln(os.Stderr, "rcbench deck: name the recordings to play, in order (rcbench demo -record=FILE makes one)")
		return 2
	}
	var width, height int
	if _, err := fmt.Sscanf(*size, "%dx%d", &width, &height); err != nil || width < 320 || height < 240 {
		fmt.Fprintf(os.Stderr, "rcbench deck: -still-size=%s: want WIDTHxHEIGHT, at least 320x240\n", *size)
		return 2
	}
	browser := ""
	if *stills != "" {
		b, err := chromium.Find()
		if err != nil {
			fmt.Fprintf(os.Stderr, "rcbench deck: -stills needs headless Chromium: %v\n", err)
			return 1
		}
		browser = b
	}
	var recs []*demo.Recording
	for _, file := range fs.Args() {
		rec, err := demo.ReadRecording(file)
		if err != nil {
			fmt.Fprintf(os.Stderr, "rcbench deck: %v\n", err)
			return 1
		}
		recs = append(recs, rec)
	}
	deck, err := demo.BuildDeck(*title, recs)
	if err == nil {
		var page []byte
		if page, err = deck.HTML(); err == nil {
			err = os.WriteFile(*out, page, 0o644)
		}
	}
	if err != nil {
		fmt.Fprintf(os.Stderr, "rcbench deck: %v\n", err)
		return 1
	}
	fmt.Printf("%s: %d slides, %d recordings; open it in a browser.\n", *out, len(deck.Slides), len(recs))
	if *stills == "" {
		return 0
	}
	if err := os.MkdirAll(*stills, 0o755); err != nil {
		fmt.Fprintf(os.Stderr, "rcbench deck: %v\n", err)
		return 1
	}
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGINT, syscall.SIGTERM)
	defer stop()
	files, err := deck.WriteStills(ctx, browser, *out, *stills, width, height, os.Stdout)
	if err != nil {
		fmt.Fprintf(os.Stderr, "rcbench deck: stills: %v\n", err)
		return 1
	}
	fmt.Printf("%d stills in %s.\n", len(files), *stills)
	return 0
}
