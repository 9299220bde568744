package client

// Follows kubernetes/kubernetes pkg/client/request.go as of v0.4 (October
// 2014): a request is built by chaining (verb, path, params, body), errors
// wait until Do, and Do follows "working" answers by polling
// /operations/<id>.

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"path"
	"strconv"
	"strings"
	"time"

	"github.com/golang/glog"
	"github.com/kube-rewind/kube-rewind/pkg/api"
	apierrors "github.com/kube-rewind/kube-rewind/pkg/api/errors"
	"github.com/kube-rewind/kube-rewind/pkg/labels"
	"github.com/kube-rewind/kube-rewind/pkg/watch"
	watchjson "github.com/kube-rewind/kube-rewind/pkg/watch/json"
)

// specialParams may only be set through Sync and Timeout.
var specialParams = map[string]bool{"sync": true, "timeout": true}

// Request is one call being built. The first error met is kept and
// returned by Do or Watch, so a chain needs one check at its end.
type Request struct {
	c          *RESTClient
	err        error
	ctx        api.Context
	verb       string
	path       string
	body       io.Reader
	params     map[string][]string
	sync       bool
	timeout    time.Duration
	pollPeriod time.Duration
}

// Context makes the request, its polls and its watch stream stop when ctx
// is done.
//
// Ours: v0.4 took an api.Context in every typed call but only for the
// namespace; requests could not be cancelled.
func (r *Request) Context(ctx api.Context) *Request {
	if r.err != nil {
		return r
	}
	r.ctx = ctx
	return r
}

// Path appends a segment to the path.
//
// Ours: v0.4 joined item with path.Join, which resolves "..": deleting the
// pod "../replicationControllers/frontend" sent DELETE
// /replicationControllers/frontend. A "." or ".." segment is refused here
// and becomes the request's error, so no name can reach another resource.
func (r *Request) Path(item string) *Request {
	if r.err != nil {
		return r
	}
	for _, segment := range strings.Split(item, "/") {
		if segment == "." || segment == ".." {
			r.err = fmt.Errorf("invalid path %q: a name may not contain a %q segment", item, segment)
			return r
		}
	}
	r.path = path.Join(r.path, item)
	return r
}

// AbsPath replaces the whole path, for URLs outside the API prefix such as
// /version.
func (r *Request) AbsPath(p string) *Request {
	if r.err != nil {
		return r
	}
	r.path = p
	return r
}

// Sync sets whether the server should finish the write before answering.
func (r *Request) Sync(sync bool) *Request {
	if r.err != nil {
		return r
	}
	r.sync = sync
	return r
}

// Timeout sets how long a sync request may wait on the server and how long
// Do polls an operation.
func (r *Request) Timeout(d time.Duration) *Request {
	if r.err != nil {
		return r
	}
	r.timeout = d
	return r
}

// PollPeriod sets the sleep between polls of a "working" operation; 0 hands
// the Working Status back to the caller as a StatusError.
func (r *Request) PollPeriod(d time.Duration) *Request {
	if r.err != nil {
		return r
	}
	r.pollPeriod = d
	return r
}

// ParseSelectorParam parses item as a label selector and sends it as
// paramName; a malformed selector becomes the request's error.
func (r *Request) ParseSelectorParam(paramName, item string) *Request {
	if r.err != nil {
		return r
	}
	sel, err := labels.ParseSelector(item)
	if err != nil {
		r.err = err
		return r
	}
	return r.setParam(paramName, sel.String())
}

// SelectorParam sends s as paramName; a nil selector selects everything.
func (r *Request) SelectorParam(paramName string, s labels.Selector) *Request {
	if r.err != nil {
		return r
	}
	if s == nil {
		s = labels.Everything()
	}
	return r.setParam(paramName, s.String())
}

// UintParam sends u as paramName.
func (r *Request) UintParam(paramName string, u uint64) *Request {
	if r.err != nil {
		return r
	}
	return r.setParam(paramName, strconv.FormatUint(u, 10))
}

// Param sends s as paramName.
func (r *Request) Param(paramName, s string) *Request {
	if r.err != nil {
		return r
	}
	return r.setParam(paramName, s)
}

func (r *Request) setParam(paramName, value string) *Request {
	if specialParams[paramName] {
		r.err = fmt.Errorf("must set %v through the corresponding function, not directly", paramName)
		return r
	}
	r.params[paramName] = []string{value}
	return r
}

// Body sets what the request sends: an api.Object is encoded as v1beta1
// JSON, a []byte or io.Reader goes as it is, and a string names a file to
// read.
func (r *Request) Body(obj interface{}) *Request {
	if r.err != nil {
		return r
	}
	switch t := obj.(type) {
	case string:
		data, err := os.ReadFile(t)
		if err != nil {
			r.err = err
			return r
		}
		r.body = bytes.NewReader(data)
	case []byte:
		r.body = bytes.NewReader(t)
	case io.Reader:
		r.body = t
	case api.Object:
		data, err := api.Encode(t)
		if err != nil {
			r.err = err
			return r
		}
		r.body = bytes.NewReader(data)
	default:
		r.err = fmt.Errorf("unknown type used for body: %#v", obj)
	}
	return r
}

