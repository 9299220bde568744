package stack

import (
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// TestHelperProcess is the child the supervisor's tests start: this test
// binary again, told after "--" how to behave and on which port. Run
// without those words, as in every ordinary run, it does nothing.
//
// "serve" answers /healthz with 200, "unwell" with 503, and "exit" exits
// with status 3 before it listens at all, saying so on its standard error.
func TestHelperProcess(t *testing.T) {
	var args []string
	for i, a := range os.Args {
		if a == "--" {
			args = os.Args[i+1:]
			break
		}
	}
	if len(args) != 2 {
		return
	}
	mode, port := args[0], args[1]
	fmt.Printf("helper: %s on port %s\n", mode, port)
	if mode == "exit" {
		fmt.Fprintln(os.Stderr, "helper: a planted failure before listening")
		os.Exit(3)
	}
	status := http.StatusOK
	if mode == "unwell" {
		status = http.StatusServiceUnavailable
	}
	err := http.ListenAndServe("127.0.0.1:"+port, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(status)
	}))
	fmt.Println(err)
	os.Exit(1)
}

// helperArgs are the arguments that make the test binary a helper process
// of mode on port.
func helperArgs(mode string) func(port int) []string {
	return func(port int) []string {
		return []string{"-test.run=^TestHelperProcess$", "--", mode, itoa(port)}
	}
}

func healthURL(port int) string { return fmt.Sprintf("http://127.0.0.1:%d/healthz", port) }

// newTestSupervisor returns a supervisor with its logs in a directory of
// the test, closed when the test ends, and the test binary's path.
func newTestSupervisor(t *testing.T, ready time.Duration) (*Supervisor, string) {
	t.Helper()
	self, err := os.Executable()
	if err != nil {
		t.Skipf("the test binary cannot start itself: %v", err)
	}
	sv := NewSupervisor(SupervisorOptions{Lock: new(sync.Mutex), Dir: t.TempDir(), Ready: ready})
	t.Cleanup(func() {
		sv.Halt()
		sv.Close()
	})
	return sv, self
}

// eventually polls cond until it holds, failing the test after a generous
// deadline.
func eventually(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(60 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("gave up waiting for %s", what)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func TestAStartWaitsUntilTheProcessIsHealthyOrSaysWhyNot(t *testing.T) {
	for _, tc := range []struct {
		name, mode string
		ready      time.Duration
		// want are what the failed start must say; none for a start
		// that succeeds.
		want []string
	}{
		{
			name: "a process answering 200 on its port is healthy", mode: "serve", ready: time.Minute,
		},
		{
			name: "a process that never answers 200 is given up once Ready passes", mode: "unwell", ready: 5 * time.Second,
			want: []string{"helper did not become healthy at http://127.0.0.1:", "within 5s", "last answer: 503", "its log is ", "helper.log"},
		},
		{
			name: "a process that exits first is given up", mode: "exit", ready: time.Minute,
			want: []string{"helper exited before becoming healthy", "exit status 3", "its log is ", "helper.log", "the end of its log:\nhelper: a planted failure before listening"},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			sv, self := newTestSupervisor(t, tc.ready)
			p, port, err := sv.Start("helper", self, 0, false, helperArgs(tc.mode), healthURL)
			if len(tc.want) == 0 {
				if err != nil {
					t.Fatal(err)
				}
				defer p.Kill(syscall.SIGKILL, 0)
				if exited, err := p.Exited(); exited {
					t.Fatalf("the healthy process has exited: %v", err)
				}
				if !listensOn(p.Pid(), healthURL(port)) {
					t.Errorf("the healthy process does not listen on its port %d", port)
				}
				return
			}
			if err == nil {
				p.Kill(syscall.SIGKILL, 0)
				t.Fatalf("the %s process was found healthy", tc.mode)
			}
			for _, want := range tc.want {
				if !strings.Contains(err.Error(), want) {
					t.Errorf("the failure %q does not say %q", err, want)
				}
			}
		})
	}
}

// startTestManagers returns a set of managers that are helper processes
// serving /healthz, each with its log in the supervisor's directory.
func startTestManagers(t *testing.T) (*Supervisor, *ManagerSet, string) {
	t.Helper()
	sv, self := newTestSupervisor(t, time.Minute)
	dir := sv.o.Dir
	m := NewManagerSet(sv, func(i int) (*Process, string, error) {
		p, port, err := sv.Start(fmt.Sprintf("manager-%d", i), self, 0, false, helperArgs("serve"), healthURL)
		if err != nil {
			return nil, "", err
		}
		return p, fmt.Sprintf("http://127.0.0.1:%d", port), nil
	})
	t.Cleanup(func() {
		for _, p := range m.ManagerList() {
			p.Kill(syscall.SIGKILL, 0)
		}
	})
	if i, err := m.StartManager(); err != nil || i != 0 {
		t.Fatalf("the first manager started as %d: %v", i, err)
	}
	return sv, m, dir
}

// healthy reports whether base/healthz answers 200.
func healthy(base string) bool {
	resp, err := (&http.Client{Timeout: 5 * time.Second}).Get(base + "/healthz")
	if err != nil {
		return false
	}
	resp.Body.Close()
	return resp.StatusCode == http.StatusOK
}

func TestAKilledManagerRunsAgainAfterRestartManager(t *testing.T) {
	_, m, dir := startTestManagers(t)
	old := m.ManagerList()[0]
	m.KillManager(0, syscall.SIGTERM)
	if exited, _ := old.Exited(); !exited || !old.Killed() {
		t.Fatalf("after KillManager manager 0 has exited %v, killed %v", exited, old.Killed())
	}
	if err := m.RestartManager(0); err != nil {
		t.Fatal(err)
	}
	p := m.ManagerList()[0]
	if p == old {
		t.Fatal("RestartManager kept the killed process")
	}
	if exited, err := p.Exited(); exited {
		t.Fatalf("the restarted manager has exited: %v", err)
	}
	if url := m.ManagerURLList()[0]; !healthy(url) {
		t.Errorf("the restarted manager does not answer at %s", url)
	}
	log, err := os.ReadFile(filepath.Join(dir, "manager-0.log"))
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(log), "exited by itself") {
		t.Errorf("a manager stopped through KillManager is said to have exited by itself:\n%s", log)
	}
}

