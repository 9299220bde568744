package today

// Each component's flags, and how the stack starts one and knows it is up.

import (
	"crypto/tls"
	"crypto/x509"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/kube-rewind/kube-rewind/pkg/lab/stack"
)

// Component is one process of the stack and where it answers.
type Component struct {
	*stack.Process
	// URL is its base address; Health the path that answers 200 while it
	// is well, Metrics its Prometheus path.
	URL, Health, Metrics string
	// Token is the bearer token its paths need ("" for none: only the
	// apiserver asks for one).
	Token string
	// Manager says it is one of the stack's controller managers: a
	// kube-controller-manager, or ours (Config.OurManager).
	Manager bool
}

// Components returns every running component with its addresses, in the
// order they started.
func (s *Stack) Components() []Component {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []Component
	add := func(p *stack.Process, url, health, token string) {
		if p != nil {
			out = append(out, Component{Process: p, URL: url, Health: health, Metrics: "/metrics", Token: token})
		}
	}
	add(s.Etcd, s.EtcdURL, "/health", "")
	if s.Reader != nil {
		// It serves no metrics: its CPU is all the laboratory asks of it.
		out = append(out, Component{Process: s.Reader, URL: s.ReaderURL, Health: "/healthz"})
	}
	add(s.APIServer, s.DirectURL, "/readyz", s.pki.tokens["admin"])
	add(s.Others, s.OthersURL, "/healthz", "")
	for i, m := range s.Managers {
		add(m, s.ManagerURLs[i], "/healthz", "")
		if m != nil {
			out[len(out)-1].Manager = true
		}
	}
	add(s.Scheduler, s.SchedulerURL, "/healthz", "")
	add(s.KWOK, s.KWOKURL, "/healthz", "")
	return out
}

// HTTPClient returns the client that trusts the stack's authority, for its
// components' health and metrics paths. It is one client, made once, so
// that its connections are kept: the sampler reads each manager's metrics
// every 25 ms, and a client made for each read paid a TLS handshake for
// each, on both sides, the component's CPU counting it.
func (s *Stack) HTTPClient() *http.Client {
	s.httpOnce.Do(func() {
		pool := x509.NewCertPool()
		pool.AppendCertsFromPEM(s.pki.caPEM)
		s.httpClient = &http.Client{
			Timeout:   5 * time.Second,
			Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: pool}, MaxIdleConnsPerHost: 4},
		}
	})
	return s.httpClient
}

// servingFlags are the secure-serving flags of the apiserver, the
// controller managers and the scheduler: loopback, and the stack's one
// serving certificate.
func (s *Stack) servingFlags(port int) []string {
	return []string{
		"--bind-address=127.0.0.1",
		"--secure-port=" + strconv.Itoa(port),
		"--tls-cert-file=" + s.pki.servingCert,
		"--tls-private-key-file=" + s.pki.servingKey,
	}
}

// scrapeable lets the laboratory read a controller manager's or the
// scheduler's /metrics without a token. Unlike a real cluster, where
// kubeadm gives them --authentication-kubeconfig and
// --authorization-kubeconfig and each scrape costs the apiserver a
// TokenReview and a SubjectAccessReview, here a scrape costs it nothing.
const scrapeable = "--authorization-always-allow-paths=/healthz,/readyz,/livez,/metrics"

func (s *Stack) startEtcd() error {
	dataDir := filepath.Join(s.cfg.Dir, "etcd")
	p, url, err := s.start(Etcd, Etcd, "http", "/health", func(port int) []string {
		// No other member joins it: any free peer port will do.
		peer, _ := stack.FreePort()
		return append(stack.MemberArgs(dataDir, port, peer, s.cfg.WALReader != ""), s.cfg.EtcdArgs...)
	})
	if err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.Etcd, s.EtcdURL = p, url
	return nil
}

