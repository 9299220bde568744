package client

import (
	"bytes"
	"context"
	"errors"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/kube-rewind/kube-rewind/pkg/api"
	apierrors "github.com/kube-rewind/kube-rewind/pkg/api/errors"
	"github.com/kube-rewind/kube-rewind/pkg/labels"
	"github.com/kube-rewind/kube-rewind/pkg/registry/registrytest"
)

func TestSyncClientsAskTheServerToWait(t *testing.T) {
	s := newStubServer(t, answerByPath(t))
	c := newTestClient(t, s, func(c *Config) { c.Sync = true })
	if _, err := c.CreatePod(api.NewDefaultContext(), &api.Pod{}); err != nil {
		t.Fatal(err)
	}
	if got, want := s.requests()[0].URI, "/api/v1beta1/pods?sync=true&timeout=20s"; got != want {
		t.Errorf("got %s, want %s", got, want)
	}
}

func TestEveryRequestCarriesUserAgentAndCredentials(t *testing.T) {
	s := newStubServer(t, answerByPath(t))
	for _, tc := range []struct{ agent, want string }{{"", "kube-rewind"}, {"controller-manager/legacy", "controller-manager/legacy"}} {
		c := newTestClient(t, s, func(c *Config) { c.UserAgent = tc.agent; c.Username = "u"; c.Password = "p" })
		if _, err := c.ListPods(api.NewDefaultContext(), nil); err != nil {
			t.Fatal(err)
		}
		seen := s.requests()
		last := seen[len(seen)-1]
		if last.UserAgent != tc.want || last.Auth != "u:p" {
			t.Errorf("got agent %q auth %q, want %q u:p", last.UserAgent, last.Auth, tc.want)
		}
	}
}

func TestWorkingAnswersArePolledUntilTheOperationFinishes(t *testing.T) {
	var polls int32
	s := newStubServer(t, func(w http.ResponseWriter, r *http.Request) {
		switch {
		case r.Method == "POST" && r.URL.Path == "/api/v1beta1/pods":
			writeObject(t, w, http.StatusAccepted, registrytest.Working("7"))
		case r.Method == "GET" && r.URL.Path == "/api/v1beta1/operations/7":
			if atomic.AddInt32(&polls, 1) < 3 {
				writeObject(t, w, http.StatusAccepted, registrytest.Working("7"))
				return
			}
			writeObject(t, w, http.StatusOK, &api.Pod{TypeMeta: api.TypeMeta{ID: "made", ResourceVersion: 4}})
		default:
			t.Errorf("unexpected %s %s", r.Method, r.URL)
		}
	})
	pod, err := newTestClient(t, s, nil).CreatePod(api.NewDefaultContext(), &api.Pod{})
	if err != nil {
		t.Fatal(err)
	}
	if pod.ID != "made" || pod.ResourceVersion != 4 {
		t.Errorf("got %#v", pod)
	}
	var uris []string
	for _, r := range s.requests() {
		uris = append(uris, r.Method+" "+r.URI)
	}
	want := "POST /api/v1beta1/pods,GET /api/v1beta1/operations/7,GET /api/v1beta1/operations/7,GET /api/v1beta1/operations/7"
	if got := strings.Join(uris, ","); got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
}

func TestAFailedOperationComesBackAsItsStatusError(t *testing.T) {
	s := newStubServer(t, func(w http.ResponseWriter, r *http.Request) {
		if r.Method == "DELETE" {
			writeObject(t, w, http.StatusAccepted, registrytest.Working("3"))
			return
		}
		// The finished operation answers 200 with the error Status inside.
		writeObject(t, w, http.StatusOK, apierrorsStatus(apierrors.NewNotFound("pod", "gone")))
	})
	err := newTestClient(t, s, nil).DeletePod(api.NewDefaultContext(), "gone")
	if !apierrors.IsNotFound(err) {
		t.Errorf("want a NotFound StatusError, got %#v", err)
	}
}

func apierrorsStatus(err error) *api.Status {
	status := err.(apierrors.APIStatus).Status()
	return &status
}

func TestPollPeriodZeroHandsTheWorkingStatusBack(t *testing.T) {
	s := newStubServer(t, func(w http.ResponseWriter, r *http.Request) {
		writeObject(t, w, http.StatusAccepted, registrytest.Working("1"))
	})
	c := newTestClient(t, s, func(c *Config) { c.PollPeriod = -1 })
	_, err := c.CreatePod(api.NewDefaultContext(), &api.Pod{})
	se, ok := err.(*apierrors.StatusError)
	if !ok || se.ErrStatus.Status != api.StatusWorking || se.ErrStatus.Details.ID != "1" {
		t.Fatalf("want the Working StatusError, got %#v", err)
	}
	if n := s.count(); n != 1 {
		t.Errorf("want 1 request and no poll, got %d", n)
	}
}

