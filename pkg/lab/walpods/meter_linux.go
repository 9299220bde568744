package walpods

import (
	"time"

	"github.com/prometheus/procfs"
	"golang.org/x/sys/unix"
)

// meter measures a poll on the calling thread, which the caller has
// locked to its goroutine: no other goroutine runs there meanwhile, so
// the thread's counters are the poll's.
type meter struct {
	start time.Time
	rchar int64
	cpu0  time.Duration
}

func startMeter() meter {
	return meter{start: time.Now(), rchar: threadRchar(), cpu0: threadCPU()}
}

// cpu is the thread's CPU since startMeter.
func (m meter) cpu() time.Duration { return threadCPU() - m.cpu0 }

// stop writes what was spent since startMeter into c. Bytes counts the
// few hundred bytes of reading the thread's own counter at the end too.
func (m meter) stop(c *Cost) {
	c.Wall = time.Since(m.start)
	c.CPU = m.cpu()
	c.Bytes = -1
	if end := threadRchar(); m.rchar >= 0 && end >= 0 {
		c.Bytes = end - m.rchar
	}
}

// threadCPU is the calling thread's CPU time. CLOCK_THREAD_CPUTIME_ID
// counts to the nanosecond; getrusage's RUSAGE_THREAD only as of the
// thread's last tick or switch.
func threadCPU() time.Duration {
	var ts unix.Timespec
	if unix.ClockGettime(unix.CLOCK_THREAD_CPUTIME_ID, &ts) != nil {
		return 0
	}
	return time.Duration(ts.Nano())
}

// threadRchar is the bytes the calling thread's read system calls have
// returned, from any file (its task's rchar, which procfs reads from the
// thread's own entry, /proc/<tid>/io); -1 if the kernel does not say.
func threadRchar() int64 {
	p, err := procfs.NewProc(unix.Gettid())
	if err != nil {
		return -1
	}
	io, err := p.IO()
	if err != nil {
		return -1
	}
	return int64(io.RChar)
}
