package live

import (
	"context"
	"fmt"
	"io"
	"testing"
	"time"
)

// pressed reports whether waitEnter returns within wait, as it does once
// it has a press that counts.
func pressed(d *show, wait time.Duration) bool {
	ctx, cancel := context.WithTimeout(context.Background(), wait)
	defer cancel()
	return d.waitEnter(ctx, "") == nil
}

// lineRead waits until the demo's reader has taken in what was typed.
func lineRead(t *testing.T, d *show) {
	t.Helper()
	for deadline := time.Now().Add(time.Minute); len(d.lines) == 0; time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the line typed never reached the demo")
		}
	}
}

func TestEnterPressedOnceThePageAsksCountsEvenBeforeTheTerminalAsks(t *testing.T) {
	// The page shows "press Enter" a moment before waitEnter prints its
	// prompt; a speaker (or a test) who presses as soon as the page asks
	// must not be ignored: the demo would wait for ever.
	in, press := io.Pipe()
	defer press.Close()
	d := &show{opts: Options{In: in}, con: &console{w: io.Discard}}
	d.lines = readLines(in, make(chan struct{}))
	d.ask()
	fmt.Fprintln(press)
	lineRead(t, d)
	if !pressed(d, time.Minute) {
		t.Fatal("a press made after the page asked was dropped")
	}
}

func TestEnterPressedWhileAStepRanDoesNotAnswerTheNextQuestion(t *testing.T) {
	in, press := io.Pipe()
	defer press.Close()
	d := &show{opts: Options{In: in}, con: &console{w: io.Discard}}
	d.lines = readLines(in, make(chan struct{}))
	fmt.Fprintln(press) // during the step
	fmt.Fprintln(press) // and once more, impatiently
	lineRead(t, d)
	time.Sleep(10 * time.Millisecond)
	d.ask()
	if pressed(d, 300*time.Millisecond) {
		t.Fatal("a press made while the step ran started the next one")
	}
	go fmt.Fprintln(press)
	if !pressed(d, time.Minute) {
		t.Fatal("a press made after the demo asked was dropped")
	}
}
