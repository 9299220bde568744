package client

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/kube-rewind/kube-rewind/pkg/api"
	"github.com/kube-rewind/kube-rewind/pkg/labels"
)

// answerByPath plays an apiserver that knows every resource but stores
// nothing: a GET of a collection gets an empty list of the right kind, a
// GET/POST/PUT of one object gets an empty object of its kind, a DELETE or a
// binding gets Success, a watch gets an empty stream.
func answerByPath(t *testing.T) http.HandlerFunc {
	kinds := map[string]string{
		"pods":                   "Pod",
		"replicationControllers": "ReplicationController",
		"services":               "Service",
		"endpoints":              "Endpoints",
		"minions":                "Minion",
	}
	return func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/version" {
			w.Write([]byte(`{"major":"0","minor":"4","gitVersion":"v0.4","gitCommit":"","gitTreeState":"clean"}`))
			return
		}
		parts := strings.Split(strings.TrimPrefix(r.URL.Path, "/api/v1beta1/"), "/")
		if parts[0] == "watch" {
			w.WriteHeader(http.StatusOK)
			return
		}
		if r.Method == "DELETE" || parts[0] == "bindings" {
			writeObject(t, w, http.StatusOK, &api.Status{Status: api.StatusSuccess})
			return
		}
		kind := kinds[parts[0]]
		if r.Method == "GET" && len(parts) == 1 {
			kind += "List"
		}
		obj, err := api.New(kind)
		if err != nil {
			http.NotFound(w, r)
			return
		}
		writeObject(t, w, http.StatusOK, obj)
	}
}