func TestAManagerThatExitsByItselfIsStartedAgainAndSaysSoInItsLog(t *testing.T) {
	_, m, dir := startTestManagers(t)
	old := m.ManagerList()[0]
	if err := syscall.Kill(old.Pid(), syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	eventually(t, "manager 0 replaced by a running process", func() bool {
		p := m.ManagerList()[0]
		if p == old {
			return false
		}
		exited, _ := p.Exited()
		return !exited
	})
	if url := m.ManagerURLList()[0]; !healthy(url) {
		t.Errorf("the manager started again does not answer at %s", url)
	}
	log, err := os.ReadFile(filepath.Join(dir, "manager-0.log"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(log), "stack: manager-0 exited by itself") {
		t.Errorf("the manager's log does not say it was started again:\n%s", log)
	}
}

func TestAStoppedStackKeepsNoProcessAndStartsNoneAgain(t *testing.T) {
	sv, self := newTestSupervisor(t, time.Minute)
	started, _, err := sv.Start("started", self, 0, false, helperArgs("serve"), healthURL)
	if err != nil {
		t.Fatal(err)
	}
	defer started.Kill(syscall.SIGKILL, 0)
	exiting, _, err := sv.Start("exiting", self, 0, false, helperArgs("serve"), healthURL)
	if err != nil {
		t.Fatal(err)
	}
	sv.Halt()
	startAgain := func() error {
		t.Error("a process was started again after the stack stopped")
		return nil
	}

	set := false
	err = sv.Keep(started, func() { set = true }, startAgain)
	if err == nil || !strings.Contains(err.Error(), "the stack stopped while started started") {
		t.Errorf("a process started as the stack stopped was kept: %v", err)
	}
	if set {
		t.Error("a process started as the stack stopped was taken into the stack")
	}
	if exited, _ := started.Exited(); !exited {
		t.Error("a process started as the stack stopped still runs")
	}

	if err := syscall.Kill(exiting.Pid(), syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	// supervise returns once the process has exited and it has decided.
	sv.supervise(exiting, startAgain)
	log, err := os.ReadFile(filepath.Join(sv.o.Dir, "exiting.log"))
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(log), "exited by itself") {
		t.Errorf("after the stack stopped, a process that exited is said to be started again:\n%s", log)
	}
}

// A manager that exits by itself is started again by its supervisor; a
// kill or a restart asked for while that start is under way wins: the
// killed manager stays down, and a restarted one runs once, not twice.
func TestAKillOrRestartDuringAStartByItselfWins(t *testing.T) {
	for _, restart := range []bool{false, true} {
		name := "kill"
		if restart {
			name = "restart"
		}
		t.Run(name, func(t *testing.T) {
			sv, self := newTestSupervisor(t, time.Minute)
			gate := make(chan struct{})
			// atGate closes when the supervisor's start after the exit
			// has begun: only then is the kill or restart asked for
			// during it. Asked for before, the kill marks the process
			// killed before the supervisor reads it, and no start after
			// the exit begins at all.
			atGate := make(chan struct{})
			var reached sync.Once
			var mu sync.Mutex
			var started []*Process
			m := NewManagerSet(sv, func(i int) (*Process, string, error) {
				mu.Lock()
				again := len(started) == 1
				mu.Unlock()
				if again {
					// The supervisor's start after the exit waits here
					// until the test has asked for its kill or restart.
					reached.Do(func() { close(atGate) })
					<-gate
				}
				p, port, err := sv.Start(fmt.Sprintf("manager-%d", i), self, 0, false, helperArgs("serve"), healthURL)
				if err != nil {
					return nil, "", err
				}
				mu.Lock()
				started = append(started, p)
				mu.Unlock()
				return p, fmt.Sprintf("http://127.0.0.1:%d", port), nil
			})
			t.Cleanup(func() {
				mu.Lock()
				defer mu.Unlock()
				for _, p := range started {
					p.Kill(syscall.SIGKILL, 0)
				}
			})
			if _, err := m.StartManager(); err != nil {
				t.Fatal(err)
			}
			first := m.ManagerList()[0]
			if err := syscall.Kill(first.Pid(), syscall.SIGKILL); err != nil {
				t.Fatal(err)
			}
			select {
			case <-atGate:
			case <-time.After(time.Minute):
				t.Fatal("the supervisor began no start of manager 0 after it exited by itself")
			}
			done := make(chan error, 1)
			if restart {
				go func() { done <- m.RestartManager(0) }()
			} else {
				m.KillManager(0, syscall.SIGKILL)
				done <- nil
			}
			close(gate)
			if err := <-done; err != nil {
				t.Fatal(err)
			}
			want := 0
			if restart {
				want = 1
			}
			eventually(t, fmt.Sprintf("%d manager process left running", want), func() bool {
				mu.Lock()
				defer mu.Unlock()
				if len(started) < 3 && restart || len(started) < 2 {
					return false
				}
				running := 0
				for _, p := range started {
					if exited, _ := p.Exited(); !exited {
						running++
					}
				}
				return running == want
			})
			kept := m.ManagerList()[0]
			if exited, _ := kept.Exited(); restart == exited {
				t.Errorf("after the %s manager 0 is a process that has exited: %v", name, exited)
			}
		})
	}
}
