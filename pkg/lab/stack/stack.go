package stack

import (
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/kube-rewind/kube-rewind/pkg/etcd/etcdtest"
	"github.com/kube-rewind/kube-rewind/pkg/lab/etcdpods"
)

// Config describes one cluster.
type Config struct {
	// BinDir holds the binaries (make build puts them in _output/bin).
	BinDir string
	// Dir holds etcd's data and, unless Output is set, one log per component.
	Dir string
	// Design is "legacy" or "modern": which controller-manager to run.
	Design string
	// ManagerBinary, when set, is the controller-manager binary to run
	// instead of the design's (ManagerBinary).
	ManagerBinary string
	// APIPort is the apiserver's port; 0 picks a free one.
	APIPort int
	// Nodes is the number of hollow nodes; StartDelay their bind-to-Running time.
	Nodes      int
	StartDelay time.Duration
	// NoHollowNodes starts no hollow-node process at all, for a bare
	// apiserver (the benchmark's calibration).
	NoHollowNodes bool
	// ControllerManagers is how many controller-managers to start (0: none).
	ControllerManagers int
	// ManagerPort is the port the first controller-manager should serve
	// /healthz and /metrics on (make run asks for the documented 10252, v0.4's,
	// which is also where the apiserver's /validate looks). When it is
	// taken the manager gets a free port instead, and ManagerURLs says
	// which; 0, and every further manager, take a free one.
	ManagerPort int
	// SyncPeriod and EndpointsPeriod are passed to every controller-manager
	// when set.
	SyncPeriod, EndpointsPeriod time.Duration
	// Extra arguments for each component.
	APIServerArgs, HollowNodeArgs, ControllerManagerArgs []string
	// Output returns where a component's output goes; nil means a log file.
	Output func(component string) io.Writer
	// Ready is how long each component may take to become healthy.
	Ready time.Duration
	// EtcdServers, when set, are the client URLs of an external etcd
	// cluster for the apiserver, instead of its embedded member.
	EtcdServers []string
	// Original, when set, runs original v0.4 binaries instead of ours:
	// OriginalManager or OriginalStack, from OriginalDir (make original
	// fills _output/v0.4; see original.go).
	Original, OriginalDir string
	// NoMeter, with OriginalStack, leaves out the meter that counts the
	// v0.4 apiserver's requests (it has no metrics of its own): its
	// clients reach it directly and nothing counts them (CountsRequests).
	NoMeter bool
	// EtcdMembers, when set and EtcdServers is not, starts an external
	// etcd cluster of that many members for the apiserver (see Etcd).
	EtcdMembers int
	// ReadMember, when its Dir is set, is the member of EtcdServers whose
	// write-ahead log the laboratory reads (LabWAL). With EtcdMembers the
	// stack picks it: the last member, which the crash scenarios never
	// leave dead.
	ReadMember ReadMember
	// RecordWrites puts a WriteRecorder between the apiserver and every
	// client; APIURL is then the recorder's.
	RecordWrites bool
	// LabReader is how the laboratory (the hollow nodes, the benchmark's
	// pod count) reads the cluster's pods: LabWAL, LabLearner,
	// LabLearnerNice, LabMembers or LabNone. Empty is DefaultLabReader's
	// choice: the write-ahead log where the laboratory knows a member's
	// data directory, the learner elsewhere.
	LabReader string
}

