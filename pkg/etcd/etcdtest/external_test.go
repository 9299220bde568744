package etcdtest

import (
	"net"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/coreos/go-etcd/etcd"
)

func TestBinaryNamesAFileOrSaysWhyNot(t *testing.T) {
	path, reason := Binary()
	if (path == "") == (reason == "") {
		t.Fatalf("Binary() = %q, %q: want exactly one of them", path, reason)
	}
	if path == "" && !strings.Contains(reason, "etcd-server") {
		t.Errorf("the skip reason should say how to install etcd: %q", reason)
	}
}

func TestAStoppedMemberComesBackWithItsData(t *testing.T) {
	c := StartCluster(t, 1)
	client := etcd.NewClient(c.ClientURLs())
	if _, err := client.Set("/kept", "x", 0); err != nil {
		t.Fatal(err)
	}
	c.Stop(0)
	if err := c.Start(0); err != nil {
		t.Fatal(err)
	}
	if err := c.WaitHealthy(0, 30*time.Second); err != nil {
		t.Fatal(err)
	}
	resp, err := client.Get("/kept", false, false)
	if err != nil || resp.Node.Value != "x" {
		t.Fatalf("after restart: %v, %v", resp, err)
	}
}

// TestAClusterWhosePortIsTakenStartsAgainOnOtherPorts hands the member a
// client port that another server holds and answers every request on, as
// another test's etcd would: the member must not be taken for healthy on
// that server's answers, and the cluster must start again on other ports.
func TestAClusterWhosePortIsTakenStartsAgainOnOtherPorts(t *testing.T) {
	binary, reason := Binary()
	if binary == "" {
		t.Skip(reason)
	}
	held, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer held.Close()
	go http.Serve(held, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Write([]byte("{}"))
	}))
	heldPort := held.Addr().(*net.TCPAddr).Port

	picks := 0
	freePorts = func(n int) ([]int, error) {
		picks++
		ports, err := FreePorts(n)
		if err == nil && picks == 1 {
			ports[0] = heldPort
		}
		return ports, err
	}
	defer func() { freePorts = FreePorts }()

	c, err := NewCluster(binary, t.TempDir(), 1)
	if err != nil {
		t.Fatalf("a cluster whose first client port was taken did not start: %v", err)
	}
	defer c.Close()
	if picks != 2 {
		t.Errorf("ports were picked %d times, want 2: once, and again after the taken port", picks)
	}
	if want := "http://127.0.0.1:" + strconv.Itoa(heldPort); c.Members[0].ClientURL == want {
		t.Fatalf("the member is taken to serve on the held port %d", heldPort)
	}
	client := etcd.NewClient(c.ClientURLs())
	if _, err := client.Set("/started", "again", 0); err != nil {
		t.Fatalf("the cluster started again does not take a write: %v", err)
	}
}

// TestAddressInUseKnowsTheErrorOfAListenOnAHeldPort listens twice on one
// port, as a server told a port that another holds does.
func TestAddressInUseKnowsTheErrorOfAListenOnAHeldPort(t *testing.T) {
	held, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer held.Close()
	_, err = net.Listen("tcp", held.Addr().String())
	if err == nil {
		t.Fatalf("a second listen on %s succeeded", held.Addr())
	}
	if !AddressInUse("member m0: " + err.Error()) {
		t.Errorf("AddressInUse does not know the error of a listen on a held port: %q", err)
	}
	if AddressInUse("member m0 at http://127.0.0.1:2379 not serving v2 after 30s") {
		t.Errorf("AddressInUse takes a slow member for a taken port")
	}
}
