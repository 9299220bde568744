package stack

// Stacks of the original v0.4 binaries, which make original builds into
// _output/v0.4 from a Kubernetes git repository (pkg/lab/original).
//
// OriginalManager (the variant legacy-original) runs the original
// controller-manager on our apiserver and hollow nodes: only the manager
// changes.
//
// OriginalStack (the variant stack-original) runs the original apiserver
// and controller-manager on an etcd member of its own (ours, cmd/etcd:
// etcd 3.5 with the v2 API on, in a process of its own; see
// startOriginalMember), with our hollow nodes
// acting as v0.4's kubelets toward it (pkg/lab/hollownode, kubelet.go):
// the minions are named by loopback addresses and answer the apiserver's
// /podInfo on a port of the stack's own, its -minion_port. v0.4 learned
// its minions from -machines or through the API; the hollow nodes
// register theirs through the API, as on our apiserver. The stand-in
// scheduler binds pods through v0.4's /bindings, as its scheduler did. A
// meter in front of the apiserver (meter.go) counts the requests, which
// v0.4 did not (unless Config.NoMeter leaves it out, and nothing counts
// them). Given members of etcd 3.4 instead (EtcdServers, as the -etcd3
// sweep starts them), the apiserver reaches them through a front
// (etcdfront.go) that keeps its requests within what etcd 3.4 accepts.
//
// Ours: the apiserver runs with -health_check_minions=false. v0.4 checked
// each minion's kubelet at http://<minion>:10250/healthz, on that fixed
// port whatever -minion_port said (pkg/registry/minion,
// healthy_registry.go), and left out of its minion list every minion that
// did not answer; a minion out of the list turned its pods Terminated. A
// stack may not take a fixed port, so the checks are off: every registered
// minion counts as healthy, which they all are here, and the apiserver
// saves one GET per minion every 30 s (its minion cache's lifetime).

import (
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/kube-rewind/kube-rewind/pkg/lab/hollownode"
	"github.com/kube-rewind/kube-rewind/pkg/lab/original"
)

// What of the original v0.4 binaries a stack runs instead of ours
// (Config.Original).
const (
	// OriginalManager is the original controller-manager on our
	// apiserver (the variant legacy-original).
	OriginalManager = "controller-manager"
	// OriginalStack is the original apiserver and controller-manager on
	// an external etcd member, with our hollow nodes as kubelets (the
	// variant stack-original).
	OriginalStack = "apiserver and controller-manager"
)

// originalPeriod is v0.4's sync period, which its controller-manager
// hard-codes for both loops and takes no flag for.
const originalPeriod = 10 * time.Second

// checkOriginal refuses, before anything starts, what the v0.4 binaries
// cannot do, and drops the period flags they do not take.
func (s *Stack) checkOriginal() error {
	what := s.cfg.Original
	switch what {
	case "":
		return nil
	case OriginalManager, OriginalStack:
	default:
		return fmt.Errorf("no original binaries named %q (known: %q, %q)", what, OriginalManager, OriginalStack)
	}
	if err := original.Available(s.cfg.OriginalDir); err != nil {
		return err
	}
	for _, p := range []time.Duration{s.cfg.SyncPeriod, s.cfg.EndpointsPeriod} {
		if p != 0 && p != originalPeriod {
			return fmt.Errorf("the v0.4 controller-manager syncs every %v and takes no flag for it; this run asks for %v", originalPeriod, p)
		}
	}
	s.cfg.SyncPeriod, s.cfg.EndpointsPeriod = 0, 0
	s.cfg.ManagerBinary = filepath.Join(s.cfg.OriginalDir, "controller-manager")
	if len(s.cfg.ControllerManagerArgs) > 0 {
		return fmt.Errorf("the v0.4 controller-manager has none of the flags %s", strings.Join(s.cfg.ControllerManagerArgs, " "))
	}
	if what == OriginalStack {
		return checkOriginalAPIServerArgs(s.cfg.OriginalDir, s.cfg.APIServerArgs)
	}
	return nil
}

