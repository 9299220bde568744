package acked

import (
	"fmt"

	"github.com/kube-rewind/kube-rewind/pkg/api"
	"github.com/kube-rewind/kube-rewind/pkg/api/validation"
	"github.com/kube-rewind/kube-rewind/pkg/client"
	"github.com/kube-rewind/kube-rewind/pkg/lab/stack"
	"github.com/kube-rewind/kube-rewind/pkg/labels"
)

// Report is what Check found.
type Report struct {
	// Sent counts the creates sent through the recorder, answered or not.
	Sent int
	// Creates and Binds count the acknowledged creates (pods, controllers,
	// services) and bindings checked; objects a DELETE was sent for since
	// are left out.
	Creates, Binds int
	// Pods counts the pod creates among Creates.
	Pods int
	// Lost names each acknowledged create missing or with another uid;
	// BindsLost each acknowledged binding whose pod is on another host.
	Lost, BindsLost []string
	// Unreadable names each stored object that does not validate.
	Unreadable []string
	// Unpolled counts the creates and bindings answered 202 whose
	// operation no client polled to its end: they are not checked.
	Unpolled int
	// Objects counts every object read back.
	Objects int
}

func (r Report) String() string {
	s := fmt.Sprintf("%d creates sent, %d acknowledged and checked (%d of them pods), and %d acknowledged bindings; %d objects read back: %d creates lost, %d bindings lost, %d objects unreadable",
		r.Sent, r.Creates, r.Pods, r.Binds, r.Objects, len(r.Lost), len(r.BindsLost), len(r.Unreadable))
	if r.Unpolled > 0 {
		s += fmt.Sprintf("; %d answered 202 and never polled to their end, not checked", r.Unpolled)
	}
	for _, list := range [][]string{r.Lost, r.BindsLost, r.Unreadable} {
		if len(list) > 5 {
			list = list[:5]
		}
		for _, item := range list {
			s += "\n  " + item
		}
	}
	return s
}

// Check reads every pod, controller, service, endpoints and
// minion back through c and checks them against what rec saw
// acknowledged: each acknowledged create must be there with its uid,
// unless a DELETE was sent for it since; each acknowledged binding's pod
// must be on its host; and every object must pass the apiserver's own
// validation (a LIST fails outright on an object it cannot decode).
//
// The cluster may still be writing while it reads: a create the
// apiserver acknowledges after the LIST of pods was answered is not in
// it, and a pod deleted before that LIST is not either. So the creates
// and bindings checked are those acknowledged before the reads began,
// and the deletes that excuse a missing object are those sent before the
// LIST of its kind was answered.
//
// A write answered 202 is acknowledged only when its client polls the
// operation to its end, which the 2014 client does a poll period later.
// So Check first waits for the polls in flight (see
// WriteRecorder.AwaitPolls); on a loaded machine every manager's create
// can be answered 202, and a check that read at once would find them all
// stored and none acknowledged.
func Check(c client.Interface, rec *stack.WriteRecorder) (Report, error) {
	var r Report
	if rec == nil {
		return r, fmt.Errorf("the stack records no writes")
	}
	r.Unpolled = rec.AwaitPolls(3 * client.DefaultPollPeriod)
	r.Sent = rec.Sent()
	creates, binds, _ := rec.Acknowledged()
	ctx := api.NewDefaultContext()
	everything := labels.Everything()
	// deletedBy holds, for pods, controllers and services, the deletes
	// sent before the LIST of that kind was answered.
	deletedBy := map[string]map[string]bool{}
	listed := func(resource string) {
		_, _, deletedBy[resource] = rec.Acknowledged()
	}
	stored := map[string]string{}
	hosts := map[string]string{}
	invalid := func(kind, id string, errs []error) {
		r.Objects++
		if len(errs) > 0 {
			r.Unreadable = append(r.Unreadable, fmt.Sprintf("%s %s: %v", kind, id, errs))
		}
	}
	pods, err := c.ListPods(ctx, everything)
	if err != nil {
		return r, fmt.Errorf("reading the pods back: %v", err)
	}
	listed("pods")
	for i := range pods.Items {
		p := &pods.Items[i]
		stored["pods/"+p.ID] = p.UID
		hosts[p.ID] = p.DesiredState.Host
		invalid("pod", p.ID, validation.ValidatePod(p))
	}
	rcs, err := c.ListReplicationControllers(ctx, everything)
	if err != nil {
		return r, fmt.Errorf("reading the controllers back: %v", err)
	}
	listed("replicationControllers")
	for i := range rcs.Items {
		rc := &rcs.Items[i]
		stored["replicationControllers/"+rc.ID] = rc.UID
		invalid("controller", rc.ID, validation.ValidateReplicationController(rc))
	}
	services, err := c.ListServices(ctx, everything)
	if err != nil {
		return r, fmt.Errorf("reading the services back: %v", err)
	}
	listed("services")
	for i := range services.Items {
		svc := &services.Items[i]
		stored["services/"+svc.ID] = svc.UID
		invalid("service", svc.ID, validation.ValidateService(svc))
	}
	endpoints, err := c.ListEndpoints(ctx, everything)
	if err != nil {
		return r, fmt.Errorf("reading the endpoints back: %v", err)
	}
	for i := range endpoints.Items {
		invalid("endpoints", endpoints.Items[i].ID, validation.ValidateEndpoints(&endpoints.Items[i]))
	}
	minions, err := c.ListMinions()
	if err != nil {
		return r, fmt.Errorf("reading the minions back: %v", err)
	}
	for i := range minions.Items {
		invalid("minion", minions.Items[i].ID, validation.ValidateMinion(&minions.Items[i]))
	}

	for _, w := range creates {
		key := w.Resource + "/" + w.ID
		if deletedBy[w.Resource][key] {
			continue
		}
		r.Creates++
		if w.Resource == "pods" {
			r.Pods++
		}
		if uid, ok := stored[key]; !ok {
			r.Lost = append(r.Lost, fmt.Sprintf("%s (uid %s, acknowledged to %s) is missing", key, w.UID, w.Component))
		} else if uid != w.UID {
			r.Lost = append(r.Lost, fmt.Sprintf("%s has uid %s, acknowledged to %s as %s", key, uid, w.Component, w.UID))
		}
	}
	for pod, host := range binds {
		if deletedBy["pods"]["pods/"+pod] {
			continue
		}
		r.Binds++
		if got, ok := hosts[pod]; !ok {
			r.BindsLost = append(r.BindsLost, fmt.Sprintf("pod %s is missing, its binding to %s was acknowledged", pod, host))
		} else if got != host {
			r.BindsLost = append(r.BindsLost, fmt.Sprintf("pod %s is on %q, its binding to %s was acknowledged", pod, got, host))
		}
	}
	return r, nil
}

// Enough returns an error unless the report checked at least half of the
// pods a test created and one binding. A check of nothing finds nothing
// lost: managers or hollow nodes that reach the apiserver around the
// recorder leave it only the test's own creates.
func (r Report) Enough(pods int) error {
	if 2*r.Pods < pods || r.Binds == 0 {
		return fmt.Errorf("the recorder saw too little to check: %d of %d pod creates and %d bindings acknowledged and checked; want at least half the creates and a binding",
			r.Pods, pods, r.Binds)
	}
	return nil
}

// Pods counts the pod creates rec saw acknowledged, deleted since or not.
func Pods(rec *stack.WriteRecorder) int {
	creates, _, _ := rec.Acknowledged()
	n := 0
	for _, c := range creates {
		if c.Resource == "pods" {
			n++
		}
	}
	return n
}
