package kubecfg

import (
	"bytes"
	"reflect"
	"strings"
	"testing"
	"text/template"
	"time"

	"github.com/kube-rewind/kube-rewind/pkg/api"
	"github.com/kube-rewind/kube-rewind/pkg/util"
)

// table joins lines with newlines, so the golden tables below keep their
// columns visibly aligned in the source.
func table(lines ...string) string {
	return strings.Join(lines, "\n") + "\n"
}

func nginxController() *api.ReplicationController {
	return &api.ReplicationController{
		TypeMeta: api.TypeMeta{ID: "nginxController", ResourceVersion: 7},
		DesiredState: api.ReplicationControllerState{
			Replicas:        2,
			ReplicaSelector: map[string]string{"name": "nginx"},
			PodTemplate: api.PodTemplate{DesiredState: api.PodState{Manifest: api.ContainerManifest{
				Containers: []api.Container{{Image: "dockerfile/nginx"}},
			}}},
		},
	}
}

func TestTablesMatchThe2014Layout(t *testing.T) {
	cases := []struct {
		name string
		obj  api.Object
		want string
	}{
		{"controller list", &api.ReplicationControllerList{Items: []api.ReplicationController{*nginxController()}}, table(
			"ID                  Image(s)            Selector            Replicas",
			"----------          ----------          ----------          ----------",
			"nginxController     dockerfile/nginx    name=nginx          2",
		)},
		{"pods, scheduled and not", &api.PodList{Items: []api.Pod{
			{
				TypeMeta:     api.TypeMeta{ID: "c865cd4b-e622-11f1-bbf6-6ea03ab9ca9f"},
				Labels:       map[string]string{"name": "nginx", "replicationController": "nginxController"},
				DesiredState: api.PodState{Manifest: api.ContainerManifest{Containers: []api.Container{{Image: "dockerfile/nginx"}}}},
				CurrentState: api.PodState{Status: api.PodRunning, Host: "minion-1", HostIP: "10.0.0.1"},
			},
			{
				TypeMeta:     api.TypeMeta{ID: "web"},
				Labels:       map[string]string{"name": "web"},
				DesiredState: api.PodState{Manifest: api.ContainerManifest{Containers: []api.Container{{Image: "a/b"}, {Image: "c/d"}}}},
				CurrentState: api.PodState{Status: api.PodWaiting},
			},
		}}, table(
			"ID                                     Image(s)            Host                Labels                                             Status",
			"----------                             ----------          ----------          ----------                                         ----------",
			"c865cd4b-e622-11f1-bbf6-6ea03ab9ca9f   dockerfile/nginx    minion-1/10.0.0.1   name=nginx,replicationController=nginxController   Running",
			"web                                    a/b,c/d             <unassigned>        name=web                                           Waiting",
		)},
		{"one pod", &api.Pod{TypeMeta: api.TypeMeta{ID: "p"}}, table(
			"ID                  Image(s)            Host                Labels              Status",
			"----------          ----------          ----------          ----------          ----------",
			"p                                       <unassigned>                            ",
		)},
		{"services", &api.ServiceList{Items: []api.Service{{
			TypeMeta: api.TypeMeta{ID: "frontend"},
			Port:     9998,
			Labels:   map[string]string{"name": "frontend"},
			Selector: map[string]string{"name": "frontendController"},
		}}}, table(
			"ID                  Labels              Selector                  Port",
			"----------          ----------          ----------                ----------",
			"frontend            name=frontend       name=frontendController   9998",
		)},
		{"minions, read from items", &api.MinionList{Items: []api.Minion{{TypeMeta: api.TypeMeta{ID: "127.0.0.1"}}}}, table(
			"Minion identifier",
			"----------",
			"127.0.0.1",
		)},
		{"minions, read from the deprecated array", &api.MinionList{Minions: []api.Minion{{TypeMeta: api.TypeMeta{ID: "m1"}}}}, table(
			"Minion identifier",
			"----------",
			"m1",
		)},
		{"status", &api.Status{Status: api.StatusSuccess}, table(
			"Status",
			"----------",
			"Success",
		)},
		{"endpoints", &api.EndpointsList{Items: []api.Endpoints{{TypeMeta: api.TypeMeta{ID: "frontend"}, Endpoints: []string{"10.1.0.2:80", "10.1.0.3:80"}}}}, table(
			"ID                  Endpoints",
			"----------          ----------",
			"frontend            10.1.0.2:80,10.1.0.3:80",
		)},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var buf bytes.Buffer
			if err := NewHumanReadablePrinter().PrintObj(tc.obj, &buf); err != nil {
				t.Fatal(err)
			}
			if buf.String() != tc.want {
				t.Errorf("got\n%s\nwant\n%s", buf.String(), tc.want)
			}
		})
	}
}