// ProfilingFlag is where an apiserver serves Go's profiles: ours, and
// v0.4's, whose one flag of ours it is, added by make original's edit
// original.ProfilesFix.
const ProfilingFlag = "-profiling_address="

// checkOriginalAPIServerArgs refuses any flag of ours but
// ProfilingFlag, and that one where the binaries in dir were
// built before make original added it.
func checkOriginalAPIServerArgs(dir string, args []string) error {
	for _, a := range args {
		if !strings.HasPrefix(a, ProfilingFlag) {
			return fmt.Errorf("the v0.4 apiserver has none of our flags %s", strings.Join(args, " "))
		}
		if !original.HasEdit(dir, original.ProfilesFix) {
			return fmt.Errorf("the v0.4 apiserver in %s was built before make original let it serve its profiles (%s): build it again with %s",
				dir, original.ProfilesFix, original.BuildHint)
		}
	}
	return nil
}

// PodStatusOnRead says whether the apiserver computes a pod's Running
// only when the pod is read (GET or LIST), as v0.4's did from the
// kubelets' /podInfo: its watch sends pods as stored, and the stored
// status of a bound pod stays Waiting. The sampler then reads the bound
// pods it has not seen run.
func (s *Stack) PodStatusOnRead() bool { return s.cfg.Original == OriginalStack }

