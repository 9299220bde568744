package conversion

import (
	"encoding/json"
	"errors"
	"reflect"
	"testing"
	"time"

	"github.com/kube-rewind/kube-rewind/pkg/api"
	apierrors "github.com/kube-rewind/kube-rewind/pkg/api/errors"
	"github.com/kube-rewind/kube-rewind/pkg/util"
	v1 "k8s.io/api/core/v1"
	k8serrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/resource"
)

// frontendController is shaped like the guestbook's frontend controller of
// v0.4 (cpu, memory, host ports), with the modern status fields set.
func frontendController() *api.ReplicationController {
	yes := true
	return &api.ReplicationController{
		TypeMeta: api.TypeMeta{
			ID: "frontendController", Namespace: "default", UID: "rc-uid", ResourceVersion: 17,
			CreationTimestamp: util.Unix(1413244800, 0), SelfLink: "/api/v1beta1/replicationControllers/frontendController",
			Generation: 3, Annotations: map[string]string{"note": "kept"},
			OwnerReferences: []api.OwnerReference{{APIVersion: "v1beta1", Kind: "Thing", Name: "t", UID: "t-uid", Controller: &yes}},
		},
		Labels: map[string]string{"name": "frontend"},
		DesiredState: api.ReplicationControllerState{
			Replicas:        3,
			ReplicaSelector: map[string]string{"name": "frontend"},
			MinReadySeconds: 5,
			PodTemplate: api.PodTemplate{
				Labels: map[string]string{"name": "frontend"},
				DesiredState: api.PodState{Manifest: api.ContainerManifest{
					Version: "v1beta1",
					ID:      "frontendController",
					Containers: []api.Container{{
						Name: "php-redis", Image: "brendanburns/php-redis", CPU: 100, Memory: 10000000,
						Ports: []api.Port{{ContainerPort: 80, HostPort: 8000, Protocol: api.ProtocolTCP}},
						Env:   []api.EnvVar{{Name: "GET_HOSTS_FROM", Value: "env"}},
					}},
				}},
			},
		},
		CurrentState: api.ReplicationControllerState{
			Replicas: 3, FullyLabeledReplicas: 3, ReadyReplicas: 2, AvailableReplicas: 1, ObservedGeneration: 3,
			Conditions: []api.Condition{{Type: api.ConditionReplicaFailure, Status: "True", Reason: "FailedCreate",
				Message: "quota", LastTransitionTime: util.Unix(1413244900, 0)}},
		},
	}
}

// runningPod is a pod as the apiserver returns it once a hollow node has
// started it.
func runningPod() *api.Pod {
	yes := true
	return &api.Pod{
		TypeMeta: api.TypeMeta{
			ID: "c865cd4b-e622-11f1-bbf6-6ea03ab9ca9f", Namespace: "default", UID: "pod-uid", ResourceVersion: 42,
			CreationTimestamp: util.Unix(1413244801, 0),
			OwnerReferences: []api.OwnerReference{{APIVersion: "v1beta1", Kind: "ReplicationController",
				Name: "frontendController", UID: "rc-uid", Controller: &yes, BlockOwnerDeletion: &yes}},
		},
		Labels: map[string]string{"name": "frontend"},
		DesiredState: api.PodState{
			Status: api.PodRunning,
			Host:   "hollow-node-1",
			Manifest: api.ContainerManifest{
				Version: "v1beta1", ID: "c865cd4b-e622-11f1-bbf6-6ea03ab9ca9f", UUID: "c865cd4b-e622-11f1-bbf6-6ea03ab9ca9f",
				RestartPolicy: api.RestartPolicy{Always: &api.RestartPolicyAlways{}},
				Volumes:       []api.Volume{{Name: "data", Source: &api.VolumeSource{HostDir: &api.HostDir{Path: "/tmp"}}}},
				Containers: []api.Container{{
					Name: "nginx", Image: "dockerfile/nginx", Command: []string{"nginx"}, WorkingDir: "/",
					Ports:         []api.Port{{Name: "http", ContainerPort: 80, HostPort: 8080, Protocol: api.ProtocolTCP}},
					VolumeMounts:  []api.VolumeMount{{Name: "data", MountPath: "/data", ReadOnly: true}},
					LivenessProbe: &api.LivenessProbe{InitialDelaySeconds: 30, HTTPGet: &api.HTTPGetAction{Path: "/index.html", Port: util.NewIntOrStringFromString("8080")}},
					Lifecycle:     &api.Lifecycle{PreStop: &api.Handler{Exec: &api.ExecAction{Command: []string{"stop"}}}},
					Privileged:    true, ImagePullPolicy: "PullIfNotPresent",
				}},
			},
		},
		CurrentState: api.PodState{
			Status: api.PodRunning, Host: "hollow-node-1", HostIP: "10.240.0.2", PodIP: "10.64.0.7",
			Info:       api.PodInfo{"nginx": {RestartCount: 2, Image: "dockerfile/nginx"}},
			Conditions: []api.Condition{{Type: api.ConditionReady, Status: "True", LastTransitionTime: util.Unix(1413244805, 0)}},
		},
	}
}

