package etcdpods

import (
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/http/pprof"
	"path"
	"strconv"
	"strings"
	"sync"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promhttp"
	"go.etcd.io/etcd/server/v3/etcdserver"
	"go.etcd.io/etcd/server/v3/etcdserver/api/v2error"
	"go.etcd.io/etcd/server/v3/etcdserver/api/v2store"
)

// A StoreServer serves a v2 store of the laboratory's own, which it keeps
// in step with a cluster by other means than joining it (pkg/lab/walpods
// applies the member's write-ahead log to one), as a learner's client
// listener serves its member: its tail (tailPath), which NewTailReader
// reads, the v2 API's reads of keys (GET /v2/keys/...), which a Source
// lists pods with, /healthz, and its own CPU profile
// (/debug/pprof/profile) and the metrics of its process's default
// Prometheus registry (/metrics). Nothing writes through it.
type StoreServer struct {
	// URL is where it serves, http://127.0.0.1:<port>.
	URL string

	store v2store.Store
	// mu keeps a read of the store from seeing half an applied batch:
	// the one that applies holds it (Lock).
	mu   *sync.RWMutex
	tail *tail
	srv  *http.Server
}

// ServeStore serves store on loopback at port (0: any free one). mu, held
// for writing while the store is applied to, is held for reading while a
// read is served; health, when set, says whether the store is in step
// (its error answers /healthz with 503).
func ServeStore(store v2store.Store, mu *sync.RWMutex, port int, health func() error) (*StoreServer, error) {
	t, err := followTail(StoreWatch{store}, Prefix)
	if err != nil {
		return nil, err
	}
	return serveStore(store, mu, port, health, nil, t)
}

// ServeFedStore is ServeStore for an owner that hands the server every
// event of a pod it applies to the store (Feed), in index order, rather
// than have the tail watch the store: a tail that watches keeps watchers
// waiting on the store for the indexes ahead of it, which every write
// then walks. metrics, when set, is served at /metrics: the owner's own,
// and only those, since the benchmark scrapes them during its runs and
// every metric served is the owner's CPU.
func ServeFedStore(store v2store.Store, mu *sync.RWMutex, port int, health func() error, metrics prometheus.Gatherer) (*StoreServer, error) {
	mu.RLock()
	index := store.Index()
	mu.RUnlock()
	return serveStore(store, mu, port, health, metrics, fedTail(index))
}

// Feed hands a fed server's tail the events of pods the owner applied, in
// index order, once they are in the store.
func (s *StoreServer) Feed(events []*v2store.Event) {
	for _, e := range events {
		if e.Node != nil && strings.HasPrefix(e.Node.Key, etcdserver.StoreKeysPrefix+Prefix+"/") {
			s.tail.add(e)
		}
	}
}

func serveStore(store v2store.Store, mu *sync.RWMutex, port int, health func() error, metrics prometheus.Gatherer, t *tail) (*StoreServer, error) {
	l, err := net.Listen("tcp", fmt.Sprintf("127.0.0.1:%d", port))
	if err != nil {
		t.Close()
		return nil, err
	}
	s := &StoreServer{URL: "http://" + l.Addr().String(), store: store, mu: mu, tail: t}
	th := &tailHandler{}
	th.tail.Store(t)
	mux := http.NewServeMux()
	mux.Handle(tailPath, th)
	mux.HandleFunc("/v2/keys/", s.serveKeys)
	// Its CPU profile, for the benchmark's -profile: where a reader
	// that stands in for the learner spends its time.
	mux.HandleFunc("/debug/pprof/profile", pprof.Profile)
	// The owner's own metrics (the reader of the write-ahead log's lag).
	if metrics != nil {
		mux.Handle("/metrics", promhttp.HandlerFor(metrics, promhttp.HandlerOpts{}))
	}
	mux.HandleFunc("/healthz", func(w http.ResponseWriter, r *http.Request) {
		if health != nil {
			if err := health(); err != nil {
				http.Error(w, err.Error(), http.StatusServiceUnavailable)
				return
			}
		}
		w.Write([]byte("ok"))
	})
	s.srv = &http.Server{Handler: mux}
	go s.srv.Serve(l)
	return s, nil
}

// Close stops serving and the tail.
func (s *StoreServer) Close() {
	s.srv.Close()
	s.tail.Close()
}

// serveKeys answers a GET of the v2 API's keys as etcd does: the node (and
// its children with recursive=true, sorted with sorted=true) under the
// action "get", the store's index in X-Etcd-Index, and etcd's error body
// for a key not found.
func (s *StoreServer) serveKeys(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodGet {
		http.Error(w, "only reads are served here", http.StatusMethodNotAllowed)
		return
	}
	key := strings.TrimPrefix(r.URL.Path, "/v2/keys")
	q := r.URL.Query()
	s.mu.RLock()
	ev, err := s.store.Get(path.Join(etcdserver.StoreKeysPrefix, key), q.Get("recursive") == "true", q.Get("sorted") == "true")
	index := s.store.Index()
	s.mu.RUnlock()
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("X-Etcd-Index", strconv.FormatUint(index, 10))
	var v2err *v2error.Error
	if errors.As(err, &v2err) {
		w.WriteHeader(v2err.StatusCode())
		json.NewEncoder(w).Encode(v2err)
		return
	}
	if err != nil {
		w.WriteHeader(http.StatusServiceUnavailable)
		json.NewEncoder(w).Encode(v2error.NewError(v2error.EcodeRaftInternal, err.Error(), index))
		return
	}
	c := onTheWire(ev)
	trimKeys(c.Node.Nodes)
	json.NewEncoder(w).Encode(c)
}

// trimKeys drops the store's keys prefix from the keys of nodes and of
// every node below them, as etcd's v2 API writes them.
func trimKeys(nodes v2store.NodeExterns) {
	for _, n := range nodes {
		n.Key = strings.TrimPrefix(n.Key, etcdserver.StoreKeysPrefix)
		trimKeys(n.Nodes)
	}
}
