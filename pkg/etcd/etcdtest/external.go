package etcdtest

import (
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
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

// freePorts picks the members' ports; a test replaces it to hand out a
// port that another process holds.
var freePorts = FreePorts

// NewCluster starts size members of binary under dir and waits until every
// member answers. A port picked for a member can be taken by another
// process before the member binds it; the member then stops and says so,
// and the cluster starts again on other ports, up to three times. On error
// the members already started are killed.
func NewCluster(binary, dir string, size int) (*Cluster, error) {
	for attempt := 1; ; attempt++ {
		c, err := startMembers(binary, dir, size)
		if err == nil {
			return c, nil
		}
		if c == nil {
			return nil, err
		}
		c.Close()
		if attempt == 3 || !c.portTaken() {
			return nil, err
		}
		// The members' data names this attempt's peer URLs, so the next
		// attempt starts from empty directories.
		for _, m := range c.Members {
			os.RemoveAll(m.Dir)
			os.Remove(m.Dir + ".log")
		}
	}
}

// startMembers picks ports for size members, starts them and waits until
// each answers. Once the ports are picked it returns the cluster, with the
// error if any, so that the caller can read the members' logs.
func startMembers(binary, dir string, size int) (*Cluster, error) {
	ports, err := freePorts(2 * size)
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
			return c, err
		}
	}
	for i := range c.Members {
		if err := c.WaitHealthy(i, 30*time.Second); err != nil {
			return c, err
		}
	}
	return c, nil
}

// portTaken reports whether a member's log says that one of its ports was
// held by another process.
func (c *Cluster) portTaken() bool {
	for _, m := range c.Members {
		if log, err := os.ReadFile(m.Dir + ".log"); err == nil && AddressInUse(string(log)) {
			return true
		}
	}
	return false
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

// WaitHealthy waits until member i answers v2 requests. It gives up at
// once when the member exits.
func (c *Cluster) WaitHealthy(i int, timeout time.Duration) error {
	c.mu.Lock()
	m, exited := c.Members[i], c.Members[i].exited
	c.mu.Unlock()
	client := &http.Client{Timeout: time.Second}
	deadline := time.Now().Add(timeout)
	var last error
	for time.Now().Before(deadline) {
		select {
		case <-exited:
			return fmt.Errorf("member %s exited before serving: %s", m.Name, lastLine(m.Dir+".log"))
		default:
		}
		if last = m.serving(client); last == nil {
			return nil
		}
		time.Sleep(50 * time.Millisecond)
	}
	return fmt.Errorf("member %s at %s not serving v2 after %v (last: %v; see %s.log)", m.Name, m.ClientURL, timeout, last, m.Dir)
}

// Close kills every member.
func (c *Cluster) Close() {
	for i := range c.Members {
		c.Stop(i)
	}
}

// serving returns nil when m answers v2 requests at its client URL and the
// cluster answering there lists m's peer URL. Another etcd that took m's
// client port first would answer too, for a cluster without m, while m
// fails to listen.
func (m *Member) serving(client *http.Client) error {
	resp, err := client.Get(m.ClientURL + "/v2/keys/")
	if err != nil {
		return err
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("status %d", resp.StatusCode)
	}
	resp, err = client.Get(m.ClientURL + "/v2/members")
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	var list struct {
		Members []struct {
			PeerURLs []string `json:"peerURLs"`
		} `json:"members"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&list); err != nil {
		return fmt.Errorf("/v2/members: %v", err)
	}
	for _, member := range list.Members {
		if slices.Contains(member.PeerURLs, m.PeerURL) {
			return nil
		}
	}
	return fmt.Errorf("%s answers for a cluster without %s", m.ClientURL, m.PeerURL)
}

// lastLine returns the last line of the file at path, or why there is none.
func lastLine(path string) string {
	data, err := os.ReadFile(path)
	if err != nil {
		return err.Error()
	}
	lines := strings.Split(strings.TrimSpace(string(data)), "\n")
	return lines[len(lines)-1]
}
