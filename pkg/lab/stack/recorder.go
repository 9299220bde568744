package stack

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log"
	"net"
	"net/http"
	"net/http/httputil"
	"net/url"
	"strings"
	"sync"
	"time"
)

// WriteRecorder stands between the apiserver and every client of a stack
// (managers, hollow nodes, the benchmark) and writes down each create and
// each binding the apiserver acknowledged: answered 2xx with the object
// created, at once or through the operation the client polled. It is the
// witness a crash test needs, outside the process that crashes: whatever
// a client was told exists must still exist after the apiserver or etcd
// comes back. It also notes every DELETE sent, answered or not, since a
// deleted object is allowed to be gone.
//
// Ours: nothing of the kind sat in a 2014 cluster; the extra hop costs each
// request a loopback round trip in the benchmark's process.
type WriteRecorder struct {
	proxy    *httputil.ReverseProxy
	listener net.Listener

	mu sync.Mutex
	// sent counts the creates sent, answered or not.
	sent int
	// creates and binds hold what was acknowledged, in order.
	creates []Created
	binds   []ackedBinding
	// pending maps an operation a create or binding was answered with
	// (202) to the request, until a poll of it answers 200.
	pending map[string]pendingWrite
	// deleted holds resource/id of every DELETE sent.
	deleted map[string]bool
}

// Created is one create the apiserver acknowledged.
type Created struct {
	Resource string `json:"resource"`
	ID       string `json:"id"`
	UID      string `json:"uid"`
	// Component is who was told: the client's User-Agent.
	Component string `json:"component"`
}

// ackedBinding is one binding the apiserver acknowledged.
type ackedBinding struct {
	PodID, Host string
}

type pendingWrite struct {
	resource, component string
	binding             ackedBinding
}

// objectHead is the part of an answer the recorder reads.
type objectHead struct {
	Kind    string `json:"kind"`
	ID      string `json:"id"`
	UID     string `json:"uid"`
	Status  string `json:"status"`
	Details *struct {
		ID   string `json:"id"`
		Kind string `json:"kind"`
	} `json:"details"`
}

// kinds are the objects whose creates the recorder follows, by resource.
var kinds = map[string]string{"pods": "Pod", "replicationControllers": "ReplicationController", "services": "Service"}

const apiPrefix = "/api/v1beta1/"

