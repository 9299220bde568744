package main

import (
	"net/http/httptest"
	"os"
	"sort"
	"strings"
	"testing"
	"unicode"

	"github.com/coreos/go-etcd/etcd"
	"github.com/kube-rewind/kube-rewind/pkg/apiserver"
	"github.com/kube-rewind/kube-rewind/pkg/etcd/etcdtest"
	"github.com/kube-rewind/kube-rewind/pkg/master"
	"github.com/kube-rewind/kube-rewind/pkg/tools"
)

// realAPIServer starts the whole apiserver on an embedded etcd of its own
// and returns its URL and a function listing every key under /registry
// with its modified index.
func realAPIServer(t *testing.T) (string, func() string) {
	t.Helper()
	e, err := etcdtest.StartEmbedded()
	if err != nil {
		t.Fatal(err)
	}
	client := tools.NewEtcdClient([]string{e.ClientURL()})
	srv := httptest.NewServer(apiserver.Handle(master.NewStorage(tools.EtcdHelper{Client: client}), apiserver.DefaultPrefix, apiserver.Options{}))
	t.Cleanup(func() {
		srv.Close()
		tools.CloseIdleConnections()
		e.Close()
	})
	keys := func() string {
		resp, err := client.Get("/registry", false, true)
		if err != nil {
			if tools.IsEtcdNotFound(err) {
				return ""
			}
			t.Fatal(err)
		}
		var out []string
		var walk func(*etcd.Node)
		walk = func(n *etcd.Node) {
			out = append(out, n.Key+"@"+itoa(n.ModifiedIndex))
			for _, c := range n.Nodes {
				walk(c)
			}
		}
		walk(resp.Node)
		sort.Strings(out)
		return strings.Join(out, " ")
	}
	return srv.URL, keys
}

func itoa(i uint64) string {
	const digits = "0123456789"
	if i == 0 {
		return "0"
	}
	var b []byte
	for ; i > 0; i /= 10 {
		b = append([]byte{digits[i%10]}, b...)
	}
	return string(b)
}

