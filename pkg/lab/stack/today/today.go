package today

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"os"
	"sync"
	"syscall"
	"time"

	"github.com/kube-rewind/kube-rewind/pkg/lab/stack"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"
)

// Config describes one of today's stacks.
type Config struct {
	// BinDir holds make today's output (Dir finds it).
	BinDir string
	// Dir is the run's scratch directory: credentials, kubeconfigs,
	// etcd's data and, unless Output is set, one log per component.
	Dir string
	// Nodes is how many KWOK nodes to create (0: 10, as many as the
	// 2014 stack's hollow nodes); PodsPerNode the pods each may hold
	// (0: 110, a kubelet's default --max-pods).
	Nodes, PodsPerNode int
	// ControllerManagers is how many kube-controller-managers to start
	// (0: none; two or more elect a leader).
	ControllerManagers int
	// OurManager, when set, is the path of our controller-manager of
	// today's design (make build's controller-manager-modern): the
	// stack's ControllerManagers are then that binary, run against
	// kube-apiserver through client-go (its -kubeconfig), with
	// ControllerManagerArgs, in place of kube-controller-manager's
	// replication manager, garbage collector and endpoints controller;
	// one kube-controller-manager runs the others (OtherControllers).
	OurManager string
	// PodWriters, when set, is how many pod stages KWOK plays at once:
	// its concurrent pod status writes, 4 by default
	// (podPlayStageParallelism, set through a KwokConfiguration the
	// stack writes into Dir).
	PodWriters int
	// DirectBinding, when set, leaves kube-scheduler out: the stack binds
	// each new pod itself, to the node with the fewest pods, as 2014's
	// hollow nodes do (binder.go).
	DirectBinding bool
	// WALReader, when set, is the path of our hollow-node binary: the
	// laboratory then reads the pods from etcd's write-ahead log, in that
	// binary's -wal_of and -wal_v3 mode, a process that joins nothing and
	// serves them as 2014's pods are served to it (LabPods), and etcd
	// writes its log in segments of stack.WALSegmentBytes, as our
	// apiserver's member does with that reader.
	WALReader string
	// Extra flags for each component, after the stack's own; a flag
	// given twice takes its last value, so these override.
	EtcdArgs, APIServerArgs, ControllerManagerArgs, SchedulerArgs, KWOKArgs []string
	// Front, when set, is called once the apiserver is ready, with its
	// address; every component and the admin kubeconfig then reach the
	// apiserver at the address it returns (a recording proxy, say),
	// which must pass each client's bearer token on. An https address
	// is trusted by the stack's authority (CAPEM).
	Front func(apiserverURL string) (string, error)
	// Meter, when set, puts the laboratory's meter in front of the
	// apiserver instead of Front (meter.go): every request counted by
	// verb, resource and the process that sent it, at MetricsURL.
	Meter bool
	// Output returns where a component's output goes; nil means a log
	// file in Dir.
	Output func(component string) io.Writer
	// Ready is how long each component may take to answer its health
	// check (0: 2 minutes).
	Ready time.Duration
}

// Stack is a running stack of today's control plane.
type Stack struct {
	cfg Config
	pki *pki

	mu sync.Mutex
	// The processes, each a child of this one.
	Etcd, APIServer, Scheduler, KWOK *stack.Process
	// The controller managers, Managers with their base URLs in
	// ManagerURLs, kept by sv like every process that is started
	// again when it exits by itself.
	*stack.ManagerSet
	// Reader is the laboratory's reader of etcd's write-ahead log
	// (Config.WALReader), ReaderURL where it serves the pods.
	Reader    *stack.Process
	ReaderURL string
	// Others is the kube-controller-manager that runs the controllers
	// ours does not, when Config.OurManager is set; OthersURL its base.
	Others    *stack.Process
	OthersURL string
	// Their base URLs: etcd's client URL (http), the apiserver's own
	// (https), the scheduler's secure port (https), and KWOK's server
	// (http); a kube-controller-manager's is its secure port (https),
	// ours serves http. Components says which path of each to ask for
	// health and metrics.
	EtcdURL, DirectURL, SchedulerURL, KWOKURL string
	// APIURL is where clients reach the apiserver: DirectURL, or what
	// Config.Front returned.
	APIURL string
	// Kubeconfig is the admin's kubeconfig (system:masters), for
	// kubectl; KubeconfigOf has every client's.
	Kubeconfig  string
	kubeconfigs map[string]string
	meter       *stack.Meter
	// stopBinder stops the binder of Config.DirectBinding.
	stopBinder func()
	// sv starts every process, each with its log.
	sv *stack.Supervisor
	// httpClient is HTTPClient's, made once.
	httpOnce   sync.Once
	httpClient *http.Client
}

