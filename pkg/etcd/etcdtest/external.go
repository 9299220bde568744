package etcdtest

import (
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// RequireEnv names the environment variable that turns a missing etcd
// binary from a skipped test into a failed one.
const RequireEnv = "KUBE_REWIND_REQUIRE_ETCD"

// Binary returns the path of an etcd binary: "etcd" on PATH, else
// /usr/bin/etcd. When there is none it returns "" and the reason.
func Binary() (path, skipReason string) {
	if p, err := exec.LookPath("etcd"); err == nil {
		return p, ""
	}
	if _, err := os.Stat("/usr/bin/etcd"); err == nil {
		return "/usr/bin/etcd", ""
	}
	return "", "no etcd binary on PATH or at /usr/bin/etcd; install it with `apt-get install etcd-server` (Debian etcd 3.4 speaks the v2 API with --enable-v2)"
}

// Member is one external etcd process.
type Member struct {
	Name      string
	Dir       string
	ClientURL string
	PeerURL   string

	cmd     *exec.Cmd
	exited  chan struct{}
	logFile *os.File
}

// Cluster is a set of external etcd members on loopback.
type Cluster struct {
	Members []*Member

	binary         string
	initialCluster string
	mu             sync.Mutex
}

// StartCluster starts size external members (1 or 3, say) in a temporary
// directory of t and waits until the cluster is healthy. Without an etcd
// binary it skips t, or fails it when KUBE_REWIND_REQUIRE_ETCD=1. The
// members are killed when t ends.
func StartCluster(t testing.TB, size int) *Cluster {
	t.Helper()
	binary, reason := Binary()
	if binary == "" {
		if os.Getenv(RequireEnv) == "1" {
			t.Fatalf("%s=1 but %s", RequireEnv, reason)
		}
		t.Skipf("skipping: %s (set %s=1 to make this a failure)", reason, RequireEnv)
	}
	c, err := NewCluster(binary, t.TempDir(), size)
	if c != nil {
		t.Cleanup(c.Close)
	}
	if err != nil {
		t.Fatalf("cannot start an external etcd cluster of %d: %v", size, err)
	}
	return c
}

// NewCluster starts size members of binary under dir and waits until every
// member answers. On error the members already started are killed.
func NewCluster(binary, dir string, size int) (*Cluster, error) {
	ports, err := FreePorts(2 * size)
	if err != nil {
		return nil, err
	}
	c := &Cluster{binary: binary}
	var peers []string
	for i := 0; i < size; i++ {
		m := &Member{
			Name:      fmt.Sprintf("m%d", i),
			Dir:       filepath.Join(dir, fmt.Sprintf("m%d", i)),
			ClientURL: fmt.Sprintf("http://127.0.0.1:%d", ports[2*i]),
			PeerURL:   fmt.Sprintf("http://127.0.0.1:%d", ports[2*i+1]),
		}
		c.Members = append(c.Members, m)
		peers = append(peers, m.Name+"="+m.PeerURL)
	}
	c.initialCluster = strings.Join(peers, ",")
	for i := range c.Members {
		if err := c.Start(i); err != nil {
			c.Close()
			return nil, err
		}
	}
	for _, m := range c.Members {
		if err := waitHealthy(m, 30*time.Second); err != nil {
			c.Close()
			return nil, err
		}
	}
	return c, nil
}

// ClientURLs returns the client URL of every member.
func (c *Cluster) ClientURLs() []string {
	urls := make([]string, len(c.Members))
	for i, m := range c.Members {
		urls[i] = m.ClientURL
	}
	return urls
}

// Start starts member i (again, after Stop) with its existing data.
func (c *Cluster) Start(i int) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	m := c.Members[i]
	if m.cmd != nil {
		return fmt.Errorf("member %s is already running", m.Name)
	}
	if err := os.MkdirAll(m.Dir, 0o700); err != nil {
		return err
	}
	logFile, err := os.OpenFile(filepath.Join(m.Dir+".log"), os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
	if err != nil {
		return err
	}
	cmd := exec.Command(c.binary,
		"--name", m.Name,
		"--data-dir", m.Dir,
		"--listen-client-urls", m.ClientURL,
		"--advertise-client-urls", m.ClientURL,
		"--listen-peer-urls", m.PeerURL,
		"--initial-advertise-peer-urls", m.PeerURL,
		"--initial-cluster", c.initialCluster,
		"--initial-cluster-state", "new",
		"--initial-cluster-token", "kube-rewind-test",
		"--heartbeat-interval", "50",
		"--election-timeout", "500",
		"--enable-v2",
		"--logger", "zap",
		"--log-level", "error",
	)
	cmd.Stdout = logFile
	cmd.Stderr = logFile
	// The kernel kills the member if the test binary dies without
	// cleaning up (a panic, a -timeout).
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
	if err := cmd.Start(); err != nil {
		logFile.Close()
		return fmt.Errorf("cannot start %s: %v", c.binary, err)
	}
	exited := make(chan struct{})
	go func() {
		cmd.Wait()
		logFile.Close()
		close(exited)
	}()
	m.cmd, m.exited, m.logFile = cmd, exited, logFile
	return nil
}

// Stop kills member i, as a crash would, and waits until it is gone.
func (c *Cluster) Stop(i int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	m := c.Members[i]
	if m.cmd == nil {
		return
	}
	m.cmd.Process.Kill()
	<-m.exited
	m.cmd = nil
}

// Pids returns the process id of every running member.
func (c *Cluster) Pids() []int {
	c.mu.Lock()
	defer c.mu.Unlock()
	var pids []int
	for _, m := range c.Members {
		if m.cmd != nil {
			pids = append(pids, m.cmd.Process.Pid)
		}
	}
	return pids
}

// WaitHealthy waits until member i answers v2 requests.
func (c *Cluster) WaitHealthy(i int, timeout time.Duration) error {
	return waitHealthy(c.Members[i], timeout)
}

// Close kills every member.
func (c *Cluster) Close() {
	for i := range c.Members {
		c.Stop(i)
	}
}

func waitHealthy(m *Member, timeout time.Duration) error {
	client := &http.Client{Timeout: time.Second}
	deadline := time.Now().Add(timeout)
	var last error
	for time.Now().Before(deadline) {
		resp, err := client.Get(m.ClientURL + "/v2/keys/")
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return nil
			}
			err = fmt.Errorf("status %d", resp.StatusCode)
		}
		last = err
		time.Sleep(50 * time.Millisecond)
	}
	return fmt.Errorf("member %s at %s not serving v2 after %v (last: %v; see %s.log)", m.Name, m.ClientURL, timeout, last, m.Dir)
}
