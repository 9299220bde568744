package apiserver

// Ours: v0.4 read any body in full and handed decoding errors back as
// 500s. Here a body is bounded, its content type checked, and every way it
// can be wrong is a 4xx Status naming the problem.

import (
	"fmt"
	"io"
	"mime"
	"net/http"
	"net/url"
	"os"
	"strings"
	"time"

	"github.com/kube-rewind/kube-rewind/pkg/api"
	"github.com/kube-rewind/kube-rewind/pkg/api/errors"
	"github.com/kube-rewind/kube-rewind/pkg/labels"
)

// decodeBody reads the request body into a new object from storage.
func (s *apiServer) decodeBody(w http.ResponseWriter, req *http.Request, storage RESTStorage) (api.Object, error) {
	body, err := s.readBody(w, req)
	if err != nil {
		return nil, err
	}
	obj := storage.New()
	if err := api.DecodeInto(body, obj); err != nil {
		return nil, errors.NewBadRequest(fmt.Sprintf("the body is not a valid %s: %v", api.KindOf(obj), err))
	}
	if err := checkDuplicateKeys(body); err != nil {
		return nil, errors.NewBadRequest(fmt.Sprintf("the body is not a valid %s: %v", api.KindOf(obj), err))
	}
	return obj, nil
}

// readBody returns the body if its content type is JSON or YAML (or not
// given) and it is no larger than MaxRequestBytes. An oversized body is
// refused from its Content-Length when it declares one, and otherwise as
// soon as the limit is passed, without reading the rest.
func (s *apiServer) readBody(w http.ResponseWriter, req *http.Request) ([]byte, error) {
	if err := checkContentType(req.Header.Get("Content-Type")); err != nil {
		return nil, err
	}
	limit := s.opts.MaxRequestBytes
	if req.ContentLength > limit {
		return nil, errors.NewRequestEntityTooLarge(limit)
	}
	// MaxBytesReader gets the server's own writer so that it can tell the
	// server to close the connection instead of draining the excess.
	if rw, ok := w.(*responseWriter); ok {
		w = rw.ResponseWriter
	}
	// Ours: the server has no read timeout (it would cut watch streams),
	// so a client that sent its headers and then stalled or trickled its
	// body held a goroutine and a connection for as long as it liked. The
	// body must now arrive within BodyReadTimeout. After a timeout the
	// deadline stays, so that the server gives up on the rest of the body
	// at once and closes the connection after the answer, instead of
	// waiting for it. A writer that cannot set deadlines (a test's
	// recorder) reads without one.
	timeout := s.opts.BodyReadTimeout
	rc := http.NewResponseController(w)
	deadline := rc.SetReadDeadline(time.Now().Add(timeout)) == nil
	body, err := io.ReadAll(http.MaxBytesReader(w, req.Body, limit))
	if err != nil {
		if _, ok := err.(*http.MaxBytesError); ok {
			return nil, errors.NewRequestEntityTooLarge(limit)
		}
		if os.IsTimeout(err) {
			return nil, errors.NewStatus(http.StatusRequestTimeout, api.StatusReasonTimeout,
				fmt.Sprintf("the request body did not arrive within %v", timeout))
		}
		return nil, errors.NewBadRequest(fmt.Sprintf("reading the request body: %v", err))
	}
	if deadline {
		rc.SetReadDeadline(time.Time{})
	}
	return body, nil
}

// checkContentType accepts no content type, JSON and YAML, as the 2014
// decoder read both.
func checkContentType(contentType string) error {
	if contentType == "" {
		return nil
	}
	mediaType, _, err := mime.ParseMediaType(contentType)
	if err != nil {
		return errors.NewUnsupportedMediaType(contentType)
	}
	switch mediaType {
	case "application/json", "text/json",
		"application/yaml", "application/x-yaml", "text/yaml", "text/x-yaml":
		return nil
	}
	if strings.HasSuffix(mediaType, "+json") || strings.HasSuffix(mediaType, "+yaml") {
		return nil
	}
	return errors.NewUnsupportedMediaType(contentType)
}

// parseSelector parses the label or field selector of query parameter
// param.
//
// Ours: v0.4 answered a malformed selector on a list with a 500 and
// silently watched everything on a watch; both are a 400 here.
func parseSelector(param, value string) (labels.Selector, error) {
	selector, err := labels.ParseSelector(value)
	if err != nil {
		return nil, errors.NewBadRequest(fmt.Sprintf("query parameter %s=%q is not a valid selector: %v", param, value, err))
	}
	return selector, nil
}

// checkQuery refuses a query string that does not parse, which
// net/url would otherwise read as if the bad pairs were absent: a mangled
// labels= would then list everything.
func checkQuery(req *http.Request) error {
	if _, err := url.ParseQuery(req.URL.RawQuery); err != nil {
		return errors.NewBadRequest(fmt.Sprintf("malformed query string %q: %v", req.URL.RawQuery, err))
	}
	return nil
}
