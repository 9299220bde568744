package stack

import (
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// TestAProcessIsHealthyOnlyOnAPortItHolds starts a process told to serve
// on a port that another server (this test) already holds and answers
// /healthz on: the 200 must not count, since it is not the process's.
func TestAProcessIsHealthyOnlyOnAPortItHolds(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	port := l.Addr().(*net.TCPAddr).Port
	url := fmt.Sprintf("http://127.0.0.1:%d/healthz", port)
	if !listensOn(os.Getpid(), url) {
		t.Fatalf("this test's own listener on %d is not found in %v", port, Listening(os.Getpid()))
	}

	sleep, err := exec.LookPath("sleep")
	if err != nil {
		t.Skip("no sleep command")
	}
	p, err := startProcess("sleeper", sleep, []string{"30"}, os.Stderr)
	if err != nil {
		t.Fatal(err)
	}
	defer p.Kill(syscall.SIGKILL, 0)
	if listensOn(p.Pid(), url) {
		t.Errorf("a process holding no socket is said to listen on %d", port)
	}
	go serveOK(l)
	sv := NewSupervisor(SupervisorOptions{Lock: new(sync.Mutex), Ready: time.Second})
	if err := sv.waitHealthy(p, url); err == nil {
		t.Errorf("another server's 200 on port %d made the sleeper healthy", port)
	}
}

func serveOK(l net.Listener) {
	for {
		c, err := l.Accept()
		if err != nil {
			return
		}
		go func() {
			defer c.Close()
			buf := make([]byte, 1024)
			c.Read(buf)
			c.Write([]byte("HTTP/1.1 200 OK\r\nContent-Length: 2\r\nConnection: close\r\n\r\nok"))
		}()
	}
}

// TestAStepThatFailsNamesTheProcessThatExitedByItself: of a process that
// exits on its own the failure tells how and the end of its log; one
// stopped through Kill, as a scenario stops a manager, is not named.
func TestAStepThatFailsNamesTheProcessThatExitedByItself(t *testing.T) {
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Skip("no sh")
	}
	start := func(name, script string) *Process {
		log, err := os.Create(filepath.Join(t.TempDir(), name+".log"))
		if err != nil {
			t.Fatal(err)
		}
		defer log.Close()
		p, err := startProcess(name, sh, []string{"-c", script}, log)
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	killed := start("killed", "echo started; exec sleep 30")
	quitter := start("manager", "echo one; echo two; echo 'leaderelection lost'; exit 1")
	killed.Kill(syscall.SIGKILL, 0)
	<-quitter.Done()

	got := ExitedByItself([]*Process{nil, killed, quitter})
	for _, want := range []string{"manager exited by itself", "exit status 1", "leaderelection lost", quitter.Log()} {
		if !strings.Contains(got, want) {
			t.Errorf("the failure %q does not say %q", got, want)
		}
	}
	if strings.Contains(got, "killed") {
		t.Errorf("a process stopped through Kill is named: %q", got)
	}
	if got := ExitedByItself([]*Process{killed}); got != "" {
		t.Errorf("only a killed process, yet %q", got)
	}
}