// The ways the laboratory reads pods (Config.LabReader).
const (
	// LabLearner joins a learner to the cluster the apiserver stores in
	// and reads it (startLearner): the members pay for it what they pay
	// a follower, the entries they commit.
	LabLearner = "learner"
	// LabMembers reads the members the apiserver stores in directly, by
	// etcd's stream watch and long polls (etcdpods.New): no learner, and
	// in a burst of more than 1000 writes it may fall out of etcd's
	// window (a run says so).
	LabMembers = "members"
	// LabLearnerNice is LabLearner with the learner's process at nice
	// learnerNice: on cores the stack shares, the apiserver and the
	// managers run before it, and it applies what they left over; the
	// tail keeps every event unless it falls more than etcd's window
	// behind (a run says so).
	LabLearnerNice = "learner-nice"
	// LabWAL reads the write-ahead log of the apiserver's embedded
	// member, read-only, in a process of its own (the hollow-node
	// binary's -wal_of; pkg/lab/walpods): it joins nothing, and the
	// member pays nothing for it. It serves what it read as the learner
	// does, so the hollow nodes and the benchmark read it the same way.
	// Its process is the laboratory's reader, ProcessLabReader, so its CPU
	// counts where the learner's does.
	LabWAL = "wal"
	// LabAPIWatch reads today's stack through a watch of kube-apiserver,
	// as the laboratory read it before the reader of the log: a fourth
	// pod watcher, whose fan-out and encoding are kube-apiserver's work.
	// Today's stack only; it takes no learner, and reads this way when
	// asked for LabLearner, LabLearnerNice or LabMembers.
	LabAPIWatch = "apiserver-watch"
	// LabNone reads no pods and starts no learner, for a stack with no
	// hollow nodes whose user reads no pods (the benchmark's calibration
	// of the bare apiserver): the apiserver then replicates to nobody.
	LabNone = "none"
)

// LabReaders are the ways a benchmark may ask the laboratory to read
// pods (rcbench bench -lab_reader).
var LabReaders = []string{LabWAL, LabLearner, LabLearnerNice, LabMembers, LabAPIWatch}

// DefaultLabReader is how the laboratory reads the pods of a stack cfg
// describes when cfg names no way: LabWAL, the observer that joins
// nothing and costs the member nothing, where the laboratory knows the
// data directory of a member the apiserver stores in (our apiserver's
// embedded one, the one the stack starts for the original v0.4
// apiserver, the last of the members it starts for EtcdMembers, or
// ReadMember); LabLearner where the apiserver stores in members started
// apart that it knows by address only (EtcdServers alone).
func DefaultLabReader(cfg Config) string {
	switch {
	case len(externalEtcdOf(cfg)) > 0:
		if cfg.ReadMember.Dir != "" {
			return LabWAL
		}
		return LabLearner
	default:
		// The stack's own member, or a cluster the stack starts
		// (EtcdMembers), one of whose members it reads.
		return LabWAL
	}
}

// ReadMember is one member of a cluster of several, whose write-ahead log
// the laboratory reads: its name, its data directory and its client URL,
// where the reader asks it what it has applied (walpods' AskCommit): a
// member of several saves the commit of a burst's last entries to its log
// only with its next write.
type ReadMember struct {
	Name, Dir, ClientURL string
	// Of is how many members the cluster has.
	Of int
}

// ReadMemberOf is the member of c the laboratory reads: the last, which
// the crash scenarios never leave dead (etcd-member kills the first).
func ReadMemberOf(c *etcdtest.Cluster) ReadMember {
	m := c.Members[len(c.Members)-1]
	return ReadMember{Name: m.Name, Dir: m.Dir, ClientURL: m.ClientURL, Of: len(c.Members)}
}

// Stack is a running cluster.
type Stack struct {
	cfg Config

	mu        sync.Mutex
	APIServer *Process
	// APIURL is where the cluster's clients reach the apiserver: its own
	// address, or the recorder's.
	APIURL string
	// directURL is the apiserver's own address.
	directURL string
	// Recorder, with RecordWrites, sees every request to the apiserver.
	Recorder *WriteRecorder
	// Etcd is the external etcd cluster the stack started (EtcdMembers).
	Etcd *etcdtest.Cluster
	// etcdPort and etcdPeerPort are the embedded member's client and
	// peer ports.
	etcdPort     int
	etcdPeerPort int
	// learner is the laboratory's learner of the cluster, a process of
	// its own, with its client URL; labPods reads pods for the benchmark
	// from it (LabPods).
	learner    *Process
	learnerURL string
	labPods    *etcdpods.Source
	HollowNode *Process
	HollowURL  string
	// sv starts every process, each with its log, and keeps the
	// managers, which the embedded ManagerSet holds.
	sv *Supervisor
	*ManagerSet

	// What a stack-original runs besides its apiserver and manager
	// (original.go): its etcd member, with its client URL and that of
	// its v2 API's own listener, or fronts to the members EtcdServers
	// names.
	member      *Process
	memberURL   string
	memberV2URL string
	etcdFronts  []*etcdFront
	meter       *Meter
	kubeletPort int
}

