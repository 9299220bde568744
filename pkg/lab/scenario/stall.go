package scenario

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"

	"github.com/kube-rewind/kube-rewind/pkg/api"
	"github.com/kube-rewind/kube-rewind/pkg/lab/hollownode"
	"github.com/kube-rewind/kube-rewind/pkg/labels"
)

// whereThePodsStand says, after a wait for running pods that timed out,
// where the pods stood for the apiserver and for the hollow nodes, beside
// what the laboratory's reader counted (the wait's own message), and
// whether that reader still reads: a stall then names its stage. Pods
// unbound in the apiserver's list stalled at the binds, bound and waiting
// at the starts; running there but not in the laboratory's count, in the
// laboratory's reading. The hollow nodes' counts say whether their writes
// failed or wait in their queues. Empty on today's stack, whose kubelets
// are KWOK's.
func (e *Env) whereThePodsStand(ctx context.Context) string {
	if e.Stack == nil || e.Client == nil {
		return ""
	}
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	var parts []string
	if list, err := e.Client.ListPods(api.NewDefaultContext(), labels.Everything()); err != nil {
		parts = append(parts, fmt.Sprintf("the apiserver's list of pods failed: %v", err))
	} else {
		parts = append(parts, "the apiserver lists "+podStages(list))
	}
	if url := e.Stack.WALReaderURL(); url != "" {
		parts = append(parts, "the laboratory's reader of the log "+readerHealth(ctx, url))
	}
	if state, err := hollowState(ctx, e.Stack.HollowURL); err != nil {
		parts = append(parts, fmt.Sprintf("the hollow nodes' state could not be read: %v", err))
	} else if state != nil {
		parts = append(parts, "the hollow nodes "+hollowSummary(*state))
	}
	return strings.Join(parts, "; ")
}

// readerHealth is what the laboratory's reader of the log at url says of
// itself: a reader that stopped (the log lost an entry it needed, or an
// entry it could not apply) serves what it had and says why here.
func readerHealth(ctx context.Context, url string) string {
	code, body, err := get(ctx, url+"/healthz")
	if err != nil {
		return fmt.Sprintf("did not answer: %v", err)
	}
	if code != http.StatusOK {
		return fmt.Sprintf("has stopped: %s", strings.TrimSpace(string(body)))
	}
	return "reads on"
}

// get returns the status and the body (its first MB) of a GET of url.
func get(ctx context.Context, url string) (int, []byte, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return 0, nil, err
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return 0, nil, err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	return resp.StatusCode, body, err
}

// podStages counts a list of pods by stage: unbound, bound and waiting,
// running, terminated.
func podStages(list *api.PodList) string {
	var unbound, waiting, running, terminated int
	for _, p := range list.Items {
		switch {
		case p.CurrentState.Status == api.PodTerminated:
			terminated++
		case p.CurrentState.Status == api.PodRunning:
			running++
		case p.DesiredState.Host == "":
			unbound++
		default:
			waiting++
		}
	}
	return fmt.Sprintf("%d pods: %d unbound, %d bound and waiting, %d running, %d terminated", len(list.Items), unbound, waiting, running, terminated)
}

// hollowState reads the hollow nodes' state from their admin endpoint at
// url; nil, nil where the stack has none.
func hollowState(ctx context.Context, url string) (*hollownode.State, error) {
	if url == "" {
		return nil, nil
	}
	code, body, err := get(ctx, url+"/admin")
	if err != nil {
		return nil, err
	}
	if code != http.StatusOK {
		return nil, fmt.Errorf("GET %s/admin: %d %s", url, code, strings.TrimSpace(string(body)))
	}
	var s hollownode.State
	if err := json.Unmarshal(body, &s); err != nil {
		return nil, fmt.Errorf("GET %s/admin: %v", url, err)
	}
	return &s, nil
}

// hollowSummary is what of the hollow nodes' state a stall turns on.
func hollowSummary(s hollownode.State) string {
	return fmt.Sprintf("know %d pods and have bound %d, started %d (%d failed at their start), with %d writes failed, %d pods queued, %d watch events unapplied, %d lists of every pod (%d after the watch expired)",
		s.Pods, s.Stats.Binds, s.Stats.Starts, s.Stats.Failures, s.Stats.WriteErrors, s.Queued, s.Events, s.Stats.Relists, s.Stats.Expired)
}
