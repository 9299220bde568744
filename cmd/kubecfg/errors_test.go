package main

import (
	"net"
	"path/filepath"
	"strings"
	"testing"
)

func TestFailuresPrintOneLineAndExit255(t *testing.T) {
	s := seeded(t)
	missing := filepath.Join(t.TempDir(), "nope.json")
	service := writeFile(t, "service.json", `{"kind":"Service","id":"frontend","port":80}`)
	truncated := writeFile(t, "truncated.json", "{\n  \"kind\": \"Pod\",\n  \"id\": \"nginx\",\n  \"desiredState\": {")
	cases := []struct {
		name   string
		args   []string
		stderr string
	}{
		{"unknown verb", []string{"frob"}, "Unknown command frob"},
		{"unknown resource", []string{"list", "frobs"},
			"usage: kubecfg [OPTIONS] list <endpoints|minions|pods|replicationControllers|services>"},
		{"get without an id", []string{"get", "pods"},
			"usage: kubecfg [OPTIONS] get <endpoints|minions|pods|replicationControllers|services>[/<id>]"},
		{"writing endpoints", []string{"delete", "endpoints/nginx"},
			"usage: kubecfg [OPTIONS] delete <minions|pods|replicationControllers|services>/<id>"},
		{"missing file", []string{"-c", missing, "create", "pods"},
			"Unable to read " + missing + ": open " + missing + ": no such file or directory"},
		{"no file", []string{"create", "pods"}, "Need config file (-c)"},
		{"file of another kind", []string{"-c", service, "create", "pods"},
			"Error parsing " + service + " as an object for pods: data of kind 'Service', obj of type 'Pod'"},
		{"truncated JSON", []string{"-c", truncated, "create", "pods"},
			"Error parsing " + truncated + " as an object for pods: invalid JSON at line 4, column 19, the end of the input: " +
				"unexpected end of JSON input (nor is it YAML: yaml: line 4: did not find expected node content)"},
		{"server Status", []string{"resize", "nginxController", "-1"},
			`replicationController "nginxController" is invalid: desiredState.replicas: invalid value '-1'`},
		{"not found", []string{"get", "pods/nope"}, `pod "nope" not found`},
		{"plain-text error page", []string{"get", "endpoints/broken"},
			"GET " + s.URL + `/api/v1beta1/endpoints/broken failed (404 Not Found): Not Found: "/api/v1beta1/endpoints/broken"`},
		{"bad selector", []string{"-l", "x==a==b", "list", "pods"}, "invalid selector: 'x==a==b'; can't understand 'x==a==b'"},
		{"bad replicas", []string{"resize", "nginxController", "many"}, `Error parsing replicas: strconv.Atoi: parsing "many": invalid syntax`},
		{"run with too few arguments", []string{"run", "nginx"}, "usage: kubecfg [OPTIONS] run <image> <replicas> <controller>"},
		{"broken template", []string{"-template", "{{.ID", "list", "pods"}, `Error parsing template "{{.ID", template: output:1: unclosed action`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			expectFailure(t, kubecfgAt(s.URL, "", tc.args...), tc.stderr)
		})
	}
}

func TestAServerThatIsDownIsNamed(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	expectFailure(t, kubecfgAt("http://"+addr, "", "list", "pods"),
		"cannot reach the apiserver at http://"+addr+": connection refused")
}

func TestNoVerbPrintsUsageAndExits1(t *testing.T) {
	got := kubecfgAt("127.0.0.1:1", "")
	if got.code != 1 || !strings.HasPrefix(got.stderr, "Usage: kubecfg -h [-c config/file.json|url|-] <method>") {
		t.Errorf("got %+v", got)
	}
}

func TestABadFlagExits2(t *testing.T) {
	if got := kubecfgAt("", "", "-nosuchflag"); got.code != 2 {
		t.Errorf("got %+v", got)
	}
}