// TestHostileInputThroughKubecfgIsOneClearLineAndChangesNothing drives
// kubecfg against the real apiserver with the inputs that broke the 2014
// cluster, and with ones meant to garble a terminal. Each must fail with
// exit 255 and a single line on stderr that names the problem and holds no
// raw control character, and etcd must be left as it was.
func TestHostileInputThroughKubecfgIsOneClearLineAndChangesNothing(t *testing.T) {
	url, keys := realAPIServer(t)
	seed := writeFile(t, "rc.json", `{"id":"frontend","desiredState":{"replicas":2,"replicaSelector":{"name":"frontend"},`+
		`"podTemplate":{"labels":{"name":"frontend"},"desiredState":{"manifest":{"version":"v1beta1","containers":[{"name":"web","image":"nginx"}]}}}}}`)
	if got := kubecfgAt(url, "", "-c", seed, "create", "replicationControllers"); got.code != 0 {
		t.Fatalf("seeding: %+v", got)
	}
	pod := func(id, label string) string {
		return writeFile(t, "pod.json", `{"id":"`+id+`","labels":{"name":"`+label+`"},"desiredState":{"manifest":{"version":"v1beta1","containers":[{"name":"web","image":"nginx"}]}}}`)
	}
	cases := []struct {
		name    string
		args    []string
		mention string
	}{
		{"a pod named ../controllers/evil", []string{"-c", pod("../controllers/evil", "x"), "create", "pods"}, `id: invalid value '../controllers/evil'`},
		{"a pod named with a newline", []string{"-c", pod(`new\nline`, "x"), "create", "pods"}, `id: invalid value 'new line'`},
		{"a pod named with an escape", []string{"-c", pod(`\u001b[2Jx`, "x"), "create", "pods"}, `id: invalid value '\x1b[2Jx'`},
		{"a label with an escape", []string{"-c", pod("esc", `\u001b]0;pwned\u0007`), "create", "pods"}, `labels[name]: invalid value '\x1b]0;pwned\a'`},
		{"get climbing to another resource", []string{"get", "pods/../replicationControllers/frontend"}, `a name may not contain a ".." segment`},
		{"delete climbing to another resource", []string{"delete", "pods/../replicationControllers/frontend"}, `a name may not contain a ".." segment`},
		{"rm of a controller named ../x", []string{"rm", "../controllers/evil"}, `".." segment`},
		{"resize to a negative count", []string{"resize", "frontend", "-1"}, `desiredState.replicas: invalid value '-1'`},
		{"resize to an absurd count", []string{"resize", "frontend", "2147483648"}, `desiredState.replicas: invalid value '2147483648'`},
		{"a pod named with a space", []string{"get", "pods/with space"}, `"with space" is not valid`},
		{"a selector read two ways", []string{"-l", "a!==b", "list", "pods"}, "can't understand 'a!==b'"},
		{"a config with a second object", []string{"-c", writeFile(t, "two.json", `{"id":"a","port":80,"selector":{"a":"b"}} {"id":"b"}`), "create", "services"}, "data after the object"},
		{"a deeply nested config", []string{"-c", writeFile(t, "deep.json", strings.Repeat(`{"a":`, 100000)), "create", "pods"}, "exceeded max depth"},
		{"a config of kind List", []string{"-c", writeFile(t, "list.json", `{"kind":"List","items":[]}`), "create", "pods"}, "data of kind 'List'"},
		{"a config that is null", []string{"-c", writeFile(t, "null.json", `null`), "create", "replicationControllers"}, "not an object"},
		{"an oversized config", []string{"-c", writeFile(t, "big.json", `{"id":"big","annotations":{"x":"`+strings.Repeat("x", apiserver.DefaultMaxRequestBytes)+`"}}`), "create", "pods"}, "bytes"},
		{"a selector that does not match its template", []string{"-c", writeFile(t, "mismatch.json", strings.Replace(readFileString(t, seed), `"replicaSelector":{"name":"frontend"}`, `"replicaSelector":{"name":"backend"}`, 1)), "update", "replicationControllers/frontend"}, "desiredState.podTemplate.labels"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			before := keys()
			got := kubecfgAt(url, "", tc.args...)
			if got.code != 255 {
				t.Errorf("exit %d, want 255 (stdout %q)", got.code, got.stdout)
			}
			if strings.Count(got.stderr, "\n") != 1 || !strings.HasSuffix(got.stderr, "\n") {
				t.Errorf("stderr is not one line: %q", got.stderr)
			}
			if i := strings.IndexFunc(strings.TrimSuffix(got.stderr, "\n"), unicode.IsControl); i >= 0 {
				t.Errorf("stderr holds a raw control character at %d: %q", i, got.stderr)
			}
			if !strings.Contains(got.stderr, tc.mention) {
				t.Errorf("stderr %.300q does not mention %q", got.stderr, tc.mention)
			}
			if after := keys(); after != before {
				t.Errorf("etcd changed:\nbefore %s\nafter  %s", before, after)
			}
		})
	}
	for _, resource := range []string{"pods", "replicationControllers", "services", "minions", "endpoints"} {
		if got := kubecfgAt(url, "", "list", resource); got.code != 0 {
			t.Errorf("list %s afterwards: %+v", resource, got)
		}
	}
}

func readFileString(t *testing.T, path string) string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// TestAnInvalidNameSaysWhatIsAllowed: the 2014 message named only the bad
// value; this one keeps that shape and adds the allowed form.
func TestAnInvalidNameSaysWhatIsAllowed(t *testing.T) {
	url, _ := realAPIServer(t)
	got := kubecfgAt(url, "", "run", "dockerfile/nginx", "2", "Bad_Name!")
	expectFailure(t, got, `replicationController "Bad_Name!" is invalid: id: invalid value 'Bad_Name!': `+
		`must be at most 63 letters (either case), digits, '-', '_' and '.', starting and ending with a letter or digit, with no '..'; `+
		`desiredState.replicaSelector[simpleService]: invalid value 'Bad_Name!': a selector value must hold no '=', ',', '!' or control characters; `+
		`desiredState.podTemplate.desiredState.manifest.containers[0].name: invalid value 'bad_name!': must be a DNS label: at most 63 lower-case letters, digits and '-', starting and ending with a letter or digit`)
	pod := writeFile(t, "pod.json", `{"id":"Web_1","desiredState":{"manifest":{"version":"v1beta1","containers":[{"name":"Web","image":"nginx"}]}}}`)
	got = kubecfgAt(url, "", "-c", pod, "create", "pods")
	expectFailure(t, got, `pod "Web_1" is invalid: id: invalid value 'Web_1': must be a DNS subdomain: at most 253 characters, `+
		`DNS labels (lower-case letters, digits and '-', starting and ending with a letter or digit) joined by '.'; `+
		`desiredState.manifest.containers[0].name: invalid value 'Web': must be a DNS label: at most 63 lower-case letters, digits and '-', starting and ending with a letter or digit`)
}