// StartWriteRecorder serves a recording proxy of target on a free
// loopback port.
func StartWriteRecorder(target string) (*WriteRecorder, error) {
	u, err := url.Parse(target)
	if err != nil {
		return nil, err
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	r := &WriteRecorder{listener: l, pending: map[string]pendingWrite{}, deleted: map[string]bool{}}
	transport := http.DefaultTransport.(*http.Transport).Clone()
	transport.MaxIdleConnsPerHost = 1024
	r.proxy = &httputil.ReverseProxy{
		Rewrite: func(pr *httputil.ProxyRequest) {
			pr.SetURL(u)
			pr.Out.Host = pr.In.Host
		},
		Transport: transport,
		// Watch streams pass each event on at once.
		FlushInterval:  -1,
		ModifyResponse: r.observe,
		// A refused connection while the apiserver is down is a 502 to
		// the client, and nothing to log.
		ErrorLog: log.New(io.Discard, "", 0),
	}
	go http.Serve(l, r)
	return r, nil
}

// URL is where clients reach the apiserver through the recorder.
func (r *WriteRecorder) URL() string {
	return "http://" + r.listener.Addr().String()
}

// Close stops accepting clients.
func (r *WriteRecorder) Close() {
	r.listener.Close()
}

// bindingKey carries a binding request's body to observe.
type bindingKey struct{}

func (r *WriteRecorder) ServeHTTP(w http.ResponseWriter, req *http.Request) {
	resource, id := splitPath(req.URL.Path)
	switch {
	case req.Method == http.MethodDelete && id != "":
		r.mu.Lock()
		r.deleted[resource+"/"+id] = true
		r.mu.Unlock()
	case req.Method == http.MethodPost && kinds[resource] != "" && id == "":
		r.mu.Lock()
		r.sent++
		r.mu.Unlock()
	case req.Method == http.MethodPost && resource == "bindings":
		// The binding's pod and host are in the request, not the answer.
		body, err := io.ReadAll(io.LimitReader(req.Body, 1<<20))
		req.Body.Close()
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		req.Body = io.NopCloser(bytes.NewReader(body))
		var b struct{ PodID, Host string }
		json.Unmarshal(body, &b)
		req = req.WithContext(context.WithValue(req.Context(), bindingKey{}, ackedBinding{b.PodID, b.Host}))
	}
	r.proxy.ServeHTTP(w, req)
}

// splitPath returns the resource and id of an API path.
func splitPath(path string) (resource, id string) {
	if !strings.HasPrefix(path, apiPrefix) {
		return "", ""
	}
	parts := strings.SplitN(strings.TrimPrefix(path, apiPrefix), "/", 3)
	resource = parts[0]
	if len(parts) > 1 {
		id = parts[1]
	}
	return resource, id
}

// observe reads the answers that acknowledge a create or a binding.
func (r *WriteRecorder) observe(resp *http.Response) error {
	req := resp.Request
	resource, id := splitPath(req.URL.Path)
	create := req.Method == http.MethodPost && (kinds[resource] != "" || resource == "bindings") && id == ""
	poll := req.Method == http.MethodGet && resource == "operations" && id != ""
	if resp.StatusCode/100 != 2 || (!create && !poll) {
		return nil
	}
	body, err := io.ReadAll(io.LimitReader(resp.Body, 4<<20))
	resp.Body.Close()
	resp.Body = io.NopCloser(bytes.NewReader(body))
	if err != nil {
		return nil
	}
	var head objectHead
	if json.Unmarshal(body, &head) != nil {
		return nil
	}
	component := req.Header.Get("User-Agent")
	r.mu.Lock()
	defer r.mu.Unlock()
	if poll {
		p, ok := r.pending[id]
		if !ok || resp.StatusCode != http.StatusOK {
			return nil
		}
		delete(r.pending, id)
		resource, component = p.resource, p.component
		if resource == "bindings" {
			if head.Kind == "Status" && head.Status == "Success" {
				r.binds = append(r.binds, p.binding)
			}
			return nil
		}
	}
	binding, _ := req.Context().Value(bindingKey{}).(ackedBinding)
	switch {
	case resp.StatusCode == http.StatusAccepted && head.Details != nil && head.Details.ID != "":
		r.pending[head.Details.ID] = pendingWrite{resource: resource, component: component, binding: binding}
	case resource == "bindings" && head.Kind == "Status" && head.Status == "Success":
		r.binds = append(r.binds, binding)
	case head.Kind == kinds[resource] && head.ID != "" && head.UID != "":
		r.creates = append(r.creates, Created{Resource: resource, ID: head.ID, UID: head.UID, Component: component})
	}
	return nil
}

// AwaitPolls waits until every create or binding answered 202 has been
// polled to its end, and returns how many have not. A client polls its
// operation only after its poll period (two seconds for the 2014 client),
// so a check that reads the store the moment the pods run can find every
// manager's create stored and none of them yet acknowledged. A client
// that died before it polled never will: AwaitPolls gives up once no
// poll has ended for idle.
func (r *WriteRecorder) AwaitPolls(idle time.Duration) int {
	left := r.Unpolled()
	quiet := time.Now()
	for left > 0 && time.Since(quiet) < idle {
		time.Sleep(50 * time.Millisecond)
		if n := r.Unpolled(); n != left {
			left, quiet = n, time.Now()
		}
	}
	return left
}

// Unpolled returns how many creates and bindings were answered 202 and
// not yet polled to their end.
func (r *WriteRecorder) Unpolled() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.pending)
}

// Sent returns how many creates (of pods, controllers and services) were
// sent so far, whatever their answer.
func (r *WriteRecorder) Sent() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.sent
}

// Acknowledged returns the creates and bindings acknowledged so far, and
// the resource/id of every object a DELETE was sent for.
func (r *WriteRecorder) Acknowledged() (creates []Created, binds map[string]string, deleted map[string]bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	binds = map[string]string{}
	for _, b := range r.binds {
		binds[b.PodID] = b.Host
	}
	deleted = make(map[string]bool, len(r.deleted))
	for k := range r.deleted {
		deleted[k] = true
	}
	return append([]Created(nil), r.creates...), binds, deleted
}
