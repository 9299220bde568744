package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kube-rewind/kube-rewind/pkg/api"
)

type outcome struct {
	code           int
	stdout, stderr string
}

// kubecfgAt runs kubecfg in-process against host with stdin.
func kubecfgAt(host, stdin string, args ...string) outcome {
	var stdout, stderr bytes.Buffer
	if host != "" {
		args = append([]string{"-h", host}, args...)
	}
	code := run(args, strings.NewReader(stdin), &stdout, &stderr)
	return outcome{code, stdout.String(), stderr.String()}
}

// seeded returns a stub apiserver holding the 2014 nginx example: a
// controller, its two pods, a service with endpoints, and a minion.
func seeded(t *testing.T) *stubAPIServer {
	s := newStubAPIServer(t)
	s.add("replicationControllers", &api.ReplicationController{
		TypeMeta: api.TypeMeta{ID: "nginxController"},
		DesiredState: api.ReplicationControllerState{
			Replicas:        2,
			ReplicaSelector: map[string]string{"name": "nginx"},
			PodTemplate: api.PodTemplate{
				DesiredState: api.PodState{Manifest: api.ContainerManifest{
					Version: "v1beta1", Containers: []api.Container{{Name: "nginx", Image: "dockerfile/nginx"}},
				}},
				Labels: map[string]string{"name": "nginx"},
			},
		},
	})
	for _, id := range []string{"nginx-1", "nginx-2"} {
		s.add("pods", &api.Pod{
			TypeMeta:     api.TypeMeta{ID: id},
			Labels:       map[string]string{"name": "nginx"},
			DesiredState: api.PodState{Manifest: api.ContainerManifest{Containers: []api.Container{{Image: "dockerfile/nginx"}}}},
			CurrentState: api.PodState{Status: api.PodRunning, Host: "minion-1", HostIP: "10.0.0.1"},
		})
	}
	s.add("pods", &api.Pod{TypeMeta: api.TypeMeta{ID: "lonely"}, Labels: map[string]string{"name": "other"}})
	s.add("services", &api.Service{TypeMeta: api.TypeMeta{ID: "nginx"}, Port: 8000,
		Labels: map[string]string{"name": "nginx"}, Selector: map[string]string{"name": "nginx"}})
	s.add("endpoints", &api.Endpoints{TypeMeta: api.TypeMeta{ID: "nginx"}, Endpoints: []string{"10.1.0.2:80", "10.1.0.3:80"}})
	s.add("minions", &api.Minion{TypeMeta: api.TypeMeta{ID: "minion-1"}})
	return s
}

func writeFile(t *testing.T, name, content string) string {
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

func expectSuccess(t *testing.T, got outcome, stdout string) {
	t.Helper()
	if got.code != 0 || got.stderr != "" {
		t.Fatalf("exit %d, stderr %q", got.code, got.stderr)
	}
	if got.stdout != stdout {
		t.Errorf("stdout:\n%s\nwant:\n%s", got.stdout, stdout)
	}
}

// expectFailure checks for exit 255 and exactly one line on stderr.
func expectFailure(t *testing.T, got outcome, stderr string) {
	t.Helper()
	if got.code != 255 {
		t.Errorf("exit %d, want 255", got.code)
	}
	if got.stderr != stderr+"\n" {
		t.Errorf("stderr %q\nwant   %q", got.stderr, stderr+"\n")
	}
	if got.stdout != "" {
		t.Errorf("unexpected stdout %q", got.stdout)
	}
}

func expectRequests(t *testing.T, s *stubAPIServer, want ...string) {
	t.Helper()
	got := s.requests()
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("requests:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

func TestListPrintsTheTable(t *testing.T) {
	s := seeded(t)
	got := kubecfgAt(s.URL, "", "list", "pods")
	expectSuccess(t, got, ""+
		"ID                  Image(s)            Host                Labels              Status\n"+
		"----------          ----------          ----------          ----------          ----------\n"+
		"lonely                                  <unassigned>        name=other          \n"+
		"nginx-1             dockerfile/nginx    minion-1/10.0.0.1   name=nginx          Running\n"+
		"nginx-2             dockerfile/nginx    minion-1/10.0.0.1   name=nginx          Running\n"+
		"\n")
	expectRequests(t, s, "GET /api/v1beta1/pods")
}

func TestListWithALabelSelectorSendsIt(t *testing.T) {
	s := seeded(t)
	got := kubecfgAt(s.URL, "", "-l", "name=nginx", "list", "pods")
	if got.code != 0 || strings.Contains(got.stdout, "lonely") || !strings.Contains(got.stdout, "nginx-2") {
		t.Errorf("got %+v", got)
	}
	expectRequests(t, s, "GET /api/v1beta1/pods?labels=name%3Dnginx")
}

func TestOtherResourcesPrintTheirTables(t *testing.T) {
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"list", "replicationControllers"}, "" +
			"ID                  Image(s)            Selector            Replicas\n" +
			"----------          ----------          ----------          ----------\n" +
			"nginxController     dockerfile/nginx    name=nginx          2\n\n"},
		{[]string{"get", "services/nginx"}, "" +
			"ID                  Labels              Selector            Port\n" +
			"----------          ----------          ----------          ----------\n" +
			"nginx               name=nginx          name=nginx          8000\n\n"},
		{[]string{"list", "minions"}, "Minion identifier\n----------\nminion-1\n\n"},
		{[]string{"get", "minions/minion-1"}, "Minion identifier\n----------\nminion-1\n\n"},
		{[]string{"list", "endpoints"}, "" +
			"ID                  Endpoints\n" +
			"----------          ----------\n" +
			"nginx               10.1.0.2:80,10.1.0.3:80\n\n"},
		{[]string{"delete", "pods/lonely"}, "Status\n----------\nSuccess\n\n"},
	}
	for _, tc := range cases {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			expectSuccess(t, kubecfgAt(seeded(t).URL, "", tc.args...), tc.want)
		})
	}
}

