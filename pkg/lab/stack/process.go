package stack

import (
	"fmt"
	"io"
	"net"
	"net/url"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/kube-rewind/kube-rewind/pkg/etcd/etcdtest"
	"github.com/prometheus/procfs"
)

// Process is one running component.
type Process struct {
	Name string
	Args []string
	cmd  *exec.Cmd
	done chan struct{}
	err  error
	// killed says the process was stopped through Kill, not by itself.
	killed bool
	mu     sync.Mutex
	// log is the file its output goes to, or "".
	log string
}

// startProcess runs bin with args, sending its output to out. The child is
// killed if this process dies, so nothing is left behind even after a crash.
func startProcess(name, bin string, args []string, out io.Writer) (*Process, error) {
	cmd := exec.Command(bin, args...)
	cmd.Stdout = out
	cmd.Stderr = out
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL, Setpgid: true}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("starting %s: %v", name, err)
	}
	p := &Process{Name: name, Args: args, cmd: cmd, done: make(chan struct{})}
	if f, ok := out.(*os.File); ok && f != os.Stdout && f != os.Stderr {
		p.log = f.Name()
	}
	go func() {
		err := cmd.Wait()
		p.mu.Lock()
		p.err = err
		p.mu.Unlock()
		close(p.done)
	}()
	return p, nil
}

// Pid returns the process id.
func (p *Process) Pid() int { return p.cmd.Process.Pid }

// Done is closed when the process has exited.
func (p *Process) Done() <-chan struct{} { return p.done }

// Exited reports whether the process has exited, and how.
func (p *Process) Exited() (bool, error) {
	select {
	case <-p.done:
		p.mu.Lock()
		defer p.mu.Unlock()
		return true, p.err
	default:
		return false, nil
	}
}

// Log returns the file the process writes its output to, or "".
func (p *Process) Log() string { return p.log }

// LogTail returns the last n lines of the process's log, or "" when it
// writes to none.
func (p *Process) LogTail(n int) string {
	if p.log == "" {
		return ""
	}
	data, err := os.ReadFile(p.log)
	if err != nil {
		return ""
	}
	lines := strings.Split(strings.TrimRight(string(data), "\n"), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}

// ExitedByItself names the first of ps that exited without being told
// to (Kill), with how and the end of its log, or returns "". A wait that
// ends in vain usually waited on such a process: a manager that lost its
// lease exits, as upstream's does.
func ExitedByItself(ps []*Process) string {
	for _, p := range ps {
		if p == nil || p.Killed() {
			continue
		}
		if exited, err := p.Exited(); exited {
			msg := fmt.Sprintf("%s exited by itself (%v)", p.Name, err)
			if tail := p.LogTail(5); tail != "" {
				msg += "; the end of its log, " + p.log + ":\n" + tail
			}
			return msg
		}
	}
	return ""
}

// Killed reports whether the process was stopped through Kill.
func (p *Process) Killed() bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.killed
}

// Kill sends sig and waits up to grace for the process to exit, then sends
// SIGKILL.
func (p *Process) Kill(sig syscall.Signal, grace time.Duration) {
	p.mu.Lock()
	p.killed = true
	p.mu.Unlock()
	select {
	case <-p.done:
		return
	default:
	}
	p.cmd.Process.Signal(sig)
	select {
	case <-p.done:
	case <-time.After(grace):
		p.cmd.Process.Kill()
		<-p.done
	}
}

// FreePort returns a loopback port that is free now, below the kernel's
// range of ephemeral ports (see etcdtest.FreePorts). Another process could
// still take it before it is used; callers retry on a failed start.
func FreePort() (int, error) {
	ports, err := etcdtest.FreePorts(1)
	if err != nil {
		return 0, err
	}
	return ports[0], nil
}

// PortFree reports whether port can be listened on at 127.0.0.1 now.
func PortFree(port int) bool {
	l, err := net.Listen("tcp", net.JoinHostPort("127.0.0.1", itoa(port)))
	if err != nil {
		return false
	}
	l.Close()
	return true
}

// listensOn reports whether process pid holds the listening socket of
// rawURL's port, read from /proc (its socket inodes, looked up in the
// kernel's TCP tables).
func listensOn(pid int, rawURL string) bool {
	u, err := url.Parse(rawURL)
	if err != nil {
		return false
	}
	port, err := strconv.Atoi(u.Port())
	if err != nil {
		return false
	}
	for _, addr := range Listening(pid) {
		if addr.Port == port {
			return true
		}
	}
	return false
}

// Listening returns the local address of every TCP socket in LISTEN
// state that process pid holds, read from /proc: the socket inodes among
// its open files, looked up in the kernel's TCP tables (those of this
// process's network namespace, which the stack's processes share).
func Listening(pid int) []*net.TCPAddr {
	p, err := procfs.NewProc(pid)
	if err != nil {
		return nil
	}
	fds, err := p.FileDescriptorTargets()
	if err != nil {
		return nil
	}
	inodes := map[uint64]bool{}
	for _, target := range fds {
		var inode uint64
		if _, err := fmt.Sscanf(target, "socket:[%d]", &inode); err == nil {
			inodes[inode] = true
		}
	}
	fs, err := procfs.NewDefaultFS()
	if err != nil {
		return nil
	}
	// tcpListen is the kernel's state number of a listening socket.
	const tcpListen = 10
	var out []*net.TCPAddr
	for _, table := range []func() (procfs.NetTCP, error){fs.NetTCP, fs.NetTCP6} {
		lines, _ := table()
		for _, l := range lines {
			if l.St == tcpListen && inodes[l.Inode] {
				out = append(out, &net.TCPAddr{IP: l.LocalAddr, Port: int(l.LocalPort)})
			}
		}
	}
	return out
}

// prefixWriter prefixes every line written to it, so that the logs of
// several components can share one terminal.
type prefixWriter struct {
	mu     *sync.Mutex
	w      io.Writer
	prefix string
	buf    []byte
}

// NewPrefixWriter returns a writer that prefixes each line with prefix;
// writers sharing mu do not interleave within a line.
func NewPrefixWriter(w io.Writer, prefix string, mu *sync.Mutex) io.Writer {
	return &prefixWriter{mu: mu, w: w, prefix: prefix}
}

func (p *prefixWriter) Write(b []byte) (int, error) {
	p.buf = append(p.buf, b...)
	for {
		i := -1
		for j, c := range p.buf {
			if c == '\n' {
				i = j
				break
			}
		}
		if i < 0 {
			break
		}
		p.mu.Lock()
		fmt.Fprintf(p.w, "%s%s\n", p.prefix, p.buf[:i])
		p.mu.Unlock()
		p.buf = p.buf[i+1:]
	}
	return len(b), nil
}

func itoa(i int) string { return strconv.Itoa(i) }

func mkdirAll(dir string) error { return os.MkdirAll(dir, 0o755) }