// wire compares objects as the apiserver would see them: their v1beta1
// JSON, so nil and empty collections that encode alike compare equal.
func wire(t *testing.T, obj api.Object) string {
	t.Helper()
	data, err := api.Encode(obj)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

func TestAReplicationControllerSurvivesTheRoundTripThroughV1(t *testing.T) {
	in := frontendController()
	mid := ReplicationControllerToV1(in)
	out := ReplicationControllerFromV1(mid)
	if got, want := wire(t, out), wire(t, in); got != want {
		t.Errorf("round trip changed the controller:\n got %s\nwant %s", got, want)
	}
	if *mid.Spec.Replicas != 3 || mid.Spec.Selector["name"] != "frontend" || mid.Status.ReadyReplicas != 2 || mid.Status.ObservedGeneration != 3 {
		t.Errorf("v1 controller has the wrong spec or status: %+v %+v", mid.Spec, mid.Status)
	}
	if mid.ResourceVersion != "17" || mid.Name != "frontendController" || string(mid.UID) != "rc-uid" {
		t.Errorf("v1 controller has the wrong header: %+v", mid.ObjectMeta)
	}
	limits := mid.Spec.Template.Spec.Containers[0].Resources.Limits
	if cpu, mem := limits[v1.ResourceCPU], limits[v1.ResourceMemory]; cpu.Cmp(resource.MustParse("100m")) != 0 || mem.Value() != 10000000 {
		t.Errorf("cpu and memory became %v and %v, want 100m and 10000000", cpu.String(), mem.String())
	}
}

func TestAPodSurvivesTheRoundTripThroughV1(t *testing.T) {
	in := runningPod()
	mid := PodToV1(in)
	out := PodFromV1(mid)
	if got, want := wire(t, out), wire(t, in); got != want {
		t.Errorf("round trip changed the pod:\n got %s\nwant %s", got, want)
	}
	if mid.Spec.NodeName != "hollow-node-1" || mid.Status.Phase != v1.PodRunning || mid.Status.PodIP != "10.64.0.7" {
		t.Errorf("v1 pod has the wrong placement or phase: %+v %+v", mid.Spec.NodeName, mid.Status)
	}
	if len(mid.Status.ContainerStatuses) != 1 || mid.Status.ContainerStatuses[0].RestartCount != 2 {
		t.Errorf("restart count lost: %+v", mid.Status.ContainerStatuses)
	}
	if out.Annotations != nil {
		t.Errorf("conversion annotations leaked back: %v", out.Annotations)
	}
}

func TestPodStatusesMapOntoPhases(t *testing.T) {
	for _, tc := range []struct {
		in    api.PodStatus
		phase v1.PodPhase
	}{
		{api.PodWaiting, v1.PodPending},
		{api.PodRunning, v1.PodRunning},
		{api.PodTerminated, v1.PodFailed},
	} {
		t.Run(string(tc.in), func(t *testing.T) {
			pod := &api.Pod{CurrentState: api.PodState{Status: tc.in}}
			mid := PodToV1(pod)
			if mid.Status.Phase != tc.phase {
				t.Errorf("phase %q, want %q", mid.Status.Phase, tc.phase)
			}
			if back := PodFromV1(mid).CurrentState.Status; back != tc.in {
				t.Errorf("status came back as %q", back)
			}
		})
	}
}

func TestAPodMadeFromAConvertedTemplateIsTheLegacyPodWithoutTheAutoLabel(t *testing.T) {
	rc := frontendController()
	template := ReplicationControllerToV1(rc).Spec.Template
	pod := PodFromV1(&v1.Pod{ObjectMeta: template.ObjectMeta, Spec: template.Spec})
	legacy := &api.Pod{
		Labels:       rc.DesiredState.PodTemplate.Labels,
		DesiredState: rc.DesiredState.PodTemplate.DesiredState,
	}
	if got, want := wire(t, pod), wire(t, legacy); got != want {
		t.Errorf("pod from the template:\n got %s\nwant %s", got, want)
	}
}

func TestAServiceAndItsEndpointsSurviveTheRoundTrip(t *testing.T) {
	svc := &api.Service{
		TypeMeta:      api.TypeMeta{ID: "frontend", ResourceVersion: 5},
		Port:          8000,
		Protocol:      api.ProtocolTCP,
		Labels:        map[string]string{"name": "frontend"},
		Selector:      map[string]string{"name": "frontend"},
		ContainerPort: util.NewIntOrStringFromString("http"),
	}
	if got, want := wire(t, ServiceFromV1(ServiceToV1(svc))), wire(t, svc); got != want {
		t.Errorf("service:\n got %s\nwant %s", got, want)
	}
	eps := &api.Endpoints{
		TypeMeta:  api.TypeMeta{ID: "frontend", ResourceVersion: 6, Annotations: map[string]string{"control-plane.alpha.kubernetes.io/leader": "{}"}},
		Endpoints: []string{"10.0.0.1:80", "10.0.0.2:8080", "10.0.0.3:80", "[fd00::1]:80"},
	}
	mid := EndpointsToV1(eps)
	if len(mid.Subsets) != 2 {
		t.Errorf("want one subset per port, got %+v", mid.Subsets)
	}
	back := EndpointsFromV1(mid)
	want := []string{"10.0.0.1:80", "10.0.0.3:80", "[fd00::1]:80", "10.0.0.2:8080"}
	if !reflect.DeepEqual(back.Endpoints, want) || back.ResourceVersion != 6 || back.Annotations["control-plane.alpha.kubernetes.io/leader"] != "{}" {
		t.Errorf("endpoints came back as %+v", back)
	}
}

func TestStatusErrorsBecomeErrorsClientGoRecognises(t *testing.T) {
	for _, tc := range []struct {
		name string
		err  error
		is   func(error) bool
	}{
		{"not found", apierrors.NewNotFound("endpoints", "kube-controller-manager"), k8serrors.IsNotFound},
		{"conflict", apierrors.NewConflict("pod", "p", errors.New("101")), k8serrors.IsConflict},
		{"already exists", apierrors.NewAlreadyExists("pod", "p"), k8serrors.IsAlreadyExists},
		{"gone", apierrors.NewGone("too old"), k8serrors.IsGone},
		{"internal", apierrors.NewInternalError(errors.New("boom")), k8serrors.IsInternalError},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := Error(tc.err); !tc.is(got) {
				t.Errorf("%v converted to %#v, not recognised", tc.err, got)
			}
		})
	}
	plain := errors.New("connection refused")
	if Error(plain) != plain {
		t.Error("an error without a Status must pass through unchanged")
	}
}

