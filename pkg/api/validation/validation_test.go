package validation

import (
	"strings"
	"testing"

	"github.com/kube-rewind/kube-rewind/pkg/api"
	errs "github.com/kube-rewind/kube-rewind/pkg/api/errors"
)

func validController() *api.ReplicationController {
	return &api.ReplicationController{
		TypeMeta: api.TypeMeta{ID: "nginxController", Namespace: api.NamespaceDefault},
		DesiredState: api.ReplicationControllerState{
			Replicas:        2,
			ReplicaSelector: map[string]string{"name": "nginx"},
			PodTemplate: api.PodTemplate{
				Labels: map[string]string{"name": "nginx"},
				DesiredState: api.PodState{Manifest: api.ContainerManifest{
					Version:    "v1beta1",
					Containers: []api.Container{{Name: "nginx", Image: "dockerfile/nginx", Ports: []api.Port{{ContainerPort: 80}}}},
				}},
			},
		},
	}
}

func fields(list errs.ErrorList) string {
	var out []string
	for _, e := range list {
		out = append(out, e.(errs.ValidationError).Field)
	}
	return strings.Join(out, ",")
}

func TestValidControllerPassesAndGetsDefaults(t *testing.T) {
	rc := validController()
	if list := ValidateReplicationController(rc); len(list) != 0 {
		t.Fatalf("unexpected errors: %v", list.ToError())
	}
	m := rc.DesiredState.PodTemplate.DesiredState.Manifest
	if m.Containers[0].Ports[0].Protocol != api.ProtocolTCP || m.RestartPolicy.Always == nil {
		t.Errorf("defaults not filled: %+v", m)
	}
}

func TestControllerErrorsNameTheirField(t *testing.T) {
	cases := map[string]struct {
		mutate func(*api.ReplicationController)
		field  string
	}{
		"no selector":       {func(rc *api.ReplicationController) { rc.DesiredState.ReplicaSelector = nil }, "desiredState.replicaSelector"},
		"selector mismatch": {func(rc *api.ReplicationController) { rc.DesiredState.ReplicaSelector = map[string]string{"name": "x"} }, "desiredState.podTemplate.labels"},
		"negative replicas": {func(rc *api.ReplicationController) { rc.DesiredState.Replicas = -1 }, "desiredState.replicas"},
		"absurd replicas":   {func(rc *api.ReplicationController) { rc.DesiredState.Replicas = MaxReplicas + 1 }, "desiredState.replicas"},
		"no id":             {func(rc *api.ReplicationController) { rc.ID = "" }, "id"},
		"slash in id":       {func(rc *api.ReplicationController) { rc.ID = "../controllers/evil" }, "id"},
		"dot-dot in id":     {func(rc *api.ReplicationController) { rc.ID = "a..b" }, "id"},
		"no version":        {func(rc *api.ReplicationController) { rc.DesiredState.PodTemplate.DesiredState.Manifest.Version = "" }, "desiredState.podTemplate.desiredState.manifest.version"},
		"bad port": {func(rc *api.ReplicationController) {
			rc.DesiredState.PodTemplate.DesiredState.Manifest.Containers[0].Ports[0].ContainerPort = 70000
		}, "desiredState.podTemplate.desiredState.manifest.containers[0].ports[0].containerPort"},
		"newline in a label value": {func(rc *api.ReplicationController) { rc.Labels = map[string]string{"app": "a\nb"} }, "labels[app]"},
		"escape in a label key":    {func(rc *api.ReplicationController) { rc.Labels = map[string]string{"\x1b[2J": "x"} }, "labels"},
		"bidi override in a label": {func(rc *api.ReplicationController) { rc.Labels = map[string]string{"app": "\u202egnp.exe"} }, "labels[app]"},
		"tab in an image": {func(rc *api.ReplicationController) {
			rc.DesiredState.PodTemplate.DesiredState.Manifest.Containers[0].Image = "nginx\tRunning"
		}, "desiredState.podTemplate.desiredState.manifest.containers[0].image"},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			rc := validController()
			c.mutate(rc)
			list := ValidateReplicationController(rc)
			if got := fields(list); got != c.field {
				t.Errorf("fields %q, want %q", got, c.field)
			}
		})
	}
}

