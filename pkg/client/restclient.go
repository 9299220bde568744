package client

// Follows kubernetes/kubernetes pkg/client/restclient.go as of v0.4 (October
// 2014): one RESTClient per apiserver; every answer that is a Status other
// than Success becomes an error, whatever its HTTP code.

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"strings"
	"time"

	"github.com/kube-rewind/kube-rewind/pkg/api"
	apierrors "github.com/kube-rewind/kube-rewind/pkg/api/errors"
	"golang.org/x/time/rate"
)

// RESTClient builds requests against the resources under one base URL and
// reads their answers as v1beta1 objects or Status errors.
type RESTClient struct {
	baseURL *url.URL

	// Client sends the requests; nil means a client over the shared pool.
	Client *http.Client

	// Sync, PollPeriod and Timeout are copied into every new Request.
	Sync       bool
	PollPeriod time.Duration
	Timeout    time.Duration

	username    string
	password    string
	userAgent   string
	rateLimiter *rate.Limiter
}

// NewRESTClient returns a RESTClient for the API at baseURL with the 2014
// defaults: asynchronous writes, polled every two seconds.
func NewRESTClient(baseURL *url.URL) *RESTClient {
	base := *baseURL
	if !strings.HasSuffix(base.Path, "/") {
		base.Path += "/"
	}
	base.RawQuery = ""
	base.Fragment = ""
	return &RESTClient{
		baseURL: &base,
		// 2014 made writes asynchronous by default and polled for the
		// result. Every write that takes longer than the server's 25 ms
		// wait costs one extra GET per PollPeriod until it is done.
		Sync:       false,
		PollPeriod: DefaultPollPeriod,
		Timeout:    DefaultTimeout,
		userAgent:  DefaultUserAgent,
	}
}

// Verb begins a request with an HTTP method.
func (c *RESTClient) Verb(verb string) *Request {
	return &Request{
		c:          c,
		verb:       verb,
		path:       c.baseURL.Path,
		sync:       c.Sync,
		timeout:    c.Timeout,
		pollPeriod: c.PollPeriod,
		params:     url.Values{},
	}
}

// Post begins a POST request.
func (c *RESTClient) Post() *Request { return c.Verb("POST") }

// Put begins a PUT request.
func (c *RESTClient) Put() *Request { return c.Verb("PUT") }

// Get begins a GET request.
func (c *RESTClient) Get() *Request { return c.Verb("GET") }

// Delete begins a DELETE request.
func (c *RESTClient) Delete() *Request { return c.Verb("DELETE") }

// PollFor begins one poll of the operation id: never sync, never polling
// by itself (Do loops instead of recursing).
func (c *RESTClient) PollFor(id string) *Request {
	return c.Get().Path("operations").Path(id).Sync(false).PollPeriod(0)
}

// send waits for the rate limiter, stamps the request and sends it.
func (c *RESTClient) send(req *http.Request) (*http.Response, error) {
	if c.rateLimiter != nil {
		if err := c.rateLimiter.Wait(req.Context()); err != nil {
			return nil, fmt.Errorf("%s %s: waiting for the client rate limiter: %w", req.Method, req.URL, err)
		}
	}
	// Ours: 2014 sent Go's default User-Agent. The apiserver's metrics
	// count requests by the first word of this header, which is how the
	// benchmark tells the controller-manager's load from kubecfg's.
	req.Header.Set("User-Agent", c.userAgent)
	if c.username != "" || c.password != "" {
		req.SetBasicAuth(c.username, c.password)
	}
	httpClient := c.Client
	if httpClient == nil {
		httpClient = &http.Client{Transport: sharedTransport}
	}
	resp, err := httpClient.Do(req)
	if err != nil {
		return nil, c.transportError(req, err)
	}
	return resp, nil
}

