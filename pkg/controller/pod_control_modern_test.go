//go:build modern

package controller

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/kube-rewind/kube-rewind/pkg/api"
	"github.com/kube-rewind/kube-rewind/pkg/client"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// TestCreatePodsPostsTheTemplateWithItsControllerRef: today's pod control
// posts the template's labels, annotations and spec, with the
// ControllerRef and no controller label, into the namespace asked for,
// counting the create and, when it fails, the failure.
func TestCreatePodsPostsTheTemplateWithItsControllerRef(t *testing.T) {
	rc := newRC(1)
	rc.Spec.Template.Annotations = map[string]string{"note": "kept"}
	ref := metav1.NewControllerRef(rc, controllerKind)
	for _, fail := range []bool{false, true} {
		fake := &client.Fake{}
		if fail {
			fake.Err = errors.New("the apiserver is away")
		}
		sent, failed := counterValue(podCreates), counterValue(podCreateErrors)
		err := RealPodControl{KubeClient: fake}.CreatePods(context.Background(), "ns", rc.Spec.Template, rc, ref)
		if (err != nil) != fail {
			t.Errorf("failing %v: CreatePods returned %v", fail, err)
		}
		actions := fake.Actions()
		if len(actions) != 1 || actions[0].Action != "create-pod" {
			t.Fatalf("failing %v: actions %v, want one create-pod", fail, actions)
		}
		pod := actions[0].Value.(*api.Pod)
		if pod.Namespace != "ns" || fmt.Sprint(pod.Labels) != "map[name:foo type:production]" || fmt.Sprint(pod.Annotations) != "map[note:kept]" ||
			len(pod.OwnerReferences) != 1 || pod.OwnerReferences[0].UID != string(rc.UID) || len(pod.DesiredState.Manifest.Containers) != 1 {
			t.Errorf("failing %v: posted %+v", fail, pod)
		}
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
	// The template's maps are the controller's: the pod gets copies.
	pod, err := getPodFromTemplate(rc.Spec.Template, rc, nil)
	if err != nil {
		t.Fatal(err)
	}
	pod.Labels["changed"], pod.Annotations["changed"] = "yes", "yes"
	if len(rc.Spec.Template.Labels) != 2 || len(rc.Spec.Template.Annotations) != 1 || len(pod.OwnerReferences) != 0 {
		t.Errorf("the template changed with its pod (%v, %v), or a pod without a ControllerRef got one", rc.Spec.Template.Labels, rc.Spec.Template.Annotations)
	}
	if copyStringMap(nil) != nil {
		t.Error("no annotations became an empty map")
	}
}

func TestATemplateWithoutLabelsCreatesNothing(t *testing.T) {
	rc := newRC(1)
	rc.Spec.Template.Labels = nil
	fake := &client.Fake{}
	if err := (RealPodControl{KubeClient: fake}).CreatePods(context.Background(), "ns", rc.Spec.Template, rc, nil); err == nil {
		t.Error("a template without labels was accepted")
	}
	if actions := fake.Actions(); len(actions) != 0 {
		t.Errorf("calls %v, want none", actions)
	}
}

// TestDeleteAndUpdatePodNameTheirPodAndReturnItsError: a delete names the
// pod, in its namespace, returns the apiserver's error and is counted,
// failed or not; an update writes the pod back.
func TestDeleteAndUpdatePodNameTheirPodAndReturnItsError(t *testing.T) {
	for _, fail := range []bool{false, true} {
		fake := &client.Fake{}
		if fail {
			fake.Err = errors.New("the apiserver is away")
		}
		sent, failed := counterValue(podDeletes), counterValue(podDeleteErrors)
		control := RealPodControl{KubeClient: fake}
		if err := control.DeletePod(context.Background(), "ns", "pod7", nil); (err != nil) != fail {
			t.Errorf("failing %v: DeletePod returned %v", fail, err)
		}
		pod := newPod("pod8", nil)
		if err := control.UpdatePod(context.Background(), pod); (err != nil) != fail {
			t.Errorf("failing %v: UpdatePod returned %v", fail, err)
		}
		actions := fake.Actions()
		if len(actions) != 2 || fmt.Sprint(actions[0]) != "{delete-pod pod7}" || actions[1].Action != "update-pod" {
			t.Errorf("failing %v: actions %v, want a delete of pod7 and an update of pod8", fail, actions)
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

// TestTheFakePodControlRecordsEveryControllerRef keeps the fake honest:
// the tests that count ControllerRefs read what it records.
func TestTheFakePodControlRecordsEveryControllerRef(t *testing.T) {
	rc := newRC(1)
	f := &FakePodControl{}
	f.CreatePods(context.Background(), "ns", rc.Spec.Template, rc, metav1.NewControllerRef(rc, controllerKind))
	f.CreatePods(context.Background(), "ns", rc.Spec.Template, rc, nil)
	if len(f.Templates) != 2 || len(f.ControllerRefs) != 1 {
		t.Errorf("%d templates and %d references recorded, want 2 and 1", len(f.Templates), len(f.ControllerRefs))
	}
}
