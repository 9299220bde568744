package faults

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"

	"github.com/golang/glog"

	"github.com/kube-rewind/kube-rewind/pkg/api"
	"github.com/kube-rewind/kube-rewind/pkg/api/errors"
)

// maxAdminBody bounds a PUT to /admin/faults; a full set of rules is a few
// kilobytes.
const maxAdminBody = 64 << 10

// reasonForbidden is the Status reason of a refused admin request; pkg/api
// has no constant for it because only this endpoint answers 403.
const reasonForbidden api.StatusReason = "Forbidden"

// ServeHTTP serves /admin/faults: GET shows the rules as JSON, PUT replaces
// them with the JSON body, DELETE clears them. Only loopback clients are
// answered; everyone else gets 403.
func (f *Faults) ServeHTTP(w http.ResponseWriter, req *http.Request) {
	if !fromLoopback(req) {
		writeError(w, errors.NewStatus(http.StatusForbidden, reasonForbidden,
			fmt.Sprintf("the fault switch answers only loopback clients, not %s", req.RemoteAddr)))
		return
	}
	switch req.Method {
	case http.MethodGet:
		writeConfig(w, f.Config())
	case http.MethodPut:
		cfg, err := readConfig(w, req)
		if err != nil {
			writeError(w, err)
			return
		}
		if err := f.Set(cfg); err != nil {
			writeError(w, errors.NewBadRequest("invalid fault rules: "+err.Error()))
			return
		}
		glog.Infof("fault rules replaced by %s: %+v", req.RemoteAddr, f.Config())
		writeConfig(w, f.Config())
	case http.MethodDelete:
		f.Clear()
		glog.Infof("fault rules cleared by %s", req.RemoteAddr)
		writeConfig(w, f.Config())
	default:
		w.Header().Set("Allow", "GET, PUT, DELETE")
		writeError(w, errors.NewMethodNotSupported("/admin/faults", req.Method))
	}
}

// fromLoopback reports whether the request came from a loopback address.
// Forwarding headers are ignored: the switch trusts only the socket.
func fromLoopback(req *http.Request) bool {
	host, _, err := net.SplitHostPort(req.RemoteAddr)
	if err != nil {
		host = req.RemoteAddr
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// readConfig decodes a PUT body strictly: unknown keys and trailing data
// are errors, so a typo cannot silently disable a rule.
func readConfig(w http.ResponseWriter, req *http.Request) (Config, error) {
	body, err := io.ReadAll(http.MaxBytesReader(w, req.Body, maxAdminBody))
	if err != nil {
		if _, ok := err.(*http.MaxBytesError); ok {
			return Config{}, errors.NewRequestEntityTooLarge(maxAdminBody)
		}
		return Config{}, errors.NewBadRequest(fmt.Sprintf("reading the body: %v", err))
	}
	if len(bytes.TrimSpace(body)) == 0 {
		return Config{}, errors.NewBadRequest(`empty body; send JSON such as {"fail":[{"verb":"POST","resource":"pods","fraction":0.1,"code":500}]}`)
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.DisallowUnknownFields()
	var cfg Config
	if err := dec.Decode(&cfg); err != nil {
		return Config{}, errors.NewBadRequest(fmt.Sprintf("malformed fault rules: %v", err))
	}
	if dec.More() {
		return Config{}, errors.NewBadRequest("malformed fault rules: data after the JSON object")
	}
	return cfg, nil
}

func writeConfig(w http.ResponseWriter, cfg Config) {
	out, err := json.Marshal(cfg)
	if err != nil {
		writeError(w, errors.NewInternalError(err))
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(http.StatusOK)
	w.Write(append(out, '\n'))
}

func writeError(w http.ResponseWriter, err error) {
	status := err.(errors.APIStatus).Status()
	out, encErr := api.Encode(&status)
	if encErr != nil {
		glog.Errorf("encoding a fault-switch status: %v", encErr)
		w.WriteHeader(http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status.Code)
	w.Write(out)
}