// finalURL is the base URL with the path and the sorted query. Without
// parameters it carries no "?" (v0.2 always sent one; v0.4 did not).
func (r *Request) finalURL() string {
	u := *r.c.baseURL
	u.Path = r.path
	query := make(map[string][]string, len(r.params)+2)
	for k, v := range r.params {
		query[k] = v
	}
	if r.sync {
		query["sync"] = []string{"true"}
		if r.timeout != 0 {
			query["timeout"] = []string{r.timeout.String()}
		}
	}
	u.RawQuery = url.Values(query).Encode()
	return u.String()
}

func (r *Request) context() api.Context {
	if r.ctx == nil {
		return context.Background()
	}
	return r.ctx
}

func (r *Request) newHTTPRequest() (*http.Request, error) {
	return http.NewRequestWithContext(r.context(), r.verb, r.finalURL(), r.body)
}

// Do sends the request and returns its result. A "working" Status with an
// operation id is followed, as v0.4 followed it: sleep PollPeriod, GET
// /operations/<id>, again, for as long as the server answers "working".
// Only an answer that is not "working" (the result, or any error: the
// operation expired, the server went away) or the request's context ends
// the polling; Timeout does not.
//
// No client-side limit is the 2014 behaviour the legacy manager depends on:
// its sync waits for every create it sent, so the next tick lists the pods
// only after the slow creates have landed. A client that gave up after
// Timeout would let that tick create the same pods again.
func (r *Request) Do() Result {
	for {
		if r.err != nil {
			return Result{err: r.err}
		}
		req, err := r.newHTTPRequest()
		if err != nil {
			return Result{err: err}
		}
		body, err := r.c.doRequest(req)
		id, working := operationID(err)
		if !working || r.pollPeriod == 0 {
			return Result{body: body, err: err}
		}
		// Ours: logged at V(2) where v0.4 logged every poll at Info; a
		// resize to 1000 pods polls about a thousand times.
		glog.V(2).Infof("waiting for completion of /operations/%s", id)
		if err := sleep(r.context(), r.pollPeriod); err != nil {
			return Result{err: fmt.Errorf("waiting for operation %s: %w", id, err)}
		}
		r = r.c.PollFor(id).PollPeriod(r.pollPeriod).Timeout(r.timeout).Context(r.context())
	}
}

// operationID returns the id of the operation a "working" Status names.
// Like v0.4 it looks at the status value and the id, not the HTTP code or
// details.kind (which the server sets to "operation").
func operationID(err error) (string, bool) {
	s, ok := err.(apierrors.APIStatus)
	if !ok {
		return "", false
	}
	status := s.Status()
	if status.Status != api.StatusWorking || status.Details == nil || status.Details.ID == "" {
		return "", false
	}
	return status.Details.ID, true
}

func sleep(ctx api.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// Watch opens a watch stream. A non-200 answer is returned as an error: its
// Status as a *errors.StatusError (so errors.IsGone spots a 410), anything
// else as a *ResponseError.
//
// Ours: v0.4 returned only "Got status: <code>", which hid why a watch was
// refused; the modern build must tell "too old, relist" from other errors.
func (r *Request) Watch() (watch.Interface, error) {
	if r.err != nil {
		return nil, r.err
	}
	req, err := r.newHTTPRequest()
	if err != nil {
		return nil, err
	}
	resp, err := r.c.send(req)
	if err != nil {
		return nil, err
	}
	if resp.StatusCode != http.StatusOK {
		defer resp.Body.Close()
		body, _ := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
		if status, ok := asStatus(body); ok {
			return nil, apierrors.FromObject(status)
		}
		return nil, newResponseError(req, resp, body)
	}
	body := &cancelableBody{ReadCloser: resp.Body, ctx: req.Context()}
	return watch.NewStreamWatcher(watchjson.NewDecoder(body)), nil
}

// cancelableBody ends a watch stream cleanly (io.EOF) when its context is
// cancelled, so that a caller stopping a watch on purpose does not get an
// error logged by the stream reader.
type cancelableBody struct {
	io.ReadCloser
	ctx api.Context
}

func (b *cancelableBody) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	if err != nil && b.ctx.Err() != nil {
		return n, io.EOF
	}
	return n, err
}

// Result is what Do returns: a body or an error.
type Result struct {
	body []byte
	err  error
}

// Raw returns the body as received.
func (r Result) Raw() ([]byte, error) {
	return r.body, r.err
}

// Get decodes the body into an object of the kind it names.
func (r Result) Get() (api.Object, error) {
	if r.err != nil {
		return nil, r.err
	}
	return api.Decode(r.body)
}

// Into decodes the body into obj.
func (r Result) Into(obj api.Object) error {
	if r.err != nil {
		return r.err
	}
	return api.DecodeInto(r.body, obj)
}

// Error returns the error of the request, or nil.
func (r Result) Error() error {
	return r.err
}
