package etcdtest

import (
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
