package apiserver

// Follows kubernetes/kubernetes pkg/apiserver/errors.go as of v0.4 (October
// 2014): errors reach the client as Status objects carrying their code.

import (
	"fmt"
	"net/http"
	"strings"

	"github.com/golang/glog"

	"github.com/kube-rewind/kube-rewind/pkg/api"
	"github.com/kube-rewind/kube-rewind/pkg/api/errors"
)

// writeJSON writes obj as v1beta1 JSON with the given HTTP status.
func writeJSON(w http.ResponseWriter, code int, obj api.Object) {
	out, err := api.Encode(obj)
	if err != nil {
		glog.Errorf("encoding a %T response: %v", obj, err)
		status := errToAPIStatus(errors.NewInternalError(fmt.Errorf("encoding the response: %v", err)))
		if out, err = api.Encode(status); err != nil {
			w.WriteHeader(http.StatusInternalServerError)
			return
		}
		code = status.Code
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(code)
	w.Write(out)
}

// errorJSON writes err as a Status. Errors that are not API errors become
// 500s and are logged: they mean a storage or server bug, not a client
// mistake.
func errorJSON(w http.ResponseWriter, err error) {
	status := errToAPIStatus(err)
	if status.Code == 0 {
		status.Code = http.StatusInternalServerError
	}
	if status.Status == "" {
		status.Status = api.StatusFailure
	}
	if status.Code >= 500 {
		glog.Errorf("answering %d: %v", status.Code, err)
	} else if glog.V(2) {
		glog.Infof("answering %d: %v", status.Code, err)
	}
	writeJSON(w, status.Code, status)
}

// notFound answers a path that names nothing the server has.
//
// Ours: v0.4 wrote a plain-text "Not Found" here; the Status says what the
// server expected instead.
func (s *apiServer) notFound(w http.ResponseWriter, req *http.Request) {
	errorJSON(w, errors.NewStatus(http.StatusNotFound, api.StatusReasonNotFound, s.notFoundMessage(req)))
}

func (s *apiServer) notFoundMessage(req *http.Request) string {
	path := req.URL.Path
	rest, underAPI := strings.CutPrefix(path, s.prefix)
	if !underAPI || (rest != "" && rest[0] != '/') {
		return fmt.Sprintf("the server has nothing at %q; the API is under %s", path, s.prefix)
	}
	rest = strings.Trim(rest, "/")
	switch {
	case rest == "":
		return fmt.Sprintf("name a resource: %s/{resource}, one of %s", s.prefix, s.resourceList())
	case rest == "watch":
		return fmt.Sprintf("name a resource to watch: %s/watch/{resource}, one of %s", s.prefix, s.resourceList())
	case strings.HasPrefix(rest, "watch/"):
		return fmt.Sprintf("path %q has too many segments; watch with %s/watch/{resource}", path, s.prefix)
	case strings.HasPrefix(rest, "operations/"):
		return fmt.Sprintf("path %q has too many segments; use %s/operations[/{id}]", path, s.prefix)
	default:
		return fmt.Sprintf("path %q does not name a resource or an object; use %s/{resource}[/{id}]", path, s.prefix)
	}
}

// unknownResource answers a request for a resource without storage.
func (s *apiServer) unknownResource(w http.ResponseWriter, resource string) {
	errorJSON(w, errors.NewStatus(http.StatusNotFound, api.StatusReasonNotFound,
		fmt.Sprintf("the server has no resource %q; it serves %s", resource, s.resourceList())))
}

// methodNotAllowed answers a method the path does not accept, naming the
// ones it does.
func methodNotAllowed(w http.ResponseWriter, req *http.Request, allowed string, hint string) {
	w.Header().Set("Allow", allowed)
	msg := fmt.Sprintf("%s is not supported on %s; allowed: %s", req.Method, req.URL.Path, allowed)
	if hint != "" {
		msg += "; " + hint
	}
	status := errors.NewStatus(http.StatusMethodNotAllowed, api.StatusReasonMethodNotAllowed, msg)
	errorJSON(w, status)
}