// ManagerBinary returns the controller-manager binary of a design.
func ManagerBinary(design string) string {
	if design == "modern" {
		return "controller-manager-modern"
	}
	return "controller-manager"
}

// Start brings up the apiserver, the hollow nodes and the controller-managers
// and waits until each answers /healthz. On failure it stops what it started.
func Start(cfg Config) (*Stack, error) {
	if cfg.Design == "" {
		cfg.Design = "legacy"
	}
	if cfg.Nodes == 0 {
		cfg.Nodes = 10
	}
	if cfg.Ready == 0 {
		cfg.Ready = 60 * time.Second
	}
	switch cfg.LabReader {
	case "":
		cfg.LabReader = DefaultLabReader(cfg)
	case LabLearner, LabLearnerNice, LabMembers, LabWAL:
	case LabAPIWatch:
		// Today's stack's choice; ours has no such watch, and reads its
		// default way.
		cfg.LabReader = DefaultLabReader(cfg)
	case LabNone:
		if !cfg.NoHollowNodes {
			return nil, fmt.Errorf("a stack with hollow nodes reads pods: LabReader %q needs NoHollowNodes", LabNone)
		}
	default:
		return nil, fmt.Errorf("LabReader %q: want %q, %q, %q, %q or %q", cfg.LabReader, LabLearner, LabLearnerNice, LabWAL, LabMembers, LabNone)
	}
	if err := mkdirAll(cfg.Dir); err != nil {
		return nil, err
	}
	RaiseFileLimit()
	s := &Stack{cfg: cfg}
	s.sv = NewSupervisor(SupervisorOptions{Lock: &s.mu, BinDir: cfg.BinDir, Dir: cfg.Dir, Output: cfg.Output, Ready: cfg.Ready})
	s.ManagerSet = NewManagerSet(s.sv, s.startManager)
	if err := s.checkOriginal(); err != nil {
		return nil, err
	}
	if cfg.EtcdMembers > 0 && len(cfg.EtcdServers) == 0 {
		c, err := StartEtcdCluster(filepath.Join(cfg.Dir, "etcd3"), cfg.EtcdMembers)
		if err != nil {
			return nil, err
		}
		s.Etcd = c
		s.cfg.EtcdServers = c.ClientURLs()
		s.cfg.ReadMember = ReadMemberOf(c)
	}
	if err := s.startAPIServer(); err != nil {
		s.Stop()
		return nil, err
	}
	if cfg.RecordWrites {
		r, err := StartWriteRecorder(s.directURL)
		if err != nil {
			s.Stop()
			return nil, err
		}
		s.mu.Lock()
		s.Recorder, s.APIURL = r, r.URL()
		s.mu.Unlock()
	}
	if s.cfg.LabReader == LabWAL {
		if err := s.startWALReader(); err != nil {
			s.Stop()
			return nil, err
		}
	}
	if s.cfg.LabReader == LabLearner || s.cfg.LabReader == LabLearnerNice {
		if err := s.startLearner(); err != nil {
			// The laboratory then reads the members the apiserver uses,
			// as it did before it had a learner, and may fall out of
			// etcd's window in a burst (a run says so).
			fmt.Fprintf(os.Stderr, "the laboratory reads the apiserver's etcd members directly: %v\n", err)
		}
	}
	if !cfg.NoHollowNodes {
		if err := s.startHollowNode(); err != nil {
			s.Stop()
			return nil, err
		}
	}
	for i := 0; i < cfg.ControllerManagers; i++ {
		if _, err := s.StartManager(); err != nil {
			s.Stop()
			return nil, err
		}
	}
	return s, nil
}

