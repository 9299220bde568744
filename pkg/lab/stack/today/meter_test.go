package today

import (
	"net/http"
	"testing"
)

// TestTheMeterNamesTodaysRequestsAsOursAreNamed: each request a client of
// today's stack sends is counted under the verb and resource our apiserver
// would count it by, the status subresource and the binding included,
// and discovery is counted but health is not.
func TestTheMeterNamesTodaysRequestsAsOursAreNamed(t *testing.T) {
	for _, tc := range []struct {
		method, url    string
		verb, resource string
		counted        bool
	}{
		{"GET", "/api/v1/namespaces/default/pods", "LIST", "pods", true},
		{"GET", "/api/v1/pods?limit=500&resourceVersion=0", "LIST", "pods", true},
		{"GET", "/api/v1/namespaces/default/pods?watch=true&resourceVersion=7", "WATCH", "pods", true},
		{"GET", "/api/v1/watch/namespaces/default/pods", "WATCH", "pods", true},
		{"GET", "/api/v1/namespaces/default/pods/web-x1", "GET", "pods", true},
		{"POST", "/api/v1/namespaces/default/pods", "POST", "pods", true},
		{"POST", "/api/v1/namespaces/default/pods/web-x1/binding", "POST", "bindings", true},
		{"PATCH", "/api/v1/namespaces/default/pods/web-x1/status", "PATCH", "pods", true},
		{"DELETE", "/api/v1/namespaces/default/pods/web-x1", "DELETE", "pods", true},
		{"PUT", "/api/v1/namespaces/default/replicationcontrollers/web/status", "PUT", "replicationControllers", true},
		{"PUT", "/api/v1/namespaces/default/replicationcontrollers/web", "PUT", "replicationControllers", true},
		{"PUT", "/apis/coordination.k8s.io/v1/namespaces/kube-system/leases/kube-controller-manager", "PUT", "leases", true},
		{"POST", "/apis/events.k8s.io/v1/namespaces/default/events", "POST", "events", true},
		{"GET", "/api/v1/nodes", "LIST", "minions", true},
		{"GET", "/api/v1/namespaces/default", "GET", "namespaces", true},
		{"GET", "/apis/apps/v1/namespaces/default/deployments", "LIST", "other", true},
		{"GET", "/api", "GET", "discovery", true},
		{"GET", "/apis/apps/v1", "GET", "discovery", true},
		{"GET", "/openapi/v3", "GET", "discovery", true},
		{"GET", "/readyz", "", "", false},
		{"GET", "/metrics", "", "", false},
	} {
		req, _ := http.NewRequest(tc.method, "https://127.0.0.1"+tc.url, nil)
		verb, resource, counted := classifyV1(req)
		if verb != tc.verb || resource != tc.resource || counted != tc.counted {
			t.Errorf("%s %s: counted %v as %s %s, want %v as %s %s", tc.method, tc.url, counted, verb, resource, tc.counted, tc.verb, tc.resource)
		}
	}
}

// TestTheMeterNamesEachProcessOfTodaysStack: kube-controller-manager's
// controllers are one process, "controller-manager", and its lease client
// "leader-election", as the sampler counts our managers; the scheduler's
// lease stays the scheduler's.
func TestTheMeterNamesEachProcessOfTodaysStack(t *testing.T) {
	for agent, want := range map[string]string{
		"kube-controller-manager/v1.37.2 (linux/amd64) kubernetes/abc/system:serviceaccount:kube-system:replication-controller": "controller-manager",
		"kube-controller-manager/v1.37.2 (linux/amd64) kubernetes/abc/shared-informers":                                         "controller-manager",
		"kube-controller-manager/v1.37.2 (linux/amd64) kubernetes/abc/leader-election":                                          "leader-election",
		"kube-scheduler/v1.37.2 (linux/amd64) kubernetes/abc/leader-election":                                                   "scheduler",
		"kwok/v0.8.0 (linux/amd64) kubernetes/abc":                                                                              "kwok",
		"scenario": "scenario",
		"":         "",
	} {
		if got := componentOf(agent); got != want {
			t.Errorf("componentOf(%q) = %q, want %q", agent, got, want)
		}
	}
}

// Where our managers run on today's stack, they are "controller-manager"
// and "leader-election", and the kube-controller-manager of the other
// controllers is counted apart, so that the managers' figures are ours
// alone.
func TestBesideOurManagersKubeControllerManagerIsCountedApart(t *testing.T) {
	for agent, want := range map[string]string{
		"controller-manager": "controller-manager",
		"leader-election":    "leader-election",
		"kube-controller-manager/v1.37.2 (linux/amd64) kubernetes/abc/system:serviceaccount:kube-system:endpointslice-controller": "kube-controller-manager",
		"kube-controller-manager/v1.37.2 (linux/amd64) kubernetes/abc/leader-election":                                            "kube-controller-manager",
		"kube-scheduler/v1.37.2 (linux/amd64) kubernetes/abc/leader-election":                                                     "scheduler",
	} {
		if got := componentBeside(agent, true); got != want {
			t.Errorf("beside ours, %q is counted as %q, want %q", agent, got, want)
		}
	}
}