func TestOutputFlagsPrintJSONYAMLAndTemplates(t *testing.T) {
	s := seeded(t)
	got := kubecfgAt(s.URL, "", "-json", "get", "services/nginx")
	want := `{"kind":"Service","id":"nginx","creationTimestamp":null,"resourceVersion":5,"apiVersion":"v1beta1","port":8000,"labels":{"name":"nginx"},"selector":{"name":"nginx"},"containerPort":0}` + "\n"
	expectSuccess(t, got, want)

	got = kubecfgAt(s.URL, "", "-yaml", "get", "minions/minion-1")
	expectSuccess(t, got, "id: minion-1\ncreationTimestamp: \"null\"\nresourceVersion: \"7\"\nresources: {}\n\n")

	got = kubecfgAt(s.URL, "", "-template", "{{.ID}} {{.DesiredState.Replicas}}", "get", "replicationControllers/nginxController")
	expectSuccess(t, got, "nginxController 2\n")

	tmpl := writeFile(t, "t.tmpl", "{{range .Items}}{{.ID}};{{end}}")
	got = kubecfgAt(s.URL, "", "-template_file", tmpl, "-l", "name=nginx", "list", "pods")
	expectSuccess(t, got, "nginx-1;nginx-2;\n")
}

func TestCreateSendsTheConfigFileAsV1beta1JSON(t *testing.T) {
	s := seeded(t)
	file := writeFile(t, "frontend.yaml", "id: frontend\nport: 9998\nselector:\n  name: frontend\n")
	got := kubecfgAt(s.URL, "", "-c", file, "create", "services")
	if got.code != 0 || !strings.Contains(got.stdout, "frontend            ") {
		t.Fatalf("got %+v", got)
	}
	expectRequests(t, s, "POST /api/v1beta1/services")
	want := `{"kind":"Service","id":"frontend","creationTimestamp":null,"apiVersion":"v1beta1","port":9998,"selector":{"name":"frontend"},"containerPort":0}`
	if body := s.lastBody(); body != want {
		t.Errorf("sent %s\nwant %s", body, want)
	}
}

func TestCreateReadsStdinWithDash(t *testing.T) {
	s := seeded(t)
	got := kubecfgAt(s.URL, `{"kind":"Minion","id":"minion-2"}`, "-c", "-", "create", "minions")
	if got.code != 0 || s.get("minions", "minion-2") == nil {
		t.Errorf("got %+v", got)
	}
}

func TestUpdateSendsTheStoredResourceVersion(t *testing.T) {
	s := seeded(t)
	file := writeFile(t, "svc.json", `{"kind":"Service","id":"nginx","port":8001,"selector":{"name":"nginx"}}`)
	got := kubecfgAt(s.URL, "", "-c", file, "update", "services/nginx")
	if got.code != 0 {
		t.Fatalf("got %+v", got)
	}
	expectRequests(t, s, "GET /api/v1beta1/services/nginx", "PUT /api/v1beta1/services/nginx")
	if !strings.Contains(s.lastBody(), `"resourceVersion":5`) {
		t.Errorf("PUT body lacks the stored resourceVersion: %s", s.lastBody())
	}
	if svc := s.get("services", "nginx").(*api.Service); svc.Port != 8001 {
		t.Errorf("port is %d", svc.Port)
	}
}

func TestPrintShowsAConfigFileWithoutAServer(t *testing.T) {
	file := writeFile(t, "rc.json", `{"kind":"ReplicationController","id":"web","desiredState":{"replicas":3,"replicaSelector":{"name":"web"}}}`)
	got := kubecfgAt("127.0.0.1:1", "", "-c", file, "print", "replicationControllers")
	expectSuccess(t, got, ""+
		"ID                  Image(s)            Selector            Replicas\n"+
		"----------          ----------          ----------          ----------\n"+
		"web                                     name=web            3\n")
}

