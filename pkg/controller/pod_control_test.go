//go:build !modern

package controller

import (
	"errors"
	"fmt"
	"testing"

	"github.com/kube-rewind/kube-rewind/pkg/api"
	"github.com/kube-rewind/kube-rewind/pkg/client"
)

// TestAFailedCreateIsCountedAndForgotten: the manager counts the creates
// it sent and those that failed, which the fault tests read to know how
// many extra pods a lost answer may explain; the failure itself is only
// logged, as in v0.4.
func TestAFailedCreateIsCountedAndForgotten(t *testing.T) {
	for _, fail := range []bool{false, true} {
		fake := &client.Fake{}
		if fail {
			fake.Err = errors.New("the apiserver is away")
		}
		sent, failed := counterValue(podCreates), counterValue(podCreateErrors)
		RealPodControl{kubeClient: fake}.createReplica(api.NewDefaultContext(), newReplicationController(1))
		wantFailed := 0.0
		if fail {
			wantFailed = 1
		}
		if got := counterValue(podCreates) - sent; got != 1 {
			t.Errorf("failing %v: %v creates counted, want 1", fail, got)
		}
		if got := counterValue(podCreateErrors) - failed; got != wantFailed {
			t.Errorf("failing %v: %v failed creates counted, want %v", fail, got, wantFailed)
		}
	}
}

// TestDeletePodDeletesThatPodAndCountsAFailure: a delete names its pod,
// returns the apiserver's error to the sync, and is counted, failed or not.
func TestDeletePodDeletesThatPodAndCountsAFailure(t *testing.T) {
	for _, fail := range []bool{false, true} {
		fake := &client.Fake{}
		if fail {
			fake.Err = errors.New("the apiserver is away")
		}
		sent, failed := counterValue(podDeletes), counterValue(podDeleteErrors)
		err := RealPodControl{kubeClient: fake}.deletePod(api.NewDefaultContext(), "pod7")
		if (err != nil) != fail {
			t.Errorf("failing %v: deletePod returned %v", fail, err)
		}
		if actions := fake.Actions(); fmt.Sprint(actions) != "[{delete-pod pod7}]" {
			t.Errorf("failing %v: actions %v, want one delete of pod7", fail, actions)
		}
		wantFailed := 0.0
		if fail {
			wantFailed = 1
		}
		if got := counterValue(podDeletes) - sent; got != 1 {
			t.Errorf("failing %v: %v deletes counted, want 1", fail, got)
		}
		if got := counterValue(podDeleteErrors) - failed; got != wantFailed {
			t.Errorf("failing %v: %v failed deletes counted, want %v", fail, got, wantFailed)
		}
	}
}

// TestAReplicaOfATemplateWithEmptyLabelsGetsTheControllerLabel: only a
// template with no labels at all (nil, as v0.4 read a manifest without
// them) goes without the label; an empty set of labels gets it.
func TestAReplicaOfATemplateWithEmptyLabelsGetsTheControllerLabel(t *testing.T) {
	rc := newReplicationController(1)
	rc.DesiredState.PodTemplate.Labels = map[string]string{}
	if got := replicaLabels(rc); fmt.Sprint(got) != "map[replicationController:foo]" {
		t.Errorf("empty template labels gave %v, want the controller label alone", got)
	}
	rc.DesiredState.PodTemplate.Labels = nil
	if got := replicaLabels(rc); got != nil {
		t.Errorf("no template labels gave %v, want none", got)
	}
}