// start runs one component and waits for its /healthz, retrying with a new
// port if the one picked was taken in the meantime (Supervisor.Start). A
// fixed port is tried once; when it fails, a preferred one (fallback)
// gives way to free ports and a required one ends the start.
func (s *Stack) start(component, binary string, fixedPort int, fallback bool, args func(port int) []string, healthz func(port int) string) (*Process, int, error) {
	// A fixed port held by another process is caught before starting: its
	// owner (another cluster's component, say) could answer the /healthz
	// meant for this one.
	if fixedPort != 0 && !PortFree(fixedPort) {
		if !fallback {
			return nil, 0, portTakenError(component, fixedPort)
		}
		fixedPort = 0
	}
	return s.sv.Start(component, binary, fixedPort, fixedPort != 0 && !fallback, args, healthz)
}

func (s *Stack) startAPIServer() error {
	if s.cfg.Original == OriginalStack {
		return s.startOriginalAPIServer()
	}
	external := s.externalEtcd()
	p, port, err := s.start("apiserver", "apiserver", s.cfg.APIPort, false, func(port int) []string {
		etcd := []string{"-etcd_servers=" + strings.Join(external, ",")}
		if len(external) == 0 {
			// The embedded member's client port is chosen once and kept
			// across restarts, so that the hollow nodes and the
			// benchmark, which read pods there, find it again.
			if s.etcdPort == 0 || s.APIServer == nil {
				if etcdPort, err := FreePort(); err == nil {
					s.etcdPort = etcdPort
				}
				if peerPort, err := FreePort(); err == nil {
					s.etcdPeerPort = peerPort
				}
			}
			etcd = []string{"-etcd_data_dir=" + filepath.Join(s.cfg.Dir, "etcd"), "-etcd_client_port=" + itoa(s.etcdPort), "-etcd_peer_port=" + itoa(s.etcdPeerPort)}
			if s.cfg.LabReader == LabWAL {
				etcd = append(etcd, "-etcd_wal_segment_bytes="+strconv.FormatInt(WALSegmentBytes, 10))
			}
		}
		return append(append([]string{
			"-logtostderr",
			"-address=127.0.0.1",
			"-port=" + itoa(port),
		}, etcd...), s.cfg.APIServerArgs...)
	}, func(port int) string { return fmt.Sprintf("http://127.0.0.1:%d/healthz", port) })
	if err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.APIServer = p
	s.directURL = fmt.Sprintf("http://127.0.0.1:%d", port)
	if s.Recorder == nil {
		s.APIURL = s.directURL
	}
	// Keep the port, so that a restarted apiserver is found at the same URL.
	s.cfg.APIPort = port
	return nil
}

func (s *Stack) startHollowNode() error {
	p, port, err := s.start("hollow-node", "hollow-node", 0, false, func(port int) []string {
		args := []string{
			"-logtostderr",
			"-master=" + s.APIURL,
			"-nodes=" + itoa(s.cfg.Nodes),
			"-port=" + itoa(port),
		}
		s.mu.Lock()
		learner := s.learnerURL
		s.mu.Unlock()
		if learner != "" {
			args = append(args, "-etcd_servers="+learner, "-etcd_tail")
		} else {
			args = append(args, "-etcd_servers="+strings.Join(s.EtcdURLs(), ","))
		}
		if s.cfg.StartDelay > 0 {
			args = append(args, "-start_delay="+s.cfg.StartDelay.String())
		}
		args = append(args, s.originalHollowNodeArgs()...)
		return append(args, s.cfg.HollowNodeArgs...)
	}, func(port int) string { return fmt.Sprintf("http://127.0.0.1:%d/healthz", port) })
	if err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.HollowNode = p
	s.HollowURL = fmt.Sprintf("http://127.0.0.1:%d", port)
	return nil
}