func TestControllerVerbsReadThenWrite(t *testing.T) {
	s := seeded(t)
	got := kubecfgAt(s.URL, "", "resize", "nginxController", "5")
	if got.code != 0 || !strings.Contains(got.stdout, "replicas: 5") {
		t.Fatalf("got %+v", got)
	}
	// The echo is v0.4's YAML: fields in order, resourceVersion quoted.
	if !strings.HasPrefix(got.stdout, "id: nginxController\ncreationTimestamp: ") || !strings.Contains(got.stdout, "\nresourceVersion: \"") {
		t.Errorf("resize echo is not v0.4's YAML:\n%s", got.stdout)
	}
	if rc := s.get("replicationControllers", "nginxController").(*api.ReplicationController); rc.DesiredState.Replicas != 5 {
		t.Errorf("stored replicas %d", rc.DesiredState.Replicas)
	}

	got = kubecfgAt(s.URL, "", "rm", "nginxController")
	expectFailure(t, got, "controller has non-zero replicas (5), please stop it first")

	if got = kubecfgAt(s.URL, "", "stop", "nginxController"); got.code != 0 {
		t.Fatalf("stop: %+v", got)
	}
	if got = kubecfgAt(s.URL, "", "rm", "nginxController"); got.code != 0 {
		t.Fatalf("rm: %+v", got)
	}
	expectRequests(t, s,
		"GET /api/v1beta1/replicationControllers/nginxController",
		"PUT /api/v1beta1/replicationControllers/nginxController",
		"GET /api/v1beta1/replicationControllers/nginxController",
		"GET /api/v1beta1/replicationControllers/nginxController",
		"PUT /api/v1beta1/replicationControllers/nginxController",
		"GET /api/v1beta1/replicationControllers/nginxController",
		"DELETE /api/v1beta1/replicationControllers/nginxController",
	)
}

func TestRunCreatesAControllerAndAService(t *testing.T) {
	s := newStubAPIServer(t)
	got := kubecfgAt(s.URL, "", "-p", "8080:80", "-s", "8000", "run", "dockerfile/nginx", "2", "web")
	if got.code != 0 {
		t.Fatalf("got %+v", got)
	}
	expectRequests(t, s, "POST /api/v1beta1/replicationControllers", "POST /api/v1beta1/services")
	rc := s.get("replicationControllers", "web").(*api.ReplicationController)
	svc := s.get("services", "web").(*api.Service)
	if rc.DesiredState.Replicas != 2 || svc.Port != 8000 || svc.Selector["simpleService"] != "web" {
		t.Errorf("got %#v and %#v", rc, svc)
	}
	if !strings.Contains(got.stdout, "id: web") || !strings.Contains(got.stdout, "port: 8000") {
		t.Errorf("run should print both objects as YAML:\n%s", got.stdout)
	}
}

func TestRollingUpdateWithoutPodsOnlyLooks(t *testing.T) {
	s := newStubAPIServer(t)
	s.add("replicationControllers", &api.ReplicationController{TypeMeta: api.TypeMeta{ID: "idle"},
		DesiredState: api.ReplicationControllerState{ReplicaSelector: map[string]string{"name": "idle"}}})
	expectSuccess(t, kubecfgAt(s.URL, "", "-u", "1ms", "rollingupdate", "idle"), "idle: no pods match name=idle; nothing to update\n")
	expectRequests(t, s, "GET /api/v1beta1/replicationControllers/idle", "GET /api/v1beta1/pods?labels=name%3Didle")
}

func TestVersionFlags(t *testing.T) {
	s := seeded(t)
	expectSuccess(t, kubecfgAt("", "", "-version"), "Kubernetes v0.4-rewind\n")
	expectSuccess(t, kubecfgAt(s.URL, "", "-server_version"), "Server: Kubernetes v0.4\n")
	got := kubecfgAt(s.URL, "", "-server_version=raw")
	if got.code != 0 || !strings.HasPrefix(got.stdout, `client.VersionInfo{Major:"0"`) {
		t.Errorf("got %+v", got)
	}
	if got := kubecfgAt(s.URL, "", "-expect_version_match", "list", "pods"); got.code != 1 {
		t.Errorf("a version mismatch should exit 1, got %+v", got)
	}
}

func TestTheMasterComesFromTheEnvironmentWithoutH(t *testing.T) {
	s := seeded(t)
	t.Setenv("KUBERNETES_MASTER", s.URL)
	if got := kubecfgAt("", "", "list", "minions"); got.code != 0 {
		t.Errorf("got %+v", got)
	}
	if len(s.requests()) != 1 {
		t.Errorf("the server saw %v", s.requests())
	}
}