func TestResourceVersionsAreDecimalStrings(t *testing.T) {
	if ResourceVersionToV1(0) != "" || ResourceVersionToV1(1234) != "1234" {
		t.Error("resourceVersion to v1")
	}
	if ResourceVersionFromV1("") != 0 || ResourceVersionFromV1("99") != 99 || ResourceVersionFromV1("x") != 0 {
		t.Error("resourceVersion from v1")
	}
}

func TestConvertedTimesKeepTheirInstant(t *testing.T) {
	now := util.Now()
	data, _ := json.Marshal(timeToV1(now))
	var back util.Time
	if err := json.Unmarshal(data, &back); err != nil || !back.Equal(now.Time) || back.Sub(now.Time) > time.Second {
		t.Errorf("time %v came back as %v (%v)", now, back, err)
	}
}

// withoutStateAnnotations drops the verbatim states, leaving the v1 fields
// alone to carry the object, as for an object made in v1 by hand.
func withoutStateAnnotations(m map[string]string) map[string]string {
	return userAnnotations(m)
}

func TestThePodFieldsV1CanHoldSurviveWithoutTheVerbatimStates(t *testing.T) {
	in := runningPod()
	mid := PodToV1(in)
	mid.Annotations = withoutStateAnnotations(mid.Annotations)
	out := PodFromV1(mid)
	// What v1 has no field for comes back empty.
	want := runningPod()
	want.DesiredState.Status = ""
	want.DesiredState.Manifest.Version, want.DesiredState.Manifest.ID, want.DesiredState.Manifest.UUID = "", "", ""
	if got, want := wire(t, out), wire(t, want); got != want {
		t.Errorf("field-by-field round trip:\n got %s\nwant %s", got, want)
	}
}

func TestLegacyOnlyFieldsSurviveTheRoundTrip(t *testing.T) {
	rc := frontendController()
	c := &rc.DesiredState.PodTemplate.DesiredState.Manifest.Containers[0]
	c.Env = append(c.Env, api.EnvVar{Name: "OLD", Key: "OLD", Value: "1"})
	c.VolumeMounts = []api.VolumeMount{{Name: "data", Path: "/data", MountType: "LOCAL"}}
	rc.DesiredState.PodTemplate.DesiredState.Manifest.Volumes = []api.Volume{{Name: "data", Source: &api.VolumeSource{}}}
	out := ReplicationControllerFromV1(ReplicationControllerToV1(rc))
	got, _ := json.Marshal(out.DesiredState)
	want, _ := json.Marshal(rc.DesiredState)
	if string(got) != string(want) {
		t.Errorf("desiredState changed on the way through v1, which would raise the generation on every status write:\n got %s\nwant %s", got, want)
	}
}