func (s *Stack) managerArgs(port int) []string {
	args := []string{"-logtostderr", "-master=" + s.APIURL, "-port=" + itoa(port)}
	if s.cfg.SyncPeriod > 0 {
		args = append(args, "-sync_period="+s.cfg.SyncPeriod.String())
	}
	if s.cfg.EndpointsPeriod > 0 {
		args = append(args, "-endpoints_period="+s.cfg.EndpointsPeriod.String())
	}
	return append(args, s.cfg.ControllerManagerArgs...)
}

// startManager starts controller-manager i, a first time or again (the
// embedded ManagerSet's StartManager, KillManager and RestartManager).
func (s *Stack) startManager(i int) (*Process, string, error) {
	p, port, err := s.start(fmt.Sprintf("controller-manager-%d", i), s.managerBinary(), s.managerPort(i), true, s.managerArgs,
		func(port int) string { return fmt.Sprintf("http://127.0.0.1:%d/healthz", port) })
	if err != nil {
		return nil, "", err
	}
	return p, fmt.Sprintf("http://127.0.0.1:%d", port), nil
}

// managerBinary is the controller-manager binary this stack runs.
func (s *Stack) managerBinary() string {
	if s.cfg.ManagerBinary != "" {
		return s.cfg.ManagerBinary
	}
	return ManagerBinary(s.cfg.Design)
}

// managerPort is the fixed port of controller-manager i, or 0 for any.
func (s *Stack) managerPort(i int) int {
	if i == 0 {
		return s.cfg.ManagerPort
	}
	return 0
}

// RestartAPIServer stops the apiserver (its embedded etcd with it) and
// starts it again on the same port and data directory.
func (s *Stack) RestartAPIServer(sig syscall.Signal) error {
	s.mu.Lock()
	old := s.APIServer
	s.mu.Unlock()
	old.Kill(sig, 10*time.Second)
	return s.startAPIServer()
}

// Died returns the name of a component that has exited, or "".
func (s *Stack) Died() string {
	for _, p := range s.Processes() {
		if exited, _ := p.Exited(); exited {
			return p.Name
		}
	}
	return ""
}

// Processes returns every component started so far.
func (s *Stack) Processes() []*Process {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []*Process
	for _, p := range append([]*Process{s.member, s.APIServer, s.HollowNode, s.learner}, s.Managers...) {
		if p != nil {
			out = append(out, p)
		}
	}
	return out
}

// Stop stops every component this stack started: managers first, then the
// hollow nodes, then the apiserver, each with SIGTERM and a grace period.
func (s *Stack) Stop() {
	s.sv.Halt()
	s.mu.Lock()
	procs := append([]*Process{}, s.Managers...)
	procs = append(procs, s.HollowNode)
	apiserver := s.APIServer
	learner := s.learner
	s.mu.Unlock()
	for _, p := range procs {
		if p != nil {
			p.Kill(syscall.SIGTERM, 5*time.Second)
		}
	}
	// Before the apiserver stops: the learner leaves a cluster that still
	// answers.
	if learner != nil {
		learner.Kill(syscall.SIGTERM, 10*time.Second)
	}
	os.RemoveAll(filepath.Join(s.cfg.Dir, "learner"))
	if apiserver != nil {
		apiserver.Kill(syscall.SIGTERM, 5*time.Second)
	}
	s.stopOriginal()
	if s.Recorder != nil {
		s.Recorder.Close()
	}
	if s.Etcd != nil {
		s.Etcd.Close()
	}
	s.sv.Close()
}

// externalEtcd returns the external etcd members the apiserver uses, from
// EtcdServers or an -etcd_servers flag among APIServerArgs, or nothing.
func (s *Stack) externalEtcd() []string { return externalEtcdOf(s.cfg) }

