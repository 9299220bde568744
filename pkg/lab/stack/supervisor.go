package stack

// The one supervisor of both stacks, this package's 2014 cluster and
// today's (pkg/lab/stack/today): it starts each process with its log,
// waits until it is healthy, and starts again a process that must stay up
// when it exits by itself: what a kubelet (static pods) or systemd does
// for a real cluster's control plane.

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"sync"
	"syscall"
	"time"

	"k8s.io/apimachinery/pkg/util/wait"
)

// SupervisorOptions says how a Supervisor starts its stack's processes.
type SupervisorOptions struct {
	// Lock is the stack's own lock. The supervisor guards what it holds
	// (the managers, the open logs, whether the stack stopped) with it,
	// so that the stack reads those in the same critical section as its
	// own fields, and no two locks need an order.
	Lock sync.Locker
	// BinDir is where a binary named without a directory is found.
	BinDir string
	// Dir holds one log per component, <component>.log, unless Output
	// is set.
	Dir string
	// Output, when set, returns where a component's output goes.
	Output func(component string) io.Writer
	// Ready is how long a process may take to become healthy.
	Ready time.Duration
	// Client asks the health checks; nil is plain HTTP with a 2 s
	// timeout.
	Client *http.Client
	// Token, when set, returns the bearer token the health check of a
	// component needs, or "" for none.
	Token func(component string) string
}

// Supervisor starts and keeps the processes of one stack.
type Supervisor struct {
	o SupervisorOptions
	// stopped is set once the stack stops: nothing is started again
	// after.
	stopped bool
	// logs are the log files Output opened, closed by Close.
	logs []io.Closer
}

// NewSupervisor returns a supervisor that starts processes as o says.
func NewSupervisor(o SupervisorOptions) *Supervisor {
	if o.Client == nil {
		o.Client = &http.Client{Timeout: 2 * time.Second}
	}
	return &Supervisor{o: o}
}

// healthPoll is how often a starting process's health is asked for.
const healthPoll = 50 * time.Millisecond

// Output returns where a component's output goes: Output's writer, or its
// log file in Dir, opened for appending and kept open until Close.
func (sv *Supervisor) Output(component string) (io.Writer, error) {
	if sv.o.Output != nil {
		return sv.o.Output(component), nil
	}
	f, err := os.OpenFile(filepath.Join(sv.o.Dir, component+".log"), os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return nil, err
	}
	sv.o.Lock.Lock()
	sv.logs = append(sv.logs, f)
	sv.o.Lock.Unlock()
	return f, nil
}

// Note writes a line of the stack's own into a component's log.
func (sv *Supervisor) Note(component, format string, args ...interface{}) {
	if out, err := sv.Output(component); err == nil {
		fmt.Fprintf(out, "stack: "+format+"\n", args...)
	}
}

// Start runs a component from binary, its output to the component's log,
// and waits until health(port) answers 200 from it. It serves on port, or
// on a free port when port is 0. A start that fails is tried again on
// another free port, three times in all, since a free port picked may be
// taken before the process binds it; with onlyPort, port is the only one
// tried. It returns the healthy process and its port.
func (sv *Supervisor) Start(component, binary string, port int, onlyPort bool, args func(port int) []string, health func(port int) string) (*Process, int, error) {
	out, err := sv.Output(component)
	if err != nil {
		return nil, 0, err
	}
	path := binary
	if !filepath.IsAbs(path) {
		path = filepath.Join(sv.o.BinDir, binary)
	}
	var lastErr error
	for attempt := 0; attempt < 3; attempt++ {
		// A restart that began before the stack stopped starts nothing
		// after it.
		if sv.Stopped() {
			return nil, 0, fmt.Errorf("%s: not started: the stack has stopped", component)
		}
		try := port
		if attempt > 0 || try == 0 {
			if try, err = FreePort(); err != nil {
				return nil, 0, err
			}
		}
		p, err := startProcess(component, path, args(try), out)
		if err != nil {
			return nil, 0, err
		}
		if lastErr = sv.waitHealthy(p, health(try)); lastErr == nil {
			return p, try, nil
		}
		p.Kill(syscall.SIGKILL, 0)
		if onlyPort {
			break
		}
	}
	return nil, 0, lastErr
}

