//go:build !linux

package walpods

import "time"

// meter measures a poll's wall time only: the thread's counters are
// Linux's.
type meter struct{ start time.Time }

func startMeter() meter { return meter{start: time.Now()} }

// stop writes what was spent since startMeter into c.
func (m meter) stop(c *Cost) {
	c.Wall = time.Since(m.start)
	c.Bytes = -1
}

// cpu is the thread's CPU since startMeter: not measured here.
func (m meter) cpu() time.Duration { return 0 }
