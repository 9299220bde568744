package live

import (
	"context"
	"fmt"
	"io"
	"testing"
	"time"
)

// holdDemo is a demo that has just shown its results, run with -auto: its
// input is open and nobody presses Enter unless the test does.
func holdDemo(hold time.Duration) (*show, *io.PipeWriter) {
	in, press := io.Pipe()
	d := &show{opts: Options{Auto: true, Hold: hold, In: in}, con: &console{w: io.Discard}}
	d.lines = readLines(in, make(chan struct{}))
	return d, press
}

func TestTheResultsStayUpUntilEnter(t *testing.T) {
	d, press := holdDemo(0)
	defer press.Close()
	ended := make(chan error, 1)
	go func() { ended <- d.holdEnd(context.Background()) }()
	select {
	case err := <-ended:
		t.Fatalf("the demo ended by itself (%v), with the results still to be read", err)
	case <-time.After(300 * time.Millisecond):
	}
	fmt.Fprintln(press)
	if err := <-ended; err != nil {
		t.Fatalf("holdEnd after Enter: %v", err)
	}
}

func TestHoldEndsTheDemoWithoutEnter(t *testing.T) {
	d, press := holdDemo(100 * time.Millisecond)
	defer press.Close()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if err := d.holdEnd(ctx); err != nil {
		t.Fatalf("holdEnd with -hold and no Enter: %v", err)
	}
	if ctx.Err() != nil {
		t.Fatal("-hold did not end the wait")
	}
}
