//go:build unix

package chromium

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/target"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// A Browser is one headless Chromium that serves several tabs, driven
// through the DevTools protocol (chromedp): a test or a command that looks
// at many pages, or at one page in many states, starts the browser once,
// where Screenshot and DumpDOM start one for each page.
type Browser struct {
	ctx    context.Context
	cancel context.CancelFunc
}

// Start starts the browser bin, headless, with a profile of its own that
// is removed when the browser is closed. It stops when ctx ends or Close
// is called.
func Start(ctx context.Context, bin string) (*Browser, error) {
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(bin), chromedp.NoSandbox, chromedp.DisableGPU,
		chromedp.Flag("hide-scrollbars", true), chromedp.Flag("disable-quic", true),
		chromedp.Flag("disable-component-update", true))
	actx, cancelAlloc := chromedp.NewExecAllocator(ctx, opts...)
	bctx, cancelBrowser := chromedp.NewContext(actx)
	// The first action starts the browser and opens its first tab, which
	// the browser keeps; tabs are opened beside it.
	if err := chromedp.Do(bctx); err != nil {
		cancelBrowser()
		cancelAlloc()
		return nil, fmt.Errorf("starting %s: %v", bin, err)
	}
	return &Browser{ctx: bctx, cancel: func() { cancelBrowser(); cancelAlloc() }}, nil
}

// Close stops the browser and every tab.
func (b *Browser) Close() { b.cancel() }

// Tab is one page of a Browser. A tab is used by one goroutine at a time.
type Tab struct {
	ctx    context.Context
	cancel context.CancelFunc
}

// NewTab opens a blank tab whose window is width×height CSS pixels.
func (b *Browser) NewTab(width, height int) (*Tab, error) {
	ctx, cancel := chromedp.NewContext(b.ctx)
	t := &Tab{ctx: ctx, cancel: cancel}
	if err := t.Size(width, height); err != nil {
		cancel()
		return nil, err
	}
	return t, nil
}

// Close closes the tab.
func (t *Tab) Close() { t.cancel() }

// Size makes the tab's window width×height CSS pixels, one device pixel
// each: what the page sees as its window, and what a screenshot holds.
func (t *Tab) Size(width, height int) error {
	return chromedp.Do(t.ctx, chromedp.EmulateViewport(int64(width), int64(height)))
}

// Open loads url and waits for its load event.
func (t *Tab) Open(url string) error {
	return chromedp.Do(t.ctx, chromedp.Navigate(url))
}

// Eval runs the JavaScript expression js in the page and stores its
// result, as JSON, in out (nil to drop it).
func (t *Tab) Eval(js string, out any) error {
	raw, err := chromedp.Run(t.ctx, chromedp.Evaluate[[]byte](js))
	if err != nil || out == nil {
		return err
	}
	if len(raw) == 0 {
		return fmt.Errorf("%s has no value", js)
	}
	return json.Unmarshal(raw, out)
}

// Wait evaluates js until it is true, every 50 ms, for at most limit.
func (t *Tab) Wait(js string, limit time.Duration) error {
	deadline := time.Now().Add(limit)
	for {
		var ok bool
		if err := t.Eval("!!("+js+")", &ok); err != nil {
			return err
		}
		if ok {
			return nil
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("waited %v for %s", limit, js)
		}
		select {
		case <-t.ctx.Done():
			return t.ctx.Err()
		case <-time.After(50 * time.Millisecond):
		}
	}
}

// Key presses and releases one key, as a keyboard would: a character, or
// the name of a key that has none ("Enter", "ArrowRight", "Home", ...).
func (t *Tab) Key(key string) error {
	if k, ok := keyNames[key]; ok {
		key = k
	}
	return chromedp.Do(t.ctx, chromedp.KeyEvent(key))
}

// Screenshot writes what the tab's window shows into the PNG file out.
func (t *Tab) Screenshot(out string) error {
	png, err := chromedp.Run(t.ctx, chromedp.CaptureScreenshot())
	if err != nil {
		return err
	}
	return os.WriteFile(out, png, 0o644)
}

// PDF prints the page as the browser's Print to PDF does, on the page
// size its style asks for (@page), backgrounds included.
func (t *Tab) PDF() ([]byte, error) {
	return chromedp.Run(t.ctx, chromedp.PrintToPDF(chromedp.PDFPreferCSSPageSize(), chromedp.PDFPrintBackground(), chromedp.PDFMargin(0)))
}

// Opened runs act, which must make the page open a window (window.open),
// and returns that window as a tab of its own, once it has loaded.
func (t *Tab) Opened(act func() error) (*Tab, error) {
	ctx, cancel := context.WithTimeout(t.ctx, 30*time.Second)
	defer cancel()
	ids := chromedp.WaitNewTarget(ctx, func(info *target.Info) bool { return info.Type == "page" })
	if err := act(); err != nil {
		return nil, err
	}
	id, ok := <-ids
	if !ok {
		return nil, errors.New("the page opened no window")
	}
	pctx, pcancel := chromedp.NewContext(t.ctx, chromedp.WithTargetID(id))
	w := &Tab{ctx: pctx, cancel: pcancel}
	if err := w.Wait(`document.readyState === "complete"`, 30*time.Second); err != nil {
		pcancel()
		return nil, err
	}
	return w, nil
}

// WindowSize is the size the page sees as its window, for a tab that the
// page opened itself (Opened), whose size the page chose.
func (t *Tab) WindowSize() (width, height int, err error) {
	var wh [2]int
	err = t.Eval("[window.innerWidth, window.innerHeight]", &wh)
	return wh[0], wh[1], err
}

// ResetSize gives an opened window the size it asked for again, undoing
// Size.
func (t *Tab) ResetSize() error {
	_, err := chromedp.Call(t.ctx, emulation.ClearDeviceMetricsOverride, cdp.Empty{})
	return err
}

// keyNames are the names a caller may use for keys without a character.
var keyNames = map[string]string{
	"Enter":      kb.Enter,
	"ArrowRight": kb.ArrowRight,
	"ArrowLeft":  kb.ArrowLeft,
	"ArrowUp":    kb.ArrowUp,
	"ArrowDown":  kb.ArrowDown,
	"Home":       kb.Home,
	"End":        kb.End,
	"PageDown":   kb.PageDown,
	"PageUp":     kb.PageUp,
	"Backspace":  kb.Backspace,
}