// startWALReader starts the laboratory's reader of etcd's write-ahead log
// (Config.WALReader), under the name of the laboratory's learner on our
// stack, whose place it takes.
func (s *Stack) startWALReader() error {
	dataDir := filepath.Join(s.cfg.Dir, "etcd")
	p, url, err := s.start(stack.ProcessLabReader, s.cfg.WALReader, "http", "/healthz", func(port int) []string {
		return []string{"-logtostderr", "-wal_of=" + dataDir, "-wal_v3", "-port=" + strconv.Itoa(port)}
	})
	if err != nil {
		return fmt.Errorf("the laboratory's reader of the write-ahead log: %v", err)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.Reader, s.ReaderURL = p, url
	return nil
}

// ServiceClusterIPRange is the range services' cluster IPs come from.
const ServiceClusterIPRange = "10.0.0.0/24"

// startAPIServer runs kube-apiserver with what it needs on loopback and
// nothing more; everything else is its default (the watch cache,
// priority and fairness, the admission plugins).
//
// Unlike a real cluster: it advertises 127.0.0.1, which its endpoint
// reconciler refuses, so the reconciler is off and the "kubernetes"
// service has no endpoints; and authorization is RBAC alone, without
// the Node authorizer, as there are no kubelets.
func (s *Stack) startAPIServer() error {
	p, url, err := s.start(APIServer, APIServer, "https", "/readyz", func(port int) []string {
		return append(append([]string{
			"--etcd-servers=" + s.EtcdURL,
			"--advertise-address=127.0.0.1",
			"--endpoint-reconciler-type=none",
			"--service-cluster-ip-range=" + ServiceClusterIPRange,
			"--service-account-issuer=https://kube-rewind.local",
			"--service-account-key-file=" + s.pki.saPub,
			"--service-account-signing-key-file=" + s.pki.saKey,
			"--token-auth-file=" + s.pki.tokenFile,
			"--authorization-mode=RBAC",
		}, s.servingFlags(port)...), s.cfg.APIServerArgs...)
	})
	if err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.APIServer, s.DirectURL = p, url
	return nil
}

// Controllers are the controllers kube-controller-manager runs here, by
// their 1.37 names: the replication manager, the garbage collector (which
// deletes a deleted controller's pods), both endpoints controllers, the
// service-account controller (pods are refused in a namespace without its
// default service account), the namespace controller (which empties a
// namespace being deleted) and the node lifecycle controller (the
// apiserver taints a new node not-ready, and only it lifts the taint once
// KWOK makes the node Ready; without it no pod is ever scheduled).
//
// Unlike a real cluster: the others (pod GC, taint eviction, the
// deployment, job and volume controllers, ...) are off; none of them acts
// on what the scenarios make, and each would add its own informers and
// requests to the figures.
var Controllers = []string{
	"replicationcontroller-controller",
	"garbage-collector-controller",
	"endpoints-controller",
	"endpointslice-controller",
	"serviceaccount-controller",
	"namespace-controller",
	"node-lifecycle-controller",
}

// OurManagerName names our managers' processes (Config.OurManager):
// controller-manager-0, -1, ...
const OurManagerName = "controller-manager"

// OurManagerClient is the kubeconfig our managers reach the apiserver
// with.
const OurManagerClient = "kube-rewind-controller-manager"

// OtherControllers are what kube-controller-manager runs beside our
// managers: Controllers but those ours replaces (the replication manager,
// the garbage collector, the endpoints controller).
var OtherControllers = []string{
	"endpointslice-controller",
	"serviceaccount-controller",
	"namespace-controller",
	"node-lifecycle-controller",
}

// OthersName names the kube-controller-manager of OtherControllers.
const OthersName = "kube-controller-manager-others"

// startOthers runs kube-controller-manager with OtherControllers only,
// leader election and all, beside our managers, started again when it
// exits by itself as the managers are.
func (s *Stack) startOthers() error {
	p, url, err := s.start(OthersName, ControllerManager, "https", "/healthz", func(port int) []string {
		args := s.managerArgs(port)
		for i, a := range args {
			if strings.HasPrefix(a, "--controllers=") {
				args[i] = "--controllers=" + strings.Join(OtherControllers, ",")
			}
		}
		// Ours sets its own client limits; these are upstream's.
		return args[:len(args)-len(s.cfg.ControllerManagerArgs)]
	})
	if err != nil {
		return err
	}
	return s.sv.Keep(p, func() { s.Others, s.OthersURL = p, url }, s.startOthers)
}

// ourManagerArgs are our controller-manager's flags on today's stack: its
// kubeconfig, and /healthz and /metrics served on loopback.
//
// Unlike kube-controller-manager here: it authenticates as a member of
// system:masters, which RBAC lets through before any rule is looked up,
// where each of kube-controller-manager's controllers authorizes as its
// own service account; that spares the apiserver a little work per
// request that upstream's manager pays.
func (s *Stack) ourManagerArgs(port int) []string {
	return append([]string{
		"-logtostderr",
		"-kubeconfig=" + s.kubeconfigs[OurManagerClient],
		"-address=127.0.0.1",
		"-port=" + strconv.Itoa(port),
	}, s.cfg.ControllerManagerArgs...)
}

// managerArgs are a kube-controller-manager's flags. Beyond the
// controllers and serving, it runs on its own defaults: leader election
// on, a client limit of 20 requests a second with bursts of 30 (--kube-
// api-qps, --kube-api-burst; Config.ControllerManagerArgs can raise
// them), 5 workers per controller. It asks for a service account's token
// per controller, as kubeadm has it do, so that each controller has its
// bootstrap role's rights, and says which controller sent a request in
// its User-Agent.
func (s *Stack) managerArgs(port int) []string {
	return append(append([]string{
		"--kubeconfig=" + s.kubeconfigs[ControllerManager],
		"--controllers=" + strings.Join(Controllers, ","),
		"--use-service-account-credentials=true",
		"--leader-elect=true",
		scrapeable,
	}, s.servingFlags(port)...), s.cfg.ControllerManagerArgs...)
}

// startScheduler runs kube-scheduler on its defaults: leader election on,
// 50 requests a second with bursts of 100. Like the managers, it is
// started again when it exits by itself (stack.Supervisor.Keep).
func (s *Stack) startScheduler() error {
	p, url, err := s.start(Scheduler, Scheduler, "https", "/healthz", func(port int) []string {
		return append(append([]string{
			"--kubeconfig=" + s.kubeconfigs[Scheduler],
			"--leader-elect=true",
			scrapeable,
		}, s.servingFlags(port)...), s.cfg.SchedulerArgs...)
	})
	if err != nil {
		return err
	}
	return s.sv.Keep(p, func() { s.Scheduler, s.SchedulerURL = p, url }, s.startScheduler)
}

// PodCIDR is where KWOK gives pods their IPs from, kind's pod range, clear
// of the services' (KWOK's default, 10.0.0.0/24, is where ours are).
const PodCIDR = "10.244.0.0/16"

// startKWOK runs KWOK on every node, with the stages make today read from
// its module: a node is made Ready and kept so by its lease (renewed by
// KWOK as a kubelet renews it), a pod bound
// to a node is made Running with an IP, and a pod being deleted is
// deleted. Unlike a real cluster: no kubelet, no container; a pod is
// Running as soon as KWOK sees it bound.
func (s *Stack) startKWOK() error {
	configs := []string{"--config=" + filepath.Join(s.cfg.BinDir, StagesFile)}
	if s.cfg.PodWriters > 0 {
		path := filepath.Join(s.cfg.Dir, "kwok-configuration.yaml")
		if err := os.WriteFile(path, []byte(kwokConfiguration(s.cfg.PodWriters)), 0o644); err != nil {
			return err
		}
		configs = append(configs, "--config="+path)
	}
	p, url, err := s.start(KWOK, KWOK, "http", "/healthz", func(port int) []string {
		args := append([]string{"--kubeconfig=" + s.kubeconfigs[KWOK]}, configs...)
		args = append(args,
			"--manage-all-nodes=true",
			"--cidr="+PodCIDR,
			// Its stages renew a Ready node's status only every 10
			// minutes or so and leave the rest to the node's lease,
			// which KWOK keeps only with a lease duration: without
			// one, the node lifecycle controller found every node
			// not-ready within a minute, marked every pod not ready,
			// and the replication manager wrote every controller's
			// status again. 40 s is a kubelet's default.
			"--node-lease-duration-seconds=40",
			"--server-address=127.0.0.1:"+strconv.Itoa(port),
		)
		return append(args, s.cfg.KWOKArgs...)
	})
	if err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.KWOK, s.KWOKURL = p, url
	return nil
}

// kwokConfiguration is a KwokConfiguration (KWOK's own options, read
// from a --config file beside its stages) that lets KWOK play writers pod
// stages at once (Config.PodWriters). A KwokConfiguration read from a
// file takes none of KWOK's defaults (a node lease parallelism of 0 stops
// it), so it states them: KWOK v0.8.0's, from its
// KwokConfigurationOptions.
func kwokConfiguration(writers int) string {
	return fmt.Sprintf(`apiVersion: config.kwok.x-k8s.io/v1alpha1
kind: KwokConfiguration
options:
  podPlayStageParallelism: %d
  nodePlayStageParallelism: 4
  nodeLeaseParallelism: 4
  podsOnNodeSyncParallelism: 1
  enableDebuggingHandlers: true
  enableProfilingHandler: true
  enableContentionProfiling: false
  enablePodsOnNodeSyncListPager: true
  enablePodsOnNodeSyncStreamWatch: false
`, writers)
}

// start runs one component on a free port and waits until health answers
// 200 from that process, trying another port when the one picked was
// taken in the meantime (stack.Supervisor.Start). It returns the process
// and its base URL.
func (s *Stack) start(name, binary, scheme, health string, args func(port int) []string) (*stack.Process, string, error) {
	base := func(port int) string { return fmt.Sprintf("%s://127.0.0.1:%d", scheme, port) }
	p, port, err := s.sv.Start(name, binary, 0, false, args, func(port int) string { return base(port) + health })
	if err != nil {
		return nil, "", err
	}
	return p, base(port), nil
}
