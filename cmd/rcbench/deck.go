package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"strings"
	"syscall"

	"github.com/kube-rewind/kube-rewind/pkg/lab/chromium"
	"github.com/kube-rewind/kube-rewind/pkg/lab/demo"
	"github.com/kube-rewind/kube-rewind/pkg/lab/demo/deck"
)

// deckCommand makes a whole talk: one page that plays from disk, from a
// Markdown outline (title card, text and code cards, the recordings in the
// speaker's order, notes) or from recordings alone; -stills has Chromium
// export its pictures.
func deckCommand(args []string) int {
	fs := flag.NewFlagSet("rcbench deck", flag.ContinueOnError)
	fs.Usage = func() {
		fmt.Fprintf(fs.Output(), "usage: rcbench deck [flags] OUTLINE.md\n       rcbench deck [flags] RECORDING...\n\n"+
			"Makes one page that plays a whole talk from disk, with no server and no network.\n"+
			"OUTLINE.md is a Markdown outline of the talk: # its title, the title card's lines\n"+
			"under it (the speaker's name, the event), and one ## section per slide, each a card\n"+
			"of text or one of these, on a line of its own:\n"+
			"  recording: FILE          a recording (rcbench demo -record), after a card that places\n"+
			"                           it on the history's timeline\n"+
			"  code: DIR NAME [today]   a declaration of the project's source, cut by name from the\n"+
			"                           2014 build (or today's); focus: TEXT and mark: TEXT narrow it\n"+
			"  timeline                 the changes of pkg/history, those shown highlighted\n"+
			"  summary                  each recording's figure, 2014 against today\n"+
			"Quotes (> ...) are the speaker's notes; minutes: N under the title the talk's length.\n"+
			"Given recordings instead, the deck is a title card, the timeline, each recording in\n"+
			"the order given after its card, and the summary. s on the page opens the presenter view.\n\n")
		fs.PrintDefaults()
	}
	out := fs.String("o", "talk.html", "The page to write.")
	title := fs.String("title", "Kubernetes' control loop, 2014 → today", "The talk's title, on its first card, for a deck made of recordings alone (an outline has its own).")
	root := fs.String("root", ".", "The top of the kube-rewind repository, where an outline's code: cards are cut from.")
	stills := fs.String("stills", "", "Also export every card, and each recording at the end of each step, as PNGs into this directory (needs headless Chromium).")
	size := fs.String("still-size", "1920x1080", "The stills' size in pixels, WIDTHxHEIGHT.")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	if fs.NArg() == 0 {
		fmt.Fprintln(os.Stderr, "rcbench deck: name the recordings to play, in order (rcbench demo -record=FILE makes one), or the talk's outline (OUTLINE.md)")
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
	d, err := makeDeck(fs.Args(), *title, *root)
	if err == nil {
		var page []byte
		if page, err = d.HTML(); err == nil {
			err = os.WriteFile(*out, page, 0o644)
		}
	}
	if err != nil {
		fmt.Fprintf(os.Stderr, "rcbench deck: %v\n", err)
		return 1
	}
	fmt.Printf("%s: %d slides, %d recordings; open it in a browser, and press s there for the presenter view.\n", *out, len(d.Slides), len(d.Recordings))
	if *stills == "" {
		return 0
	}
	if err := os.MkdirAll(*stills, 0o755); err != nil {
		fmt.Fprintf(os.Stderr, "rcbench deck: %v\n", err)
		return 1
	}
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGINT, syscall.SIGTERM)
	defer stop()
	files, err := demo.WriteStills(ctx, browser, *out, *stills, width, height, os.Stdout)
	if err != nil {
		fmt.Fprintf(os.Stderr, "rcbench deck: stills: %v\n", err)
		return 1
	}
	fmt.Printf("%d stills in %s.\n", len(files), *stills)
	return 0
}

// makeDeck makes the deck of an outline (one .md file) or of recordings.
func makeDeck(files []string, title, root string) (*deck.Deck, error) {
	if len(files) == 1 && strings.HasSuffix(files[0], ".md") {
		o, err := deck.ReadOutline(files[0])
		if err != nil {
			return nil, err
		}
		return o.Deck(root)
	}
	var recs []*demo.Recording
	for _, file := range files {
		if strings.HasSuffix(file, ".md") {
			return nil, fmt.Errorf("%s: an outline is the deck's only argument", file)
		}
		rec, err := demo.ReadRecording(file)
		if err != nil {
			return nil, err
		}
		recs = append(recs, rec)
	}
	return deck.BuildDeck(title, recs)
}
