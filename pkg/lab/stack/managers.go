package stack

import (
	"syscall"
	"time"
)

// ManagerSet is the controller managers of a stack, kept by its
// Supervisor: both stacks embed one, so that a scenario starts, kills and
// restarts the managers of either the same way.
type ManagerSet struct {
	sv *Supervisor
	// start starts manager i, a first time or again, and waits until it
	// is healthy; it returns the process and its base URL.
	start func(i int) (*Process, string, error)
	// Managers are the running managers by index, ManagerURLs their base
	// URLs; the stack's lock (SupervisorOptions.Lock) guards both, and
	// gens.
	Managers    []*Process
	ManagerURLs []string
	// gens count, for each manager, the kills and restarts asked of it:
	// a start of it again by itself that began before one of them keeps
	// nothing, so that a killed manager stays down and a restarted one
	// runs once.
	gens []int
}

// NewManagerSet returns an empty set of managers that sv keeps and start
// starts.
func NewManagerSet(sv *Supervisor, start func(i int) (*Process, string, error)) *ManagerSet {
	return &ManagerSet{sv: sv, start: start}
}

// StartManager starts one more controller manager and returns its index.
func (m *ManagerSet) StartManager() (int, error) {
	m.sv.o.Lock.Lock()
	i := len(m.Managers)
	m.sv.o.Lock.Unlock()
	return i, m.run(i, 0)
}

// run starts manager i and keeps it, in its place or as the next one;
// when it exits by itself, run starts it again. gen is the manager's
// count of kills and restarts when this start was asked for: if another
// came meanwhile, the process started here is not kept but stopped.
func (m *ManagerSet) run(i, gen int) error {
	p, url, err := m.start(i)
	if err != nil {
		return err
	}
	superseded := false
	err = m.sv.Keep(p, func() {
		if i < len(m.Managers) {
			if m.gens[i] != gen {
				superseded = true
				return
			}
			m.Managers[i], m.ManagerURLs[i] = p, url
			return
		}
		m.Managers = append(m.Managers, p)
		m.ManagerURLs = append(m.ManagerURLs, url)
		m.gens = append(m.gens, gen)
	}, func() error { return m.run(i, gen) })
	if superseded {
		p.Kill(syscall.SIGKILL, 0)
	}
	return err
}

// KillManager stops controller manager i with sig and waits up to 5 s for
// it to exit before SIGKILL. With SIGKILL a manager says no goodbye and
// leaves its lease, if it holds one, to expire; with SIGTERM it may give
// the lease up. It is not started again until RestartManager.
func (m *ManagerSet) KillManager(i int, sig syscall.Signal) {
	m.sv.o.Lock.Lock()
	m.gens[i]++
	p := m.Managers[i]
	m.sv.o.Lock.Unlock()
	p.Kill(sig, 5*time.Second)
}

// RestartManager starts controller manager i again, killing it first if
// it still runs; it may serve on another port than before (ManagerURLs).
func (m *ManagerSet) RestartManager(i int) error {
	m.sv.o.Lock.Lock()
	m.gens[i]++
	gen, old := m.gens[i], m.Managers[i]
	m.sv.o.Lock.Unlock()
	old.Kill(syscall.SIGKILL, 0)
	return m.run(i, gen)
}

// ManagerList returns the controller manager processes.
func (m *ManagerSet) ManagerList() []*Process {
	m.sv.o.Lock.Lock()
	defer m.sv.o.Lock.Unlock()
	return append([]*Process(nil), m.Managers...)
}

// ManagerURLList returns the controller managers' base URLs.
func (m *ManagerSet) ManagerURLList() []string {
	m.sv.o.Lock.Lock()
	defer m.sv.o.Lock.Unlock()
	return append([]string(nil), m.ManagerURLs...)
}