func TestTypedCallsSendTheRequestsV04Sent(t *testing.T) {
	ctx := api.NewDefaultContext()
	nginx := labels.Set{"name": "nginx"}.AsSelector()
	everything := labels.Everything()
	cases := []struct {
		name     string
		call     func(c *Client) error
		method   string
		uri      string
		bodyKind string
	}{
		{"list pods by selector", func(c *Client) error { _, err := c.ListPods(ctx, nginx); return err },
			"GET", "/api/v1beta1/pods?labels=name%3Dnginx", ""},
		{"list all pods", func(c *Client) error { _, err := c.ListPods(ctx, everything); return err },
			"GET", "/api/v1beta1/pods?labels=", ""},
		{"list pods with a nil selector", func(c *Client) error { _, err := c.ListPods(ctx, nil); return err },
			"GET", "/api/v1beta1/pods?labels=", ""},
		{"get pod", func(c *Client) error { _, err := c.GetPod(ctx, "foo"); return err },
			"GET", "/api/v1beta1/pods/foo", ""},
		{"delete pod", func(c *Client) error { return c.DeletePod(ctx, "foo") },
			"DELETE", "/api/v1beta1/pods/foo", ""},
		{"create pod", func(c *Client) error { _, err := c.CreatePod(ctx, &api.Pod{}); return err },
			"POST", "/api/v1beta1/pods", "Pod"},
		{"update pod", func(c *Client) error {
			_, err := c.UpdatePod(ctx, &api.Pod{TypeMeta: api.TypeMeta{ID: "foo", ResourceVersion: 5}})
			return err
		}, "PUT", "/api/v1beta1/pods/foo", "Pod"},
		{"watch pods", func(c *Client) error {
			w, err := c.WatchPods(ctx, everything, labels.Set{"DesiredState.Host": ""}.AsSelector(), 3)
			if w != nil {
				w.Stop()
			}
			return err
		}, "GET", "/api/v1beta1/watch/pods?fields=DesiredState.Host%3D&labels=&resourceVersion=3", ""},
		{"create binding", func(c *Client) error {
			return c.CreateBinding(ctx, &api.Binding{PodID: "foo", Host: "m1"})
		}, "POST", "/api/v1beta1/bindings", "Binding"},
		{"list controllers", func(c *Client) error { _, err := c.ListReplicationControllers(ctx, everything); return err },
			"GET", "/api/v1beta1/replicationControllers?labels=", ""},
		{"get controller", func(c *Client) error { _, err := c.GetReplicationController(ctx, "nginx"); return err },
			"GET", "/api/v1beta1/replicationControllers/nginx", ""},
		{"create controller", func(c *Client) error {
			_, err := c.CreateReplicationController(ctx, &api.ReplicationController{TypeMeta: api.TypeMeta{ID: "nginx"}})
			return err
		}, "POST", "/api/v1beta1/replicationControllers", "ReplicationController"},
		{"update controller", func(c *Client) error {
			_, err := c.UpdateReplicationController(ctx, &api.ReplicationController{TypeMeta: api.TypeMeta{ID: "nginx", ResourceVersion: 9}})
			return err
		}, "PUT", "/api/v1beta1/replicationControllers/nginx", "ReplicationController"},
		{"delete controller", func(c *Client) error { return c.DeleteReplicationController(ctx, "nginx") },
			"DELETE", "/api/v1beta1/replicationControllers/nginx", ""},
		{"watch controllers from the start", func(c *Client) error {
			w, err := c.WatchReplicationControllers(ctx, everything, everything, 0)
			if w != nil {
				w.Stop()
			}
			return err
		}, "GET", "/api/v1beta1/watch/replicationControllers?fields=&labels=&resourceVersion=0", ""},
		{"list services", func(c *Client) error { _, err := c.ListServices(ctx, everything); return err },
			"GET", "/api/v1beta1/services?labels=", ""},
		{"get service", func(c *Client) error { _, err := c.GetService(ctx, "frontend"); return err },
			"GET", "/api/v1beta1/services/frontend", ""},
		{"create service", func(c *Client) error { _, err := c.CreateService(ctx, &api.Service{}); return err },
			"POST", "/api/v1beta1/services", "Service"},
		{"update service", func(c *Client) error {
			_, err := c.UpdateService(ctx, &api.Service{TypeMeta: api.TypeMeta{ID: "frontend", ResourceVersion: 2}})
			return err
		}, "PUT", "/api/v1beta1/services/frontend", "Service"},
		{"delete service", func(c *Client) error { return c.DeleteService(ctx, "frontend") },
			"DELETE", "/api/v1beta1/services/frontend", ""},
		{"watch services", func(c *Client) error {
			w, err := c.WatchServices(ctx, everything, everything, 12)
			if w != nil {
				w.Stop()
			}
			return err
		}, "GET", "/api/v1beta1/watch/services?fields=&labels=&resourceVersion=12", ""},
		{"list endpoints", func(c *Client) error { _, err := c.ListEndpoints(ctx, everything); return err },
			"GET", "/api/v1beta1/endpoints?labels=", ""},
		{"get endpoints", func(c *Client) error { _, err := c.GetEndpoints(ctx, "frontend"); return err },
			"GET", "/api/v1beta1/endpoints/frontend", ""},
		{"create endpoints", func(c *Client) error {
			_, err := c.CreateEndpoints(ctx, &api.Endpoints{TypeMeta: api.TypeMeta{ID: "frontend"}})
			return err
		}, "POST", "/api/v1beta1/endpoints", "Endpoints"},
		{"update endpoints", func(c *Client) error {
			_, err := c.UpdateEndpoints(ctx, &api.Endpoints{TypeMeta: api.TypeMeta{ID: "frontend", ResourceVersion: 1}})
			return err
		}, "PUT", "/api/v1beta1/endpoints/frontend", "Endpoints"},
		{"watch endpoints", func(c *Client) error {
			w, err := c.WatchEndpoints(ctx, everything, everything, 0)
			if w != nil {
				w.Stop()
			}
			return err
		}, "GET", "/api/v1beta1/watch/endpoints?fields=&labels=&resourceVersion=0", ""},
		{"list minions without a selector", func(c *Client) error { _, err := c.ListMinions(); return err },
			"GET", "/api/v1beta1/minions", ""},
		{"get minion", func(c *Client) error { _, err := c.GetMinion("m1"); return err },
			"GET", "/api/v1beta1/minions/m1", ""},
		{"create minion", func(c *Client) error {
			_, err := c.CreateMinion(&api.Minion{TypeMeta: api.TypeMeta{ID: "m1"}})
			return err
		},
			"POST", "/api/v1beta1/minions", "Minion"},
		{"delete minion", func(c *Client) error { return c.DeleteMinion("m1") },
			"DELETE", "/api/v1beta1/minions/m1", ""},
		{"server version", func(c *Client) error { _, err := c.ServerVersion(); return err },
			"GET", "/version", ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s := newStubServer(t, answerByPath(t))
			if err := tc.call(newTestClient(t, s, nil)); err != nil {
				t.Fatalf("unexpected error: %v", err)
			}
			seen := s.requests()
			if len(seen) != 1 {
				t.Fatalf("want 1 request, got %#v", seen)
			}
			if seen[0].Method != tc.method || seen[0].URI != tc.uri {
				t.Errorf("got %s %s, want %s %s", seen[0].Method, seen[0].URI, tc.method, tc.uri)
			}
			if tc.bodyKind == "" {
				if seen[0].Body != "" {
					t.Errorf("unexpected body %q", seen[0].Body)
				}
				return
			}
			var head struct{ Kind, APIVersion string }
			if err := json.Unmarshal([]byte(seen[0].Body), &head); err != nil {
				t.Fatalf("body %q: %v", seen[0].Body, err)
			}
			if head.Kind != tc.bodyKind || head.APIVersion != "v1beta1" {
				t.Errorf("body has kind %q apiVersion %q, want %q v1beta1", head.Kind, head.APIVersion, tc.bodyKind)
			}
		})
	}
}