func TestTablePrinterRefusesTypesItDoesNotKnow(t *testing.T) {
	if err := NewHumanReadablePrinter().PrintObj(&api.Binding{}, &bytes.Buffer{}); err == nil {
		t.Error("want an error")
	}
}

func TestHandlerRefusesFunctionsOfTheWrongShape(t *testing.T) {
	h := NewHumanReadablePrinter()
	for _, f := range []interface{}{42, func(*api.Pod) error { return nil }, func(*api.Pod, *bytes.Buffer) error { return nil }} {
		if err := h.Handler([]string{"x"}, f); err == nil {
			t.Errorf("Handler accepted %T", f)
		}
	}
}

func TestTablePrinterReadsJSONBodies(t *testing.T) {
	var buf bytes.Buffer
	body := []byte(`{"kind":"Status","apiVersion":"v1beta1","status":"Success"}`)
	if err := NewHumanReadablePrinter().Print(body, &buf); err != nil {
		t.Fatal(err)
	}
	if !strings.HasSuffix(buf.String(), "Success\n") {
		t.Errorf("got %q", buf.String())
	}
	if err := NewHumanReadablePrinter().Print([]byte(`{"status":"x"}`), &buf); err == nil {
		t.Error("a body without kind should be refused")
	}
}

func TestJSONPrinterWritesTheV1beta1Object(t *testing.T) {
	var buf bytes.Buffer
	if err := (&IdentityPrinter{}).PrintObj(&api.Minion{TypeMeta: api.TypeMeta{ID: "m1"}, HostIP: "10.0.0.1"}, &buf); err != nil {
		t.Fatal(err)
	}
	// An empty resources object is still written, as v1beta1's struct-valued
	// "resources" was.
	want := `{"kind":"Minion","id":"m1","creationTimestamp":null,"apiVersion":"v1beta1","hostIP":"10.0.0.1","resources":{}}`
	if buf.String() != want {
		t.Errorf("got  %s\nwant %s", buf.String(), want)
	}
}

// TestYAMLPrinterWritesTheObjectAsV04Did checks v0.4's YAML: keys in the
// order of the fields, the internal header (resourceVersion quoted, uid
// after namespace, no kind), every struct present, unset lists as [] and
// the v1beta1-only keys (a mount's path, an env entry's key) absent.
func TestYAMLPrinterWritesTheObjectAsV04Did(t *testing.T) {
	obj := nginxController()
	obj.UID = "c865cd4b"
	obj.Namespace = "default"
	obj.CreationTimestamp = util.Time{Time: time.Date(2014, 10, 14, 16, 46, 22, 0, time.UTC)}
	ctr := &obj.DesiredState.PodTemplate.DesiredState.Manifest.Containers[0]
	ctr.Env = []api.EnvVar{{Name: "MODE", Key: "MODE", Value: "1"}}
	ctr.VolumeMounts = []api.VolumeMount{{Name: "data", MountPath: "/data", Path: "/data"}}
	var buf bytes.Buffer
	if err := (&YAMLPrinter{}).PrintObj(obj, &buf); err != nil {
		t.Fatal(err)
	}
	want := `id: nginxController
creationTimestamp: 2014-10-14T16:46:22Z
resourceVersion: "7"
namespace: default
uid: c865cd4b
desiredState:
  replicas: 2
  replicaSelector:
    name: nginx
  podTemplate:
    desiredState:
      manifest:
        version: ""
        id: ""
        volumes: []
        containers:
        - name: ""
          image: dockerfile/nginx
          env:
          - name: MODE
            value: "1"
          volumeMounts:
          - name: data
            mountPath: /data
          imagePullPolicy: ""
        restartPolicy: {}
currentState:
  replicas: 0
  podTemplate:
    desiredState:
      manifest:
        version: ""
        id: ""
        volumes: []
        containers: []
        restartPolicy: {}
`
	if buf.String() != want {
		t.Errorf("got\n%s\nwant\n%s", buf.String(), want)
	}

	buf.Reset()
	if err := (&YAMLPrinter{}).Print([]byte(`{"Key":"v","List":[1,2]}`), &buf); err != nil {
		t.Fatal(err)
	}
	if buf.String() != "Key: v\nList:\n- 1\n- 2\n" {
		t.Errorf("got %q", buf.String())
	}
	if err := (&YAMLPrinter{}).Print([]byte("invalidJSON"), &buf); err == nil {
		t.Error("invalid JSON should fail")
	}
}

