package stack_test

import (
	"fmt"
	"net"
	"net/http"
	"testing"

	"github.com/kube-rewind/kube-rewind/pkg/lab/stack"
	"github.com/kube-rewind/kube-rewind/pkg/lab/stack/stacktest"
)

// A port picked free can be taken before the apiserver listens on it: the
// start then picks another and the apiserver serves its profiles there.
func TestAStartWhoseExtraPortWasTakenPicksAnother(t *testing.T) {
	held, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer held.Close()
	heldPort := held.Addr().(*net.TCPAddr).Port
	handed := 0
	stack.HandOutPorts(t, func() (int, error) {
		handed++
		if handed == 1 {
			return heldPort, nil
		}
		return stack.FreePort()
	})
	st, port, err := stack.StartWithPort(stack.Config{BinDir: stacktest.BinDir(t), Dir: t.TempDir(), NoHollowNodes: true, LabReader: stack.LabNone},
		func(port int) []string { return []string{fmt.Sprintf("-profiling_address=127.0.0.1:%d", port)} })
	if err != nil {
		t.Fatalf("the start whose first port was held failed: %v", err)
	}
	defer st.Stop()
	if port == heldPort || handed != 2 {
		t.Fatalf("started on port %d after %d ports were handed out; want another than the held %d, after 2", port, handed, heldPort)
	}
	resp, err := http.Get(fmt.Sprintf("http://127.0.0.1:%d/debug/pprof/", port))
	if err != nil {
		t.Fatalf("the apiserver does not serve its profiles on port %d: %v", port, err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Errorf("/debug/pprof/ on port %d answered %s", port, resp.Status)
	}
}
