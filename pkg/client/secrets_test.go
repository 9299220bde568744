package client

import (
	"bytes"
	"context"
	"flag"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/golang/glog"
	"github.com/kube-rewind/kube-rewind/pkg/api"
	"github.com/kube-rewind/kube-rewind/pkg/registry/registrytest"
)

const secret = "s3cret-Pa55word"

// captureLogs runs f with glog writing everything, at every verbosity, to
// a pipe in place of stderr, and returns what was written.
func captureLogs(t *testing.T, f func()) string {
	t.Helper()
	for name, value := range map[string]string{"logtostderr": "true", "v": "10"} {
		old := flag.Lookup(name).Value.String()
		if err := flag.Set(name, value); err != nil {
			t.Fatal(err)
		}
		defer flag.Set(name, old)
	}
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	stderr := os.Stderr
	os.Stderr = w
	done := make(chan string)
	go func() {
		var buf bytes.Buffer
		io.Copy(&buf, r)
		done <- buf.String()
	}()
	func() {
		defer func() { os.Stderr = stderr }()
		f()
		glog.Flush()
	}()
	w.Close()
	return <-done
}

// TestThePasswordNeverAppearsInAnErrorOrALogLine makes requests fail in
// every way a client can see, with the password given as a field and as
// part of the host URL, and looks for it in every error and in everything
// logged.
func TestThePasswordNeverAppearsInAnErrorOrALogLine(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	closed := l.Addr().String()
	l.Close()

	s := newStubServer(t, func(w http.ResponseWriter, r *http.Request) {
		user, pass, _ := r.BasicAuth()
		if user != "alice" || pass != secret {
			w.WriteHeader(http.StatusUnauthorized)
			w.Write([]byte("who are you\n"))
			return
		}
		switch {
		case strings.HasSuffix(r.URL.Path, "/pods/missing"):
			writeObject(t, w, 404, &api.Status{Status: api.StatusFailure, Code: 404, Reason: api.StatusReasonNotFound, Message: `pod "missing" not found`})
		case strings.HasSuffix(r.URL.Path, "/pods/broken"):
			w.WriteHeader(http.StatusBadGateway)
			w.Write([]byte("upstream broke\n"))
		case strings.HasSuffix(r.URL.Path, "/pods/slow"):
			time.Sleep(200 * time.Millisecond)
			writeObject(t, w, 200, &api.Status{Status: api.StatusSuccess})
		default:
			writeObject(t, w, 202, registrytest.Working("7"))
		}
	})
	hostPort := strings.TrimPrefix(s.URL, "http://")
	configs := map[string]*Config{
		"password field":           {Host: s.URL, Username: "alice", Password: secret},
		"password in the host URL": {Host: "http://alice:" + secret + "@" + hostPort},
	}
	for name, config := range configs {
		t.Run(name, func(t *testing.T) {
			var errs []error
			logs := captureLogs(t, func() {
				config.PollPeriod = time.Millisecond
				c, err := New(config)
				if err != nil {
					t.Fatal(err)
				}
				ctx := api.NewDefaultContext()
				_, err = c.GetPod(ctx, "missing")
				errs = append(errs, err)
				_, err = c.GetPod(ctx, "broken")
				errs = append(errs, err)
				// A 202 polled until the context ends.
				polling, stop := context.WithTimeout(ctx, 50*time.Millisecond)
				errs = append(errs, c.DeletePod(polling, "pending"))
				stop()
				short, cancel := context.WithTimeout(ctx, 20*time.Millisecond)
				_, err = c.GetPod(short, "slow")
				cancel()
				errs = append(errs, err)
				_, err = c.WatchPods(ctx, nil, nil, 0)
				if err == nil {
					err = errNoError
				}
				errs = append(errs, err)

				unreachable := *config
				unreachable.Host = strings.Replace(config.Host, hostPort, closed, 1)
				if unreachable.Host == config.Host {
					unreachable.Host = "http://" + closed
				}
				c2, err := New(&unreachable)
				if err != nil {
					t.Fatal(err)
				}
				_, err = c2.ListPods(ctx, nil)
				errs = append(errs, err)
			})
			for i, err := range errs {
				if err == nil {
					t.Errorf("request %d did not fail", i)
					continue
				}
				if strings.Contains(err.Error(), secret) {
					t.Errorf("error %d shows the password: %v", i, err)
				}
			}
			if strings.Contains(logs, secret) {
				t.Errorf("the logs show the password:\n%s", logs)
			}
			if !strings.Contains(logs, "operations/7") {
				t.Errorf("the logs are not being captured (no poll logged):\n%s", logs)
			}
		})
	}
}

var errNoError = &url.Error{Op: "watch", URL: "", Err: io.EOF}

func TestAHostThatDoesNotParseIsRefusedWithoutShowingItsPassword(t *testing.T) {
	for _, host := range []string{
		"alice:" + secret + "@example.com/with/a/path",
		"ftp://alice:" + secret + "@example.com",
		"alice:" + secret + "@exa mple.com",
		"http://alice:" + secret + "@[::1",
	} {
		_, err := New(&Config{Host: host})
		if err == nil {
			t.Errorf("%q accepted", host)
			continue
		}
		if strings.Contains(err.Error(), secret) {
			t.Errorf("%q: error shows the password: %v", host, err)
		}
	}
}

func TestCredentialsInTheHostURLGoOutAsBasicAuthOnly(t *testing.T) {
	s := newStubServer(t, answerByPath(t))
	c, err := New(&Config{Host: "http://alice:" + secret + "@" + strings.TrimPrefix(s.URL, "http://")})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.ListPods(api.NewDefaultContext(), nil); err != nil {
		t.Fatal(err)
	}
	if got := s.requests()[0].Auth; got != "alice:"+secret {
		t.Errorf("basic auth %q", got)
	}
}

func TestANameThatClimbsOutOfItsResourceIsNeverSent(t *testing.T) {
	s := newStubServer(t, answerByPath(t))
	c := newTestClient(t, s, nil)
	ctx := api.NewDefaultContext()
	for _, id := range []string{"../replicationControllers/frontend", "..", ".", "a/../../version", "a/./b"} {
		if err := c.DeletePod(ctx, id); err == nil || !strings.Contains(err.Error(), "segment") {
			t.Errorf("DeletePod(%q): %v, want an error naming the segment", id, err)
		}
		if _, err := c.GetReplicationController(ctx, id); err == nil {
			t.Errorf("GetReplicationController(%q) succeeded", id)
		}
	}
	if n := s.count(); n != 0 {
		t.Errorf("the server saw %d requests: %+v", n, s.requests())
	}
}
