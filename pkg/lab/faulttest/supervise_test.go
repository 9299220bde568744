package faulttest

import (
	"syscall"
	"testing"
	"time"

	"github.com/kube-rewind/kube-rewind/pkg/lab/stack"
	"github.com/kube-rewind/kube-rewind/pkg/lab/stack/designtest"
	"github.com/kube-rewind/kube-rewind/pkg/watch/watchtest"
)

// A controller-manager that exits by itself is started again, as the
// kubelet or systemd starts kube-controller-manager again: the stack
// stands in for that supervisor. Here the manager is killed from outside
// the stack, and a resize must still be carried out.
func TestAManagerThatExitsByItselfIsStartedAgain(t *testing.T) {
	t.Parallel()
	fc := startFaultCluster(t, stack.Config{APIServerArgs: fastEtcd()})
	old := fc.st.ManagerList()[0]
	if err := syscall.Kill(old.Pid(), syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	<-old.Done()
	fc.resize(map[string]int{"web": 3, "db": 2})
	fc.waitExact(deadline)
	replaced(t, fc, old)
}

// replaced waits until the stack holds another manager than old. The
// manager started again can do its work before the stack has seen it
// ready and taken it in (on a loaded machine make test once checked in
// between), so the stack is given its time.
func replaced(t *testing.T, fc *faultCluster, old *stack.Process) {
	t.Helper()
	watchtest.Within(t, deadline, "the manager that exited replaced in the stack", func() (bool, error) {
		return fc.st.ManagerList()[0] != old, nil
	})
}

// Today's manager exits when it cannot renew its lease within the renew
// deadline, as upstream's does; an apiserver killed and started again on
// a busy machine took longer than the default 10 s, and left the cluster
// with no manager. Here the apiserver stays away until the manager has
// given up its lease (a renew deadline of 2 s) and exited; the scale-up
// must still end exact, carried out by the manager the stack started
// again.
func TestAScaleUpEndsExactWhenTheManagerLosesItsLeaseWhileTheAPIServerIsAway(t *testing.T) {
	t.Parallel()
	if designtest.Design != "modern" {
		t.Skip("the 2014 manager has no leader election")
	}
	fc := startFaultCluster(t, stack.Config{APIServerArgs: fastEtcd(), ControllerManagerArgs: []string{
		"-leader_elect_lease_duration=3s", "-leader_elect_renew_deadline=2s", "-leader_elect_retry_period=500ms"}})
	old := fc.st.ManagerList()[0]
	fc.resize(scaleUp)
	fc.waitCreated(halfway)
	fc.st.APIServer.Kill(syscall.SIGKILL, 0)
	select {
	case <-old.Done():
	case <-time.After(deadline):
		t.Fatalf("the manager was still running %v after the apiserver went away, want it exited on losing its lease", deadline)
	}
	if err := fc.st.RestartAPIServer(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	fc.waitExact(deadline)
	replaced(t, fc, old)
}