func TestObjectIDsThatCannotBecomeKeysAreRefused(t *testing.T) {
	bad := []string{"", "a/b", "..", "../x", "%2F", "with space", "UPPER", "ünïcode", strings.Repeat("a", 300), "a..b", "-a"}
	for _, id := range bad {
		if len(ValidateID("pods", id)) == 0 {
			t.Errorf("pod id %q accepted", id)
		}
		if len(ValidateID("replicationControllers", id)) == 0 && id != "UPPER" {
			t.Errorf("controller id %q accepted", id)
		}
	}
	for _, id := range []string{"php", "redis-master-2", "c865cd4b-e622-11f1-bbf6-6ea03ab9ca9f", "127.0.0.1"} {
		if list := ValidateID("pods", id); len(list) != 0 {
			t.Errorf("pod id %q refused: %v", id, list.ToError())
		}
	}
	if len(ValidateID("replicationControllers", "redisSlaveController")) != 0 {
		t.Error("the 2014 camel-case controller id was refused")
	}
	if len(ValidateID("nonsense", "ok")) == 0 {
		t.Error("an unknown resource accepted an id")
	}
}

func TestServiceNeedsRFC952IDPortAndSelector(t *testing.T) {
	svc := &api.Service{TypeMeta: api.TypeMeta{ID: "frontend", Namespace: "default"}, Port: 9998, Selector: map[string]string{"name": "frontend"}}
	if list := ValidateService(svc); len(list) != 0 {
		t.Fatal(list.ToError())
	}
	svc = &api.Service{TypeMeta: api.TypeMeta{ID: "Frontend", Namespace: "default"}, Port: 0}
	if got := fields(ValidateService(svc)); got != "id,port,selector" {
		t.Errorf("got %q", got)
	}
}

func TestInvalidErrorCarriesOneCausePerField(t *testing.T) {
	rc := validController()
	rc.DesiredState.ReplicaSelector = nil
	err := errs.NewInvalid("replicationController", "bad", ValidateReplicationController(rc))
	status := err.(errs.APIStatus).Status()
	if status.Code != 422 || status.Reason != api.StatusReasonInvalid || len(status.Details.Causes) != 1 {
		t.Fatalf("got %+v", status)
	}
	if c := status.Details.Causes[0]; c.Type != api.CauseTypeFieldValueRequired || c.Field != "desiredState.replicaSelector" {
		t.Errorf("first cause %+v", c)
	}
	if !strings.HasPrefix(status.Message, `replicationController "bad" is invalid: desiredState.replicaSelector: required value`) {
		t.Errorf("message %q", status.Message)
	}
}

func TestLabelValuesAreAcceptedAsIn2014ButSelectorsMustParse(t *testing.T) {
	rc := validController()
	rc.DesiredState.PodTemplate.Labels["uses"] = "redisslave,redis-master"
	rc.Labels = map[string]string{"note": "a=b!c," + strings.Repeat("x", 100)}
	if list := ValidateReplicationController(rc); len(list) != 0 {
		t.Errorf("labels v0.4 stored were refused: %v", list.ToError())
	}
	rc = validController()
	rc.DesiredState.ReplicaSelector["uses"] = "redisslave,redis-master"
	rc.DesiredState.PodTemplate.Labels["uses"] = "redisslave,redis-master"
	if got := fields(ValidateReplicationController(rc)); got != "desiredState.replicaSelector[uses]" {
		t.Errorf("a selector no query can express: fields %q", got)
	}
	svc := &api.Service{TypeMeta: api.TypeMeta{ID: "frontend", Namespace: "default"}, Port: 80, Selector: map[string]string{"name": "a,b"}}
	if got := fields(ValidateService(svc)); got != "selector[name]" {
		t.Errorf("service selector: fields %q", got)
	}
}

func TestOldMountPathAndEnvKeyAreConvertedAsV04Did(t *testing.T) {
	rc := validController()
	m := &rc.DesiredState.PodTemplate.DesiredState.Manifest
	m.Volumes = []api.Volume{{Name: "data", Source: &api.VolumeSource{EmptyDir: &api.EmptyDir{}}}}
	m.Containers[0].VolumeMounts = []api.VolumeMount{{Name: "data", Path: "/data", MountType: "LOCAL"}}
	m.Containers[0].Env = []api.EnvVar{{Key: "MODE", Value: "old"}, {Name: "LEVEL", Value: "new"}}
	if list := ValidateReplicationController(rc); len(list) != 0 {
		t.Fatal(list.ToError())
	}
	if got, want := m.Containers[0].VolumeMounts[0], (api.VolumeMount{Name: "data", MountPath: "/data", Path: "/data"}); got != want {
		t.Errorf("mount %+v, want %+v", got, want)
	}
	env := m.Containers[0].Env
	if env[0] != (api.EnvVar{Name: "MODE", Key: "MODE", Value: "old"}) || env[1] != (api.EnvVar{Name: "LEVEL", Key: "LEVEL", Value: "new"}) {
		t.Errorf("env %+v", env)
	}
}