// In v0.4 nothing but the server's answer ended the polling: a create that
// took longer than the client's timeout still came back as the pod.
func TestPollingGoesOnPastTheTimeoutUntilTheOperationAnswers(t *testing.T) {
	const timeout = 10 * time.Millisecond
	var polls int32
	var pastTimeout atomic.Bool
	start := time.Now()
	s := newStubServer(t, func(w http.ResponseWriter, r *http.Request) {
		if r.Method == "POST" {
			writeObject(t, w, http.StatusAccepted, registrytest.Working("9"))
			return
		}
		// Still working for the first two polls and until the client's
		// timeout has passed, however fast or slow the polls come: the
		// answer is a count and a moment passed, never a race against
		// the clock.
		if n := atomic.AddInt32(&polls, 1); n < 3 || time.Since(start) <= timeout {
			writeObject(t, w, http.StatusAccepted, registrytest.Working("9"))
			return
		}
		pastTimeout.Store(true)
		writeObject(t, w, http.StatusOK, &api.Pod{TypeMeta: api.TypeMeta{ID: "late"}})
	})
	c := newTestClient(t, s, func(c *Config) { c.Timeout = timeout; c.PollPeriod = time.Millisecond })
	pod, err := c.CreatePod(api.NewDefaultContext(), &api.Pod{})
	if err != nil || pod.ID != "late" {
		t.Fatalf("want the pod the operation made, got %+v, %v", pod, err)
	}
	if !pastTimeout.Load() || atomic.LoadInt32(&polls) < 3 {
		t.Errorf("want polls past the timeout, got %d", atomic.LoadInt32(&polls))
	}
}

func TestPollingStopsAtTheFirstAnswerThatIsNotWorking(t *testing.T) {
	s := newStubServer(t, func(w http.ResponseWriter, r *http.Request) {
		if r.Method == "POST" {
			writeObject(t, w, http.StatusAccepted, registrytest.Working("3"))
			return
		}
		writeObject(t, w, http.StatusNotFound, apierrorsStatus(apierrors.NewNotFound("operation", "3")))
	})
	_, err := newTestClient(t, s, nil).CreatePod(api.NewDefaultContext(), &api.Pod{})
	if !apierrors.IsNotFound(err) {
		t.Fatalf("want the NotFound of the lost operation, got %v", err)
	}
	if n := s.count(); n != 2 {
		t.Errorf("want the create and one poll, got %d requests", n)
	}
}

func TestCancellingTheContextStopsPolling(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	s := newStubServer(t, func(w http.ResponseWriter, r *http.Request) {
		cancel()
		writeObject(t, w, http.StatusAccepted, registrytest.Working("5"))
	})
	c := newTestClient(t, s, func(c *Config) { c.PollPeriod = time.Hour })
	_, err := c.CreatePod(ctx, &api.Pod{})
	if !errors.Is(err, context.Canceled) {
		t.Errorf("want context.Canceled, got %v", err)
	}
}

func TestCancellingTheContextAbortsAHangingRequest(t *testing.T) {
	arrived := make(chan struct{})
	s := newStubServer(t, func(w http.ResponseWriter, r *http.Request) {
		close(arrived)
		<-r.Context().Done()
	})
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		<-arrived
		cancel()
	}()
	_, err := newTestClient(t, s, nil).ListPods(ctx, nil)
	if !errors.Is(err, context.Canceled) {
		t.Errorf("want context.Canceled, got %v", err)
	}
}

func TestStatusAnswersBecomeStatusErrorsWhateverTheCode(t *testing.T) {
	cases := []struct {
		name  string
		code  int
		err   error
		check func(error) bool
	}{
		{"404 not found", 404, apierrors.NewNotFound("pod", "nope"), apierrors.IsNotFound},
		{"409 already exists", 409, apierrors.NewAlreadyExists("pod", "dup"), apierrors.IsAlreadyExists},
		{"409 conflict", 409, apierrors.NewConflict("pod", "old", errors.New("101: Compare failed")), apierrors.IsConflict},
		{"422 invalid", 422, apierrors.NewInvalid("replicationController", "x",
			apierrors.ErrorList{apierrors.NewFieldInvalid("desiredState.replicas", -1)}), apierrors.IsInvalid},
		{"500 internal", 500, apierrors.NewInternalError(errors.New("etcd down")), func(err error) bool { return apierrors.CodeOf(err) == 500 }},
		{"200 carrying a Failure", 200, apierrors.NewNotFound("pod", "late"), apierrors.IsNotFound},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s := newStubServer(t, func(w http.ResponseWriter, r *http.Request) {
				writeObject(t, w, tc.code, apierrorsStatus(tc.err))
			})
			_, err := newTestClient(t, s, nil).GetPod(api.NewDefaultContext(), "x")
			if _, ok := err.(*apierrors.StatusError); !ok || !tc.check(err) {
				t.Fatalf("got %#v", err)
			}
			if err.Error() != tc.err.Error() {
				t.Errorf("message %q, want %q", err.Error(), tc.err.Error())
			}
		})
	}
}

