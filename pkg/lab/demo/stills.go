package demo

import (
	"context"
	"fmt"
	"io"
	"net/url"
	"path/filepath"
	"strings"
	"sync"

	"github.com/kube-rewind/kube-rewind/pkg/lab/chromium"
)

// WriteStills has headless Chromium take every picture of the deck whose
// page is in file (Deck.Stills) into dir, as PNGs of width×height, two at
// a time, for a backup deck of plain pictures. It returns the files
// written, in order, and says each on progress.
func (d *Deck) WriteStills(ctx context.Context, browser, file, dir string, width, height int, progress io.Writer) ([]string, error) {
	abs, err := filepath.Abs(file)
	if err != nil {
		return nil, err
	}
	page := (&url.URL{Scheme: "file", Path: abs}).String()
	stills := d.Stills()
	out := make([]string, len(stills))
	errs := make([]error, len(stills))
	var mu sync.Mutex
	var wg sync.WaitGroup
	sem := make(chan struct{}, 2)
	for i, s := range stills {
		part, name, _ := strings.Cut(s, " ")
		out[i] = filepath.Join(dir, name+".png")
		wg.Add(1)
		go func(i int, part string) {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			if ctx.Err() != nil {
				errs[i] = ctx.Err()
				return
			}
			errs[i] = chromium.Screenshot(ctx, browser, page+"#still="+part, out[i], chromium.Page{Width: width, Height: height, Budget: 1000})
			if errs[i] == nil && progress != nil {
				mu.Lock()
				fmt.Fprintln(progress, out[i])
				mu.Unlock()
			}
		}(i, part)
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return nil, err
		}
	}
	return out, nil
}
