package apiserver

// Follows kubernetes/kubernetes pkg/apiserver/watch.go as of v0.4 (October
// 2014): GET <prefix>/watch/<resource> opens a storage watch and streams
// its events, one JSON object per line, until either side ends it.

import (
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"time"

	"github.com/golang/glog"
	"github.com/gorilla/mux"

	"github.com/kube-rewind/kube-rewind/pkg/api/errors"
	"github.com/kube-rewind/kube-rewind/pkg/labels"
	"github.com/kube-rewind/kube-rewind/pkg/watch"
	watchjson "github.com/kube-rewind/kube-rewind/pkg/watch/json"
)

// WatchHandler serves <prefix>/watch/<resource>.
type WatchHandler struct {
	server *apiServer
}

// getWatchParams reads the selectors and resourceVersion of a watch.
//
// Ours: v0.4 watched everything when a selector did not parse; here that
// is a 400, so a typo no longer opens a watch on every object. A
// resourceVersion that is not a number reached v0.4's registry, which
// refused it with 422 Invalid on the field resourceVersion; here it is
// refused before storage with 400 BadRequest, since it is a query
// parameter and not a field of any object. A client that looked for 422
// sees 400.
func getWatchParams(query url.Values) (label, field labels.Selector, resourceVersion uint64, err error) {
	if label, err = parseSelector("labels", query.Get("labels")); err != nil {
		return nil, nil, 0, err
	}
	if field, err = parseSelector("fields", query.Get("fields")); err != nil {
		return nil, nil, 0, err
	}
	if s := query.Get("resourceVersion"); s != "" {
		resourceVersion, err = strconv.ParseUint(s, 10, 64)
		if err != nil {
			return nil, nil, 0, errors.NewBadRequest(fmt.Sprintf("resourceVersion %q is not a non-negative integer", s))
		}
	}
	return label, field, resourceVersion, nil
}

// ServeHTTP opens the storage watch and streams it.
func (h *WatchHandler) ServeHTTP(w http.ResponseWriter, req *http.Request) {
	resource := mux.Vars(req)["resource"]
	storage := h.server.storage[resource]
	if storage == nil {
		h.server.unknownResource(w, resource)
		return
	}
	label(w, verbWatch, resource)
	if req.Method != http.MethodGet {
		methodNotAllowed(w, req, "GET", "")
		return
	}
	watcher, ok := storage.(ResourceWatcher)
	if !ok {
		errorJSON(w, errors.NewMethodNotSupported(resource, "watch"))
		return
	}
	if err := checkQuery(req); err != nil {
		errorJSON(w, err)
		return
	}
	labelSelector, fieldSelector, resourceVersion, err := getWatchParams(req.URL.Query())
	if err != nil {
		errorJSON(w, err)
		return
	}

	// The request's context names no namespace, so the watch covers all
	// of them, as v0.4's did; it also ends when the client goes away.
	watching, err := watcher.Watch(req.Context(), labelSelector, fieldSelector, resourceVersion)
	if err != nil {
		errorJSON(w, err)
		return
	}
	if watching == nil {
		errorJSON(w, errors.NewInternalError(fmt.Errorf("the %s storage returned no watch", resource)))
		return
	}
	server := &WatchServer{watching: watching, resource: resource, server: h.server}
	server.ServeHTTP(w, req)
}

// WatchServer streams one watch.Interface over plain HTTP.
//
// Ours: v0.4 also spoke websocket; no client of this port uses it.
type WatchServer struct {
	watching watch.Interface
	resource string
	server   *apiServer
}

// ServeHTTP writes each event as one JSON line and flushes it. The stream
// ends, and the storage watch is stopped, when the client goes away, when
// the storage closes the watch, after an ERROR event, when the server stops
// its watches to shut down, or when the http.Server's ReadTimeout has
// passed.
func (s *WatchServer) ServeHTTP(w http.ResponseWriter, req *http.Request) {
	defer s.watching.Stop()
	flusher, ok := w.(http.Flusher)
	if !ok {
		errorJSON(w, errors.NewInternalError(fmt.Errorf("the response cannot be streamed")))
		return
	}

	// Ours: v0.4 sent no Content-Type on a stream.
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(http.StatusOK)
	flusher.Flush()

	metrics := s.server.metrics
	streams := metrics.watchStreams.WithLabelValues(s.resource)
	events := metrics.watchEvents.WithLabelValues(s.resource)
	streams.Inc()
	defer streams.Dec()

	timedOut, stopTimer := serverTimeout(req)
	defer stopTimer()
	encoder := watchjson.NewEncoder(w)
	for {
		select {
		case <-req.Context().Done():
			return
		case <-s.server.opts.StopWatches:
			return
		case <-timedOut:
			// The write deadline passes at the same moment: move it a
			// little, so the client reads the end of the stream rather
			// than a cut connection.
			http.NewResponseController(w).SetWriteDeadline(time.Now().Add(time.Second))
			glog.V(2).Infof("the server timeout ended a watch on %s", s.resource)
			return
		case event, ok := <-s.watching.ResultChan():
			if !ok {
				return
			}
			if err := encoder.Encode(&event); err != nil {
				glog.V(2).Infof("ending a watch on %s: %v", s.resource, err)
				return
			}
			flusher.Flush()
			events.Inc()
			// An ERROR event (a 410 Gone, say) is the storage's last word:
			// the client must list again before it watches.
			if event.Type == watch.Error {
				metrics.watchErrors.WithLabelValues(s.resource, metrics.component(req.UserAgent())).Inc()
				return
			}
		}
	}
}

// serverTimeout returns a channel that fires when the ReadTimeout of the
// http.Server serving req has passed, and a function that stops its timer;
// without a ReadTimeout the channel never fires.
//
// Ours: in v0.4 (Go 1.2, 1.3) the stream ended there by itself, since
// CloseNotify's background read kept the read deadline; today's net/http
// clears it, so the handler keeps the time itself, from when it starts.
func serverTimeout(req *http.Request) (<-chan time.Time, func()) {
	srv, _ := req.Context().Value(http.ServerContextKey).(*http.Server)
	if srv == nil || srv.ReadTimeout <= 0 {
		return nil, func() {}
	}
	t := time.NewTimer(srv.ReadTimeout)
	return t.C, func() { t.Stop() }
}
