//go:build modern

package controller

import (
	"context"
	"errors"
	"testing"

	apierrors "github.com/kube-rewind/kube-rewind/pkg/api/errors"
	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
)

// TestClaimObjectKeepsReleasesAdoptsOrLeavesEachPod walks every branch of
// a claim: whose the pod is, whether it matches, whether either side is
// going away, which namespace it is in, and what a failed adoption or
// release returns (a pod gone meanwhile is no error; anything else fails
// the sync, which is retried).
func TestClaimObjectKeepsReleasesAdoptsOrLeavesEachPod(t *testing.T) {
	deleting := metav1.Now()
	other := newRC(1)
	other.UID = "other-uid"
	gone := apierrors.NewNotFound("pods", "p")
	refused := errors.New("the apiserver refused")
	for _, tc := range []struct {
		name string
		// controller and pod change the defaults: a live controller in
		// the default namespace, and a pod of its, matching, in it.
		controller func(rc *v1.ReplicationController)
		pod        func(p *v1.Pod)
		// adoptErr and releaseErr are what adopting and releasing return.
		adoptErr, releaseErr error
		claimed              bool
		wantErr              error
		adopted, released    bool
	}{
		{name: "its own matching pod is kept", claimed: true},
		{name: "another controller's pod is left alone",
			pod: func(p *v1.Pod) {
				p.OwnerReferences = []metav1.OwnerReference{*metav1.NewControllerRef(other, controllerKind)}
			}},
		{name: "its own pod that no longer matches is released",
			pod: func(p *v1.Pod) { p.Labels = map[string]string{"name": "bar"} }, released: true},
		{name: "a release of a pod gone meanwhile is no error",
			pod: func(p *v1.Pod) { p.Labels = map[string]string{"name": "bar"} }, releaseErr: gone, released: true},
		{name: "a refused release fails the claim",
			pod: func(p *v1.Pod) { p.Labels = map[string]string{"name": "bar"} }, releaseErr: refused, released: true, wantErr: refused},
		{name: "a controller being deleted releases nothing",
			controller: func(rc *v1.ReplicationController) { rc.DeletionTimestamp = &deleting },
			pod:        func(p *v1.Pod) { p.Labels = map[string]string{"name": "bar"} }},
		{name: "a matching orphan is adopted",
			pod: func(p *v1.Pod) { p.OwnerReferences = nil }, adopted: true, claimed: true},
		{name: "an adoption of a pod gone meanwhile is no error",
			pod: func(p *v1.Pod) { p.OwnerReferences = nil }, adoptErr: gone, adopted: true},
		{name: "a refused adoption fails the claim",
			pod: func(p *v1.Pod) { p.OwnerReferences = nil }, adoptErr: refused, adopted: true, wantErr: refused},
		{name: "an orphan that does not match is left alone",
			pod: func(p *v1.Pod) { p.OwnerReferences = nil; p.Labels = map[string]string{"name": "bar"} }},
		{name: "a controller being deleted adopts nothing",
			controller: func(rc *v1.ReplicationController) { rc.DeletionTimestamp = &deleting },
			pod:        func(p *v1.Pod) { p.OwnerReferences = nil }},
		{name: "an orphan being deleted is not adopted",
			pod: func(p *v1.Pod) { p.OwnerReferences = nil; p.DeletionTimestamp = &deleting }},
		{name: "an orphan of another namespace is not adopted",
			pod: func(p *v1.Pod) { p.OwnerReferences = nil; p.Namespace = "other" }},
		{name: "a controller without a namespace adopts in any",
			controller: func(rc *v1.ReplicationController) { rc.Namespace = "" },
			pod:        func(p *v1.Pod) { p.OwnerReferences = nil; p.Namespace = "other" }, adopted: true, claimed: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rc := newRC(1)
			if tc.controller != nil {
				tc.controller(rc)
			}
			pod := newPod("p", rc)
			if tc.pod != nil {
				tc.pod(pod)
			}
			m := BaseControllerRefManager{Controller: rc, Selector: labels.SelectorFromSet(rc.Spec.Selector)}
			adopted, released := false, false
			claimed, err := m.ClaimObject(context.Background(), pod,
				func(obj metav1.Object) bool { return m.Selector.Matches(labels.Set(obj.GetLabels())) },
				func(context.Context, metav1.Object) error { adopted = true; return tc.adoptErr },
				func(context.Context, metav1.Object) error { released = true; return tc.releaseErr })
			if claimed != tc.claimed || err != tc.wantErr {
				t.Errorf("claimed %v, error %v; want %v and %v", claimed, err, tc.claimed, tc.wantErr)
			}
			if adopted != tc.adopted || released != tc.released {
				t.Errorf("adopted %v, released %v; want %v and %v", adopted, released, tc.adopted, tc.released)
			}
		})
	}
}