func TestNonStatusErrorsNameMethodURLCodeAndFirstLine(t *testing.T) {
	cases := []struct {
		name, body string
		code       int
		want       string
	}{
		{"plain text", "Not Found: \"/api/v1beta1/frob\"\nsecond line\n", 404, `failed (404 Not Found): Not Found: "/api/v1beta1/frob"`},
		{"a JSON body that is not a Status", `{"oops":true}`, 500, `failed (500 Internal Server Error): {"oops":true}`},
		{"an empty body", "", 502, "failed (502 Bad Gateway)"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s := newStubServer(t, func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Content-Type", "text/plain")
				w.WriteHeader(tc.code)
				w.Write([]byte(tc.body))
			})
			_, err := newTestClient(t, s, nil).GetPod(api.NewDefaultContext(), "frob")
			if err == nil {
				t.Fatal("want an error")
			}
			msg := err.Error()
			prefix := "GET " + s.URL + "/api/v1beta1/pods/frob "
			if !strings.HasPrefix(msg, prefix) || !strings.HasSuffix(msg, tc.want) {
				t.Errorf("got %q\nwant %q...%q", msg, prefix, tc.want)
			}
			if strings.Contains(msg, "second line") || strings.Contains(msg, "\n") {
				t.Errorf("the error should keep one line only: %q", msg)
			}
		})
	}
}

func TestAnUnreachableServerSaysConnectionRefused(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	c, err := New(&Config{Host: addr})
	if err != nil {
		t.Fatal(err)
	}
	_, err = c.ListPods(api.NewDefaultContext(), nil)
	want := "cannot reach the apiserver at http://" + addr + ": connection refused"
	if err == nil || err.Error() != want {
		t.Errorf("got %v, want %s", err, want)
	}
	var unreachable *UnreachableError
	if !errors.As(err, &unreachable) {
		t.Errorf("want an *UnreachableError, got %T", err)
	}
}

func TestBodyAcceptsObjectsBytesReadersAndFileNames(t *testing.T) {
	file := filepath.Join(t.TempDir(), "pod.json")
	if err := os.WriteFile(file, []byte(`{"kind":"Pod","id":"fromfile"}`), 0o600); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name string
		body interface{}
		want string
	}{
		{"file name", file, `{"kind":"Pod","id":"fromfile"}`},
		{"bytes", []byte(`{"id":"b"}`), `{"id":"b"}`},
		{"reader", bytes.NewBufferString(`{"id":"r"}`), `{"id":"r"}`},
		{"object", &api.Minion{TypeMeta: api.TypeMeta{ID: "m"}}, `{"kind":"Minion","id":"m","creationTimestamp":null,"apiVersion":"v1beta1","resources":{}}`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s := newStubServer(t, answerByPath(t))
			if err := newTestClient(t, s, nil).Post().Path("minions").Body(tc.body).Do().Error(); err != nil {
				t.Fatal(err)
			}
			if got := s.requests()[0].Body; got != tc.want {
				t.Errorf("sent %s, want %s", got, tc.want)
			}
		})
	}
}

func TestBuilderErrorsStopTheRequestBeforeItIsSent(t *testing.T) {
	cases := []struct {
		name  string
		build func(c *Client) *Request
	}{
		{"missing file", func(c *Client) *Request { return c.Post().Path("pods").Body("/no/such/file.json") }},
		{"unknown body type", func(c *Client) *Request { return c.Post().Path("pods").Body(42) }},
		{"sync set as a param", func(c *Client) *Request { return c.Get().Path("pods").Param("sync", "true") }},
		{"timeout set as a param", func(c *Client) *Request { return c.Get().Path("pods").Param("timeout", "1s") }},
		{"malformed selector", func(c *Client) *Request { return c.Get().Path("pods").ParseSelectorParam("labels", "x==a==b") }},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s := newStubServer(t, answerByPath(t))
			if err := tc.build(newTestClient(t, s, nil)).Do().Error(); err == nil {
				t.Error("want an error")
			}
			if n := s.count(); n != 0 {
				t.Errorf("the server saw %d requests", n)
			}
		})
	}
}

func TestBuilderParamsAreSortedInTheQuery(t *testing.T) {
	s := newStubServer(t, answerByPath(t))
	c := newTestClient(t, s, nil)
	err := c.Get().Path("pods").ParseSelectorParam("labels", "name=nginx,env!=prod").UintParam("resourceVersion", 9).
		SelectorParam("fields", labels.Everything()).Param("extra", "a b").Do().Error()
	if err != nil {
		t.Fatal(err)
	}
	want := "/api/v1beta1/pods?extra=a+b&fields=&labels=env%21%3Dprod%2Cname%3Dnginx&resourceVersion=9"
	if got := s.requests()[0].URI; got != want {
		t.Errorf("got %s\nwant %s", got, want)
	}
}

func TestResultGetDecodesByKind(t *testing.T) {
	s := newStubServer(t, func(w http.ResponseWriter, r *http.Request) {
		writeObject(t, w, http.StatusOK, &api.Status{Status: api.StatusSuccess})
	})
	obj, err := newTestClient(t, s, nil).Delete().Path("pods").Path("x").Do().Get()
	if err != nil {
		t.Fatal(err)
	}
	if status, ok := obj.(*api.Status); !ok || status.Status != api.StatusSuccess {
		t.Errorf("got %#v", obj)
	}
}