// waitHealthy asks url for p's health every healthPoll until it answers
// 200 from a port p listens on. It gives up when p exits or Ready passes,
// with an error that names p, says which of the two ended the wait, and
// where p's log is.
func (sv *Supervisor) waitHealthy(p *Process, url string) error {
	var last string
	err := wait.PollUntilContextTimeout(context.Background(), healthPoll, sv.o.Ready, true, func(ctx context.Context) (bool, error) {
		if exited, err := p.Exited(); exited {
			// The end of its log goes with the error: a test's log lives
			// in a directory removed with the test, and CI keeps only
			// what the test said.
			msg := fmt.Sprintf("%s exited before becoming healthy: %v%s", p.Name, err, logNote(p))
			if tail := p.LogTail(5); tail != "" {
				msg += "; the end of its log:\n" + tail
			}
			return false, errors.New(msg)
		}
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
		if err != nil {
			return false, err
		}
		if sv.o.Token != nil {
			if token := sv.o.Token(p.Name); token != "" {
				req.Header.Set("Authorization", "Bearer "+token)
			}
		}
		resp, err := sv.o.Client.Do(req)
		if err != nil {
			// A request cut short by the deadline says nothing of p.
			if ctx.Err() == nil {
				last = err.Error()
			}
			return false, nil
		}
		resp.Body.Close()
		last = resp.Status
		// Another process may hold the port p was told to serve on,
		// and answer for it while p dies failing to bind.
		return resp.StatusCode == http.StatusOK && listensOn(p.Pid(), url), nil
	})
	if wait.Interrupted(err) {
		msg := fmt.Sprintf("%s did not become healthy at %s within %v", p.Name, url, sv.o.Ready)
		if last != "" {
			msg += " (last answer: " + last + ")"
		}
		return errors.New(msg + logNote(p))
	}
	return err
}

// logNote says where p's log is, or nothing when it writes to none.
func logNote(p *Process) string {
	if p.Log() == "" {
		return ""
	}
	return "; its log is " + p.Log()
}

// Keep takes p, just started, into the stack through set, which runs
// under the stack's lock, and watches it: when p exits by itself, start
// starts it again. If the stack stopped meanwhile, Keep kills p instead.
//
// The stack stands in for the supervisor a component of today's design
// counts on (the kubelet of a static pod, systemd): a controller manager
// or scheduler that loses its leader election exits, and an apiserver
// slow for longer than the lease's renew deadline (10 s), as a killed one
// or a starved machine makes it, ends it. Without a supervisor the
// cluster is left without the component for good.
func (sv *Supervisor) Keep(p *Process, set func(), start func() error) error {
	sv.o.Lock.Lock()
	defer sv.o.Lock.Unlock()
	if sv.stopped {
		p.Kill(syscall.SIGKILL, 0)
		return fmt.Errorf("the stack stopped while %s started", p.Name)
	}
	set()
	go sv.supervise(p, start)
	return nil
}

// supervise waits for p to exit and, if it exited by itself (not through
// Kill) while the stack runs, writes why in its log and calls start.
//
// Ours: a component that cannot start again is left dead, and says why in
// its log.
func (sv *Supervisor) supervise(p *Process, start func() error) {
	<-p.Done()
	if sv.Stopped() || p.Killed() {
		return
	}
	_, exit := p.Exited()
	sv.Note(p.Name, "%s exited by itself (%v); the stack starts it again, as its supervisor would", p.Name, exit)
	if err := start(); err != nil {
		sv.Note(p.Name, "%s could not be started again: %v", p.Name, err)
	}
}

// Stopped reports whether the stack has begun to stop.
func (sv *Supervisor) Stopped() bool {
	sv.o.Lock.Lock()
	defer sv.o.Lock.Unlock()
	return sv.stopped
}

// Halt marks the stack stopped: from now on no process is kept or started
// again. The stack then stops its processes itself, in its own order.
func (sv *Supervisor) Halt() {
	sv.o.Lock.Lock()
	sv.stopped = true
	sv.o.Lock.Unlock()
}

// Close closes the log files Output opened.
func (sv *Supervisor) Close() {
	sv.o.Lock.Lock()
	logs := sv.logs
	sv.logs = nil
	sv.o.Lock.Unlock()
	for _, l := range logs {
		l.Close()
	}
}