// Start brings up etcd, kube-apiserver, the controller managers, the
// scheduler and KWOK with its nodes, in that order, and returns once each
// answers its health check, every node is Ready and the default
// namespace has its default service account. On failure it stops what it
// started.
func Start(cfg Config) (*Stack, error) {
	if cfg.Nodes == 0 {
		cfg.Nodes = 10
	}
	if cfg.PodsPerNode == 0 {
		cfg.PodsPerNode = 110
	}
	if cfg.Ready == 0 {
		cfg.Ready = 2 * time.Minute
	}
	if missing := Missing(cfg.BinDir); missing != "" {
		return nil, fmt.Errorf("%s", missing)
	}
	if err := os.MkdirAll(cfg.Dir, 0o755); err != nil {
		return nil, err
	}
	stack.RaiseFileLimit()
	p, err := newPKI(cfg.Dir)
	if err != nil {
		return nil, err
	}
	s := &Stack{cfg: cfg, pki: p, kubeconfigs: map[string]string{}}
	s.sv = stack.NewSupervisor(stack.SupervisorOptions{
		Lock: &s.mu, BinDir: cfg.BinDir, Dir: cfg.Dir, Output: cfg.Output, Ready: cfg.Ready,
		Client: s.HTTPClient(), Token: s.healthToken,
	})
	s.ManagerSet = stack.NewManagerSet(s.sv, s.startManager)
	steps := []func() error{s.startEtcd}
	if cfg.WALReader != "" {
		steps = append(steps, s.startWALReader)
	}
	steps = append(steps, s.startAPIServer, s.writeKubeconfigs)
	if cfg.OurManager != "" {
		steps = append(steps, s.startOthers)
	}
	for i := 0; i < cfg.ControllerManagers; i++ {
		steps = append(steps, func() error { _, err := s.StartManager(); return err })
	}
	if cfg.DirectBinding {
		steps = append(steps, s.startKWOK, s.createNodes, s.startBinder, s.waitForDefaultServiceAccount)
	} else {
		steps = append(steps, s.startScheduler, s.startKWOK, s.createNodes, s.waitForDefaultServiceAccount)
	}
	for _, step := range steps {
		if err := step(); err != nil {
			s.Stop()
			return nil, err
		}
	}
	return s, nil
}

// writeKubeconfigs writes one kubeconfig per client, reaching APIURL.
func (s *Stack) writeKubeconfigs() error {
	url := s.DirectURL
	switch {
	case s.cfg.Meter:
		m, err := s.startMeter(s.DirectURL)
		if err != nil {
			return fmt.Errorf("the apiserver's meter: %v", err)
		}
		s.mu.Lock()
		s.meter = m
		s.mu.Unlock()
		url = m.URL
	case s.cfg.Front != nil:
		front, err := s.cfg.Front(s.DirectURL)
		if err != nil {
			return fmt.Errorf("the apiserver's front: %v", err)
		}
		url = front
	}
	s.mu.Lock()
	s.APIURL = url
	s.mu.Unlock()
	for _, c := range clients {
		path, err := s.pki.writeKubeconfig(c.name, url)
		if err != nil {
			return err
		}
		s.kubeconfigs[c.name] = path
	}
	s.Kubeconfig = s.kubeconfigs["admin"]
	return nil
}