func TestTemplatePrinterSeesTheDecodedObject(t *testing.T) {
	tmpl := template.Must(template.New("output").Parse("{{.ID}} {{.DesiredState.Replicas}}"))
	var buf bytes.Buffer
	if err := (&TemplatePrinter{Template: tmpl}).PrintObj(nginxController(), &buf); err != nil {
		t.Fatal(err)
	}
	if buf.String() != "nginxController 2" {
		t.Errorf("got %q", buf.String())
	}
}

func TestGetPrinterFollowsTheOutputFlags(t *testing.T) {
	cases := []struct {
		name string
		opts Options
		want interface{}
	}{
		{"default", Options{}, &HumanReadablePrinter{}},
		{"json", Options{JSON: true}, &IdentityPrinter{}},
		{"yaml", Options{YAML: true}, &YAMLPrinter{}},
		{"template", Options{Template: "{{.ID}}"}, &TemplatePrinter{}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			p, err := GetPrinter(&tc.opts)
			if err != nil {
				t.Fatal(err)
			}
			if reflect.TypeOf(p) != reflect.TypeOf(tc.want) {
				t.Errorf("got %T, want %T", p, tc.want)
			}
		})
	}
	if _, err := GetPrinter(&Options{Template: "{{.ID"}); err == nil {
		t.Error("a broken template should fail")
	}
	if _, err := GetPrinter(&Options{TemplateFile: "/no/such/template"}); err == nil {
		t.Error("a missing template file should fail")
	}
}

// TestAHostileValueCannotForgeARowOrATerminalSequence prints a pod whose
// stored fields carry a tab, a newline with a forged row, and an escape
// sequence: the table must keep one row per pod and show them as escapes.
func TestAHostileValueCannotForgeARowOrATerminalSequence(t *testing.T) {
	pod := &api.Pod{
		TypeMeta: api.TypeMeta{ID: "real"},
		Labels:   map[string]string{"name": "a\tb"},
		DesiredState: api.PodState{Manifest: api.ContainerManifest{Containers: []api.Container{
			{Image: "nginx\nforged              nginx               host/1.2.3.4        name=x              Running"},
		}}},
		CurrentState: api.PodState{Status: "\x1b[2JRunning", Host: "h\u202e"},
	}
	var out bytes.Buffer
	if err := NewHumanReadablePrinter().PrintObj(&api.PodList{Items: []api.Pod{*pod}}, &out); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimRight(out.String(), "\n"), "\n")
	if len(lines) != 3 {
		t.Fatalf("%d lines, want a header, dashes and one row:\n%s", len(lines), out.String())
	}
	for _, want := range []string{`nginx\nforged`, `name=a\tb`, `\x1b[2JRunning`, `h\u202e/`} {
		if !strings.Contains(lines[2], want) {
			t.Errorf("row %q does not show %q", lines[2], want)
		}
	}
	if strings.ContainsAny(out.String(), "\x1b\u202e") {
		t.Errorf("a raw control character reached the output: %q", out.String())
	}
}

func TestEscapeControlLeavesOrdinaryTextAlone(t *testing.T) {
	for in, want := range map[string]string{
		"nginxController":     "nginxController",
		"naïve 日本 \"quoted\"": "naïve 日本 \"quoted\"",
		"a\nb":                `a\nb`,
		"\x00\x7f\u0085":      `\x00\x7f\u0085`,
		"bad \xff byte":       "bad \ufffd byte",
	} {
		if got := EscapeControl(in); got != want {
			t.Errorf("EscapeControl(%q) = %q, want %q", in, got, want)
		}
	}
}