// doRequest sends req and returns the body of a successful answer. Any
// Status other than Success becomes a *errors.StatusError, so a "Working"
// 202 reaches Do as an error it can recognise and poll.
func (c *RESTClient) doRequest(req *http.Request) ([]byte, error) {
	resp, err := c.send(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		return nil, fmt.Errorf("%s %s: reading the answer: %w", req.Method, req.URL, err)
	}

	status, isStatus := asStatus(body)
	if resp.StatusCode < http.StatusOK || resp.StatusCode > http.StatusPartialContent {
		if isStatus {
			return nil, apierrors.FromObject(status)
		}
		return nil, newResponseError(req, resp, body)
	}
	if isStatus && status.Status != api.StatusSuccess {
		return nil, apierrors.FromObject(status)
	}
	return body, nil
}

// asStatus reads body as a Status; it is one when it decodes as kind Status
// (or without a kind) and carries a status value.
func asStatus(body []byte) (*api.Status, bool) {
	var status api.Status
	if err := api.DecodeInto(body, &status); err != nil || status.Status == "" {
		return nil, false
	}
	return &status, true
}

// ResponseError is a non-2xx answer whose body is not a Status: a proxy's
// page, a plain-text 404, a panic message.
//
// Ours: v0.4 printed the whole Go request struct (%#v) and the whole body.
// This names the method, URL and code, and keeps the first line of the body.
type ResponseError struct {
	Method    string
	URL       string
	Code      int
	Status    string
	FirstLine string
}

func newResponseError(req *http.Request, resp *http.Response, body []byte) *ResponseError {
	return &ResponseError{
		Method:    req.Method,
		URL:       req.URL.String(),
		Code:      resp.StatusCode,
		Status:    resp.Status,
		FirstLine: firstLine(body),
	}
}

// Error reads like `GET http://h/api/v1beta1/x failed (404 Not Found): <line>`.
func (e *ResponseError) Error() string {
	msg := fmt.Sprintf("%s %s failed (%s)", e.Method, e.URL, e.Status)
	if e.FirstLine != "" {
		msg += ": " + e.FirstLine
	}
	return msg
}

// firstLine returns the first non-blank line of body, cut at 200 bytes.
func firstLine(body []byte) string {
	const max = 200
	scanner := bufio.NewScanner(bytes.NewReader(body))
	scanner.Buffer(make([]byte, 0, 4096), len(body)+1)
	for scanner.Scan() {
		line := strings.TrimSpace(scanner.Text())
		if line == "" {
			continue
		}
		if len(line) > max {
			line = line[:max] + "..."
		}
		return line
	}
	return ""
}

// UnreachableError says no connection to the apiserver could be made.
//
// Ours: v0.4 returned net/http's error unchanged
// (`Get http://localhost:8080/api/v1beta1/pods: dial tcp 127.0.0.1:8080:
// connection refused`); kubecfg prints this shorter line instead.
type UnreachableError struct {
	Host  string
	Cause string
	Err   error
}

// Error reads like `cannot reach the apiserver at http://h:8080: connection refused`.
func (e *UnreachableError) Error() string {
	return fmt.Sprintf("cannot reach the apiserver at %s: %s", e.Host, e.Cause)
}

// Unwrap returns the transport's error.
func (e *UnreachableError) Unwrap() error { return e.Err }

// transportError explains why a request got no answer at all.
func (c *RESTClient) transportError(req *http.Request, err error) error {
	if ctxErr := req.Context().Err(); ctxErr != nil {
		return fmt.Errorf("%s %s: %w", req.Method, req.URL, ctxErr)
	}
	var opErr *net.OpError
	if errors.As(err, &opErr) && opErr.Op == "dial" {
		cause := opErr.Err.Error()
		var sysErr *os.SyscallError
		if errors.As(opErr.Err, &sysErr) {
			cause = sysErr.Err.Error()
		}
		host := url.URL{Scheme: c.baseURL.Scheme, Host: c.baseURL.Host}
		return &UnreachableError{Host: host.String(), Cause: cause, Err: err}
	}
	var urlErr *url.Error
	if errors.As(err, &urlErr) {
		return fmt.Errorf("%s %s: %w", req.Method, req.URL, urlErr.Err)
	}
	return err
}