// MetricsURL returns where the meter serves its request counts (Config.Meter),
// or "".
func (s *Stack) MetricsURL() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.meter == nil {
		return ""
	}
	return s.meter.URL + "/metrics"
}

// KubeconfigOf returns the kubeconfig of a client: "admin",
// "kube-controller-manager", "kube-scheduler" or "kwok".
func (s *Stack) KubeconfigOf(client string) string { return s.kubeconfigs[client] }

// Token returns the bearer token of a client (as KubeconfigOf names it).
func (s *Stack) Token(client string) string { return s.pki.tokens[client] }

// CAPEM returns the authority every https address of the stack is served
// under (PEM).
func (s *Stack) CAPEM() []byte { return s.pki.caPEM }

// Metered says the laboratory's meter stands in front of kube-apiserver
// (Config.Meter).
func (s *Stack) Metered() bool { return s.cfg.Meter }

// RESTConfig returns client-go's configuration for the laboratory's own
// client: the admin, at APIURL, not rate-limited (the laboratory's reads
// and writes are not what a run measures), named in User-Agent.
func (s *Stack) RESTConfig() *rest.Config {
	s.mu.Lock()
	host := s.APIURL
	s.mu.Unlock()
	return &rest.Config{
		Host:            host,
		BearerToken:     s.pki.tokens["admin"],
		TLSClientConfig: rest.TLSClientConfig{CAData: s.pki.caPEM},
		UserAgent:       "kube-rewind-laboratory",
		QPS:             -1,
	}
}

// Clientset returns a client-go clientset of RESTConfig.
func (s *Stack) Clientset() (kubernetes.Interface, error) {
	return kubernetes.NewForConfig(s.RESTConfig())
}

// Processes returns every process started and not yet replaced, in the
// order they started.
func (s *Stack) Processes() []*stack.Process {
	var out []*stack.Process
	for _, c := range s.Components() {
		out = append(out, c.Process)
	}
	return out
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

// startManager starts controller manager i, a first time or again (the
// embedded ManagerSet's StartManager, KillManager and RestartManager): a
// kube-controller-manager, which waits for the lease as a standby while
// another holds it, or ours (Config.OurManager).
func (s *Stack) startManager(i int) (*stack.Process, string, error) {
	name := fmt.Sprintf("%s-%d", ControllerManager, i)
	binary, scheme, args := ControllerManager, "https", s.managerArgs
	if s.cfg.OurManager != "" {
		name = fmt.Sprintf("%s-%d", OurManagerName, i)
		binary, scheme, args = s.cfg.OurManager, "http", s.ourManagerArgs
	}
	return s.start(name, binary, scheme, "/healthz", args)
}

// healthToken is the bearer token the health check of a component needs:
// the apiserver's /readyz asks for one, the others' paths for none.
func (s *Stack) healthToken(component string) string {
	if component == APIServer {
		return s.pki.tokens["admin"]
	}
	return ""
}

// Stop stops every process this stack started, in the reverse of their
// order, each with SIGTERM and then, after a grace period, SIGKILL; its
// data and logs stay in Dir.
func (s *Stack) Stop() {
	s.mu.Lock()
	stopBinder := s.stopBinder
	s.stopBinder = nil
	s.mu.Unlock()
	if stopBinder != nil {
		stopBinder()
	}
	s.sv.Halt()
	procs := s.Processes()
	for i := len(procs) - 1; i >= 0; i-- {
		procs[i].Kill(syscall.SIGTERM, 10*time.Second)
	}
	s.mu.Lock()
	meter := s.meter
	s.meter = nil
	s.mu.Unlock()
	if meter != nil {
		meter.Close()
	}
	s.sv.Close()
	s.HTTPClient().CloseIdleConnections()
}

// context returns a context for one of the stack's own requests.
func (s *Stack) context() (context.Context, context.CancelFunc) {
	return context.WithTimeout(context.Background(), s.cfg.Ready)
}
