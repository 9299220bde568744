package demo

import (
	"context"
	"fmt"
	"io"
	"net/url"
	"path/filepath"

	"github.com/kube-rewind/kube-rewind/pkg/lab/chromium"
)

// Still is one picture of a deck: where the page shows it
// (#still=<slide>.<part>) and the name of its file.
type Still struct {
	Part string `json:"part"`
	Name string `json:"name"`
}

// WriteStills has headless Chromium take every picture of the deck whose
// page is in file into dir, as PNGs of width×height, for a backup deck of
// plain pictures: every card (each of its pages, where it needs more than
// one at that size), and each recording at the end of each step (steps
// played as one end together, the last one on its results, each page of
// them). The page itself lists them (its stills()), since what needs a
// page of its own depends on the window. It returns the files written, in
// order, and says each on progress.
func WriteStills(ctx context.Context, browser, file, dir string, width, height int, progress io.Writer) ([]string, error) {
	abs, err := filepath.Abs(file)
	if err != nil {
		return nil, err
	}
	page := (&url.URL{Scheme: "file", Path: abs}).String()
	b, err := chromium.Start(ctx, browser)
	if err != nil {
		return nil, err
	}
	defer b.Close()
	tab, err := b.NewTab(width, height)
	if err != nil {
		return nil, err
	}
	defer tab.Close()
	if err := tab.Open(page + "#still=1.1"); err != nil {
		return nil, err
	}
	var stills []Still
	if err := tab.Eval("kubeRewind.stills()", &stills); err != nil {
		return nil, fmt.Errorf("%s lists no pictures: %v", file, err)
	}
	var out []string
	for _, s := range stills {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		if err := tab.Eval(fmt.Sprintf("kubeRewind.still(%q)", s.Part), nil); err != nil {
			return nil, fmt.Errorf("%s#still=%s: %v", file, s.Part, err)
		}
		name := filepath.Join(dir, s.Name+".png")
		if err := tab.Screenshot(name); err != nil {
			return nil, err
		}
		out = append(out, name)
		if progress != nil {
			fmt.Fprintln(progress, name)
		}
	}
	return out, nil
}