// externalEtcdOf is externalEtcd for the stack cfg describes.
func externalEtcdOf(cfg Config) []string {
	if len(cfg.EtcdServers) > 0 {
		return cfg.EtcdServers
	}
	for _, arg := range cfg.APIServerArgs {
		if v, ok := strings.CutPrefix(arg, "-etcd_servers="); ok && v != "" {
			return strings.Split(v, ",")
		}
	}
	return nil
}

// EtcdURLs returns the client URLs of the etcd the apiserver stores in:
// the external members, the original apiserver's member, or our
// apiserver's embedded one.
func (s *Stack) EtcdURLs() []string {
	if external := s.externalEtcd(); len(external) > 0 {
		return external
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.member != nil {
		// The original apiserver's own member (original.go).
		return []string{s.memberURL}
	}
	return []string{fmt.Sprintf("http://127.0.0.1:%d", s.etcdPort)}
}

// startLearner joins the laboratory's learner to the cluster the
// apiserver stores in, in a process of its own (the hollow-node binary's
// -learner_of mode; see etcdpods.ServeLearner), so that its CPU is counted
// apart: the benchmark and the hollow nodes read pods from it, not from
// the members the apiserver uses, through its tail (-etcd_tail).
func (s *Stack) startLearner() error {
	dir := filepath.Join(s.cfg.Dir, "learner")
	binary, prefix := "hollow-node", []string(nil)
	if s.cfg.LabReader == LabLearnerNice {
		// nice runs the binary in its own process, so that every thread
		// the Go runtime starts has the lower priority.
		nice, err := exec.LookPath("nice")
		if err != nil {
			return fmt.Errorf("the laboratory's etcd learner at a lower priority: %v", err)
		}
		binary, prefix = nice, []string{"-n", itoa(learnerNice), filepath.Join(s.cfg.BinDir, "hollow-node")}
	}
	p, port, err := s.start(ProcessLabReader, binary, 0, false, func(port int) []string {
		// A fresh directory and peer port each attempt: the cluster
		// knows a learner by its peer URL.
		os.RemoveAll(dir)
		peer, _ := FreePort()
		return append(append([]string(nil), prefix...), "-logtostderr", "-learner_of="+strings.Join(s.EtcdURLs(), ","), "-learner_dir="+dir,
			"-learner_peer_port="+itoa(peer), "-port="+itoa(port))
	}, func(port int) string { return fmt.Sprintf("http://127.0.0.1:%d/healthz", port) })
	if err != nil {
		return fmt.Errorf("the laboratory's etcd learner: %v", err)
	}
	s.readFrom(p, port)
	return nil
}

// readFrom makes the process p, serving on port, the laboratory's reader
// of pods: the learner or the reader of the write-ahead log, either of
// which serves a tail that the benchmark and the hollow nodes read.
func (s *Stack) readFrom(p *Process, port int) {
	url := fmt.Sprintf("http://127.0.0.1:%d", port)
	s.mu.Lock()
	s.learner, s.learnerURL = p, url
	s.labPods = etcdpods.NewTailReader(url)
	s.mu.Unlock()
}

// WALSegmentBytes is the member's segment size with LabWAL, on both
// stacks: the reader reads the segment it is in from its start each time
// it looks, so its cost a look is bounded by this, not by etcd's 64 MB.
// A CPU profile of the reader under the calibration's load put most of
// its time in etcd's WAL decoder, reading again what it had read, and in
// the garbage that leaves; segments of this size cut that, and smaller ones left
// the member so many files that its purge window grew (see pkg/etcd's
// walKeptBytes) for little more. The calibration's pairs price it.
const WALSegmentBytes = 1 << 20

// WALReaderOf says whose log the laboratory's reader reads, for a page:
// "" without one.
func (s *Stack) WALReaderOf() string {
	if s.cfg.LabReader != LabWAL {
		return ""
	}
	if m := s.cfg.ReadMember; m.Dir != "" && len(s.externalEtcd()) > 0 {
		return fmt.Sprintf("member %s of the %d the apiserver stores in, which it asks what it has applied", m.Name, m.Of)
	}
	return "the member the apiserver stores in"
}

// WALReaderURL is the base URL of the laboratory's reader of the
// write-ahead log (LabWAL), or "": where it serves its lag (/metrics) and
// its CPU profile, which the learner does not.
func (s *Stack) WALReaderURL() string {
	if s.cfg.LabReader != LabWAL {
		return ""
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.learnerURL
}

// startWALReader starts the laboratory's reader of the write-ahead log
// (LabWAL) of the member the apiserver stores in, which the stack runs
// with its data in Dir/etcd, in the hollow-node binary's -wal_of mode.
func (s *Stack) startWALReader() error {
	dir := filepath.Join(s.cfg.Dir, "etcd")
	var ask []string
	if len(s.externalEtcd()) > 0 {
		m := s.cfg.ReadMember
		if m.Dir == "" {
			return fmt.Errorf("the laboratory reads the write-ahead log of a member whose data directory it knows: this stack's apiserver stores in members started apart, and none is named (ReadMember)")
		}
		dir, ask = m.Dir, []string{"-wal_commit_from=" + m.ClientURL}
	}
	p, port, err := s.start(ProcessLabReader, "hollow-node", 0, false, func(port int) []string {
		return append([]string{"-logtostderr", "-wal_of=" + dir, "-port=" + itoa(port)}, ask...)
	}, func(port int) string { return fmt.Sprintf("http://127.0.0.1:%d/healthz", port) })
	if err != nil {
		return fmt.Errorf("the laboratory's reader of the write-ahead log: %v", err)
	}
	s.readFrom(p, port)
	return nil
}

// learnerNice is the niceness of the learner's process with
// LabLearnerNice.
const learnerNice = 10

// ProcessLabReader is the name among a stack's processes of the
// laboratory's reader of pods, whichever way it reads (the reader of the
// write-ahead log or a learner), and so of its log and its profile. Pages
// published before this name read "lab-learner".
const ProcessLabReader = "lab-reader"

// HasLearner reports whether the laboratory's learner runs: whether the
// members the apiserver stores in replicate to it.
func (s *Stack) HasLearner() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	// The reader of the log runs as the learner's process, and is none.
	return s.learner != nil && s.cfg.LabReader != LabWAL
}

// LabReaderName says how the laboratory reads the cluster's pods
// (Config.LabReader: learner, learner-nice, members or none).
func (s *Stack) LabReaderName() string { return s.cfg.LabReader }

// OwnMetrics says the apiserver serves metrics of its own: ours does,
// v0.4's has none.
func (s *Stack) OwnMetrics() bool { return s.cfg.Original != OriginalStack }

// CountsRequests says something counts the apiserver's requests: its own
// metrics, or for v0.4's the meter, unless NoMeter left it out.
func (s *Stack) CountsRequests() bool { return s.OwnMetrics() || s.Metered() }

// Metered says the laboratory's meter stands in front of the apiserver:
// stack-original's, which counts the requests v0.4's apiserver has no
// metrics for.
func (s *Stack) Metered() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.meter != nil
}

// LabPods returns the benchmark's reading of the cluster's pods: from its
// learner, or, before the stack has one, from the members the apiserver
// stores in.
func (s *Stack) LabPods() *etcdpods.Source {
	s.mu.Lock()
	src := s.labPods
	s.mu.Unlock()
	if src != nil {
		return src
	}
	return etcdpods.New(s.EtcdURLs())
}

// StartEtcdCluster starts members etcd processes (Debian's etcd-server,
// or any etcd 3.4 or 3.5 with the v2 API) on free loopback ports, with
// their data under dir.
func StartEtcdCluster(dir string, members int) (*etcdtest.Cluster, error) {
	binary, reason := etcdtest.Binary()
	if binary == "" {
		return nil, fmt.Errorf("%s", reason)
	}
	c, err := etcdtest.NewCluster(binary, dir, members)
	if err != nil {
		return nil, fmt.Errorf("starting an etcd cluster of %d: %v", members, err)
	}
	return c, nil
}
