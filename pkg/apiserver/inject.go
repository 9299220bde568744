package apiserver

// Ours: the fault switch (package faults) acts here, after a request is
// routed and before storage is touched, so an injected failure never leaves
// a partial write behind.

import (
	"net/http"
	"time"

	"github.com/golang/glog"

	"github.com/kube-rewind/kube-rewind/pkg/lab/faults"
)

// Kinds of injected fault, as counted in apiserver_injected_faults_total.
const (
	faultFail       = "fail"
	faultLatency    = "latency"
	faultCloseWatch = "close_watch"
)

// injectFaults applies the fault rules to a request: it answers an
// injected failure and returns true, or sleeps the injected latency (less
// if the client goes away) and returns false.
func (s *apiServer) injectFaults(w http.ResponseWriter, req *http.Request, verb, resource string) bool {
	if code, fail := s.faults.Fail(verb, resource); fail {
		s.metrics.injectedFaults.WithLabelValues(verb, resource, faultFail).Inc()
		status := errToAPIStatus(faults.NewError(code, verb, resource))
		if glog.V(2) {
			glog.Infof("injected %d on %s %s", code, req.Method, req.URL.Path)
		}
		writeJSON(w, code, status)
		return true
	}
	if delay := s.faults.Latency(verb, resource); delay > 0 {
		s.metrics.injectedFaults.WithLabelValues(verb, resource, faultLatency).Inc()
		timer := time.NewTimer(delay)
		defer timer.Stop()
		select {
		case <-timer.C:
		case <-req.Context().Done():
		}
	}
	return false
}