func TestUpdatesWithoutResourceVersionNeverReachTheServer(t *testing.T) {
	ctx := api.NewDefaultContext()
	cases := []struct {
		name string
		call func(c *Client) error
	}{
		{"pod", func(c *Client) error {
			_, err := c.UpdatePod(ctx, &api.Pod{TypeMeta: api.TypeMeta{ID: "foo"}})
			return err
		}},
		{"controller", func(c *Client) error {
			_, err := c.UpdateReplicationController(ctx, &api.ReplicationController{TypeMeta: api.TypeMeta{ID: "foo"}})
			return err
		}},
		{"service", func(c *Client) error {
			_, err := c.UpdateService(ctx, &api.Service{TypeMeta: api.TypeMeta{ID: "foo"}})
			return err
		}},
		{"endpoints", func(c *Client) error {
			_, err := c.UpdateEndpoints(ctx, &api.Endpoints{TypeMeta: api.TypeMeta{ID: "foo"}})
			return err
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s := newStubServer(t, answerByPath(t))
			err := tc.call(newTestClient(t, s, nil))
			if err == nil || !strings.Contains(err.Error(), "missing resource version") {
				t.Errorf("want a missing resource version error, got %v", err)
			}
			if n := s.count(); n != 0 {
				t.Errorf("the server saw %d requests, want 0", n)
			}
		})
	}
}

func TestTypedCallsDecodeTheServersAnswer(t *testing.T) {
	s := newStubServer(t, func(w http.ResponseWriter, r *http.Request) {
		writeObject(t, w, http.StatusOK, &api.ReplicationController{
			TypeMeta:     api.TypeMeta{ID: "nginx", ResourceVersion: 17},
			DesiredState: api.ReplicationControllerState{Replicas: 2, ReplicaSelector: map[string]string{"name": "nginx"}},
		})
	})
	rc, err := newTestClient(t, s, nil).GetReplicationController(api.NewDefaultContext(), "nginx")
	if err != nil {
		t.Fatal(err)
	}
	if rc.ID != "nginx" || rc.ResourceVersion != 17 || rc.DesiredState.Replicas != 2 {
		t.Errorf("got %#v", rc)
	}
}

func TestServerVersionReadsTheVersionDocument(t *testing.T) {
	s := newStubServer(t, answerByPath(t))
	info, err := newTestClient(t, s, nil).ServerVersion()
	if err != nil {
		t.Fatal(err)
	}
	want := VersionInfo{Major: "0", Minor: "4", GitVersion: "v0.4", GitTreeState: "clean"}
	if *info != want {
		t.Errorf("got %#v, want %#v", *info, want)
	}
}