// KubeletPort is the port every hollow minion serves v0.4's kubelet API
// on, where the apiserver computes a pod's status from it
// (PodStatusOnRead), else 0. The laboratory reads the status there too,
// as v0.4's apiserver read it, at no cost to the apiserver.
func (s *Stack) KubeletPort() int {
	if !s.PodStatusOnRead() {
		return 0
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.kubeletPort
}

// EtcdPids returns the process ids of the etcd members the stack started
// (none when etcd is embedded in our apiserver or was given).
func (s *Stack) EtcdPids() []int {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.member == nil {
		return nil
	}
	return []int{s.member.Pid()}
}

// ProcessEtcd is the name of stack-original's etcd member among the
// stack's processes.
const ProcessEtcd = "etcd"

// MemberArgs are the flags of cmd/etcd, the member a stack runs in a
// process of its own (today's, and v0.4's apiserver's): its data
// directory, its client and peer ports, and with walReader the segments
// the laboratory's reader of the log reads (WALSegmentBytes).
func MemberArgs(dataDir string, client, peer int, walReader bool) []string {
	args := []string{"-data_dir=" + dataDir, "-client_port=" + itoa(client), "-peer_port=" + itoa(peer)}
	if walReader {
		args = append(args, "-wal_segment_bytes="+strconv.FormatInt(WALSegmentBytes, 10))
	}
	return args
}

// startOriginalMember starts the original apiserver's etcd member: ours
// (cmd/etcd: etcd 3.5 with the v2 API on, the member our apiserver
// embeds), in a process of its own, as v0.4 ran etcd. v0.4's apiserver
// reaches it on the listener that serves the v2 API alone (-v2_port),
// where its longest request lines fit; its client listener serves the
// learner, which joins over gRPC. With LabWAL its log is cut in the
// segments the laboratory's reader reads, as our apiserver's member's is.
//
// Ours: v0.4 ran on etcd 0.4. Both of 2014's corners now store in the
// same etcd, and the laboratory reads both the same way; the port and
// v0.4's binaries differ in their own code only.
func (s *Stack) startOriginalMember() error {
	dataDir := filepath.Join(s.cfg.Dir, "etcd")
	var client int
	p, port, err := s.start(ProcessEtcd, "etcd", 0, false, func(port int) []string {
		// A fresh member each attempt: a member's data names its peer
		// URL.
		os.RemoveAll(dataDir)
		client, _ = FreePort()
		peer, _ := FreePort()
		return append(MemberArgs(dataDir, client, peer, s.cfg.LabReader == LabWAL), "-v2_port="+itoa(port))
	}, func(port int) string { return fmt.Sprintf("http://127.0.0.1:%d/health", port) })
	if err != nil {
		return fmt.Errorf("the original apiserver's etcd member: %v", err)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.member = p
	s.memberURL = fmt.Sprintf("http://127.0.0.1:%d", client)
	s.memberV2URL = fmt.Sprintf("http://127.0.0.1:%d", port)
	return nil
}

// startOriginalAPIServer starts, the first time, an etcd member (unless
// EtcdServers names members, which it reaches through fronts), picks the
// kubelets' port and starts the meter; then, every time, the original
// apiserver behind the meter.
func (s *Stack) startOriginalAPIServer() error {
	var servers []string
	if external := s.cfg.EtcdServers; len(external) > 0 {
		if s.etcdFronts == nil {
			for _, url := range external {
				f, err := startEtcdFront(url)
				if err != nil {
					return err
				}
				s.mu.Lock()
				s.etcdFronts = append(s.etcdFronts, f)
				s.mu.Unlock()
			}
		}
		for _, f := range s.etcdFronts {
			servers = append(servers, f.URL)
		}
	} else {
		if s.member == nil {
			if err := s.startOriginalMember(); err != nil {
				return err
			}
		}
		servers = []string{s.memberV2URL}
	}
	if s.kubeletPort == 0 {
		port, err := freeKubeletPort(s.cfg.Nodes)
		if err != nil {
			return err
		}
		s.kubeletPort = port
	}
	p, port, err := s.start("apiserver", filepath.Join(s.cfg.OriginalDir, "apiserver"), s.cfg.APIPort, false, func(port int) []string {
		return append([]string{
			"-logtostderr",
			"-address=127.0.0.1",
			"-port=" + itoa(port),
			"-etcd_servers=" + strings.Join(servers, ","),
			"-minion_port=" + itoa(s.kubeletPort),
			"-health_check_minions=false",
		}, s.cfg.APIServerArgs...)
	}, func(port int) string { return fmt.Sprintf("http://127.0.0.1:%d/healthz", port) })
	if err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.APIServer = p
	s.cfg.APIPort = port
	if s.cfg.NoMeter {
		s.APIURL = fmt.Sprintf("http://127.0.0.1:%d", port)
		return nil
	}
	if s.meter == nil {
		if s.meter, err = StartMeter(fmt.Sprintf("http://127.0.0.1:%d", port)); err != nil {
			p.Kill(syscall.SIGKILL, 0)
			return err
		}
	}
	// Every client goes through the meter; the apiserver keeps its port
	// across restarts, so the meter's target stays right.
	s.APIURL = s.meter.URL
	return nil
}

// originalHollowNodeArgs make the hollow nodes v0.4's kubelets for the
// original apiserver.
func (s *Stack) originalHollowNodeArgs() []string {
	if s.cfg.Original != OriginalStack {
		return nil
	}
	return []string{"-kubelet_port=" + itoa(s.kubeletPort)}
}

// stopOriginal stops the meter and the etcd member, after the processes.
func (s *Stack) stopOriginal() {
	s.mu.Lock()
	m, member, fronts := s.meter, s.member, s.etcdFronts
	s.mu.Unlock()
	if m != nil {
		m.Close()
	}
	for _, f := range fronts {
		f.Close()
	}
	if member != nil {
		member.Kill(syscall.SIGTERM, 10*time.Second)
	}
}

// freeKubeletPort finds a port free on the address of every one of nodes
// minions, for their kubelets and the apiserver's -minion_port.
func freeKubeletPort(nodes int) (int, error) {
	for attempt := 0; attempt < 20; attempt++ {
		port, err := FreePort()
		if err != nil {
			return 0, err
		}
		free := true
		for i := 0; i < nodes && free; i++ {
			l, err := net.Listen("tcp", net.JoinHostPort(hollownode.KubeletAddress(i), itoa(port)))
			if err != nil {
				free = false
				continue
			}
			l.Close()
		}
		if free {
			return port, nil
		}
	}
	return 0, fmt.Errorf("the original apiserver's kubelets: no port free on all of 127.0.0.2..%s", hollownode.KubeletAddress(nodes-1))
}
