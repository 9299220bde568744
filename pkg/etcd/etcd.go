package etcd

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"strconv"
	"time"

	pb "go.etcd.io/etcd/api/v3/etcdserverpb"
	"go.etcd.io/etcd/server/v3/embed"
	"go.etcd.io/etcd/server/v3/etcdserver"
	"go.etcd.io/etcd/server/v3/etcdserver/api/v2http"
	"go.etcd.io/etcd/server/v3/etcdserver/api/v2store"
	"go.etcd.io/etcd/server/v3/wal"
)

// Config says where and how to run the embedded member.
type Config struct {
	// DataDir holds the member's data; it is required, and starting again
	// with the same directory finds every key written before.
	DataDir string
	// ClientPort is the loopback port of the client (v2 HTTP) listener;
	// 0 lets the kernel pick a free one.
	ClientPort int
	// PeerPort is the loopback port of the peer listener; 0 picks one.
	PeerPort int
	// FastTicks shortens the raft heartbeat to 10 ms and the election
	// timeout to 100 ms, so that a fresh member elects itself in about a
	// tenth of a second. Meant for tests.
	FastTicks bool
	// NoFsync skips fsync on every write. It loses data on a machine crash
	// and exists only to make tests that write thousands of keys quick.
	NoFsync bool
	// WALSegmentBytes, when set, is the size of each of the member's
	// write-ahead log segments instead of etcd's 64 MB. It is etcd's
	// process-wide wal.SegmentSizeBytes, so it is for a process that
	// starts one member.
	//
	// Ours: v0.4 ran etcd as a process of its own with etcd's defaults.
	// The laboratory's reader of the log (pkg/lab/walpods) reads the
	// segment it is in from its start on each look, so smaller segments
	// bound what it reads; the member cuts a segment more often, a file
	// created ahead of time by etcd's pipeline. The member then keeps
	// more segments than etcd's five, as many as hold walKeptBytes, so
	// that a reader a few seconds behind does not find its next entry
	// purged.
	WALSegmentBytes int64
	// LogToStderr sends etcd's own (error level) log to stderr instead of
	// the file etcd.log in DataDir.
	LogToStderr bool
	// StartTimeout bounds the wait for the member to become ready; zero
	// means 30 seconds.
	StartTimeout time.Duration

	// Name is the member's name in its cluster; empty means "kube-rewind".
	Name string
	// Join, when set, is the running cluster this member joins, as etcd's
	// --initial-cluster lists it (name=peerURL,..., this member
	// included), which must have added the member already; empty starts
	// a cluster of one.
	Join string
	// Handlers are served on the client listener beside the v2 API, by
	// path (etcd's UserHandlers).
	Handlers map[string]http.Handler
	// V2Port, when not 0, is the loopback port of one more client
	// listener, which serves the v2 API alone over plain HTTP/1
	// (Server.V2URL); -1 lets the kernel pick a free one.
	//
	// Ours: etcd 3.5 serves its client API behind a connection
	// multiplexer that reads at most 4 KB of a new connection to tell
	// HTTP/1 from gRPC, and drops one whose first request line is longer.
	// v0.4's etcd client sends a compare-and-swap's old value in the URL,
	// and v0.4 swaps a minion's whole list of manifests at each bind, so
	// its request lines pass 4 KB once a minion holds about five pods.
	// etcd 0.4, which v0.4 ran on, served HTTP alone and had no such
	// limit; this listener has none either.
	V2Port int
}

// walKeptBytes is how much of its write-ahead log a member with
// Config.WALSegmentBytes keeps at least, once a snapshot lets it purge
// older segments: a reader of the log that falls further behind than
// this loses entries: as much as etcd's five segments held at the
// segment size the reader was first given.
const walKeptBytes = 20 << 20

// Server is a running embedded etcd member.
type Server struct {
	etcd      *embed.Etcd
	lists     *listHandler
	inProcess *inProcess
	clientURL string
	// v2 serves Config.V2Port, at v2URL; nil without it.
	v2    *http.Server
	v2URL string
}

// Start runs an etcd member with the v2 API enabled, listening on loopback
// only, and returns once it is ready to serve.
func Start(cfg Config) (*Server, error) {
	if cfg.DataDir == "" {
		return nil, errors.New("etcd: a data directory is required")
	}
	if err := os.MkdirAll(cfg.DataDir, 0o700); err != nil {
		return nil, fmt.Errorf("etcd: cannot create data directory: %v", err)
	}
	if cfg.WALSegmentBytes > 0 {
		wal.SegmentSizeBytes = cfg.WALSegmentBytes
	}
	ec, lists := newConfig(cfg)
	if cfg.Join == "" {
		ec.InitialCluster = ec.InitialClusterFromName(ec.Name)
	} else {
		ec.InitialCluster = cfg.Join
		ec.ClusterState = embed.ClusterStateFlagExisting
	}
	return serve(ec, lists, cfg)
}

// newConfig is the embedded configuration of cfg: the v2 API on, loopback
// only, etcd's log at error level.
func newConfig(cfg Config) (*embed.Config, *listHandler) {
	ec := embed.NewConfig()
	ec.Name = cfg.Name
	if ec.Name == "" {
		ec.Name = "kube-rewind"
	}
	ec.Dir = cfg.DataDir
	ec.EnableV2 = true
	clientURL := loopbackURL(cfg.ClientPort)
	peerURL := loopbackURL(cfg.PeerPort)
	ec.ListenClientUrls = []url.URL{clientURL}
	ec.AdvertiseClientUrls = []url.URL{clientURL}
	ec.ListenPeerUrls = []url.URL{peerURL}
	ec.AdvertisePeerUrls = []url.URL{peerURL}
	if cfg.FastTicks {
		ec.TickMs = 10
		ec.ElectionMs = 100
	}
	ec.UnsafeNoFsync = cfg.NoFsync
	if cfg.WALSegmentBytes > 0 {
		if n := uint((walKeptBytes + cfg.WALSegmentBytes - 1) / cfg.WALSegmentBytes); n > ec.MaxWalFiles {
			ec.MaxWalFiles = n
		}
	}
	ec.Logger = "zap"
	ec.LogLevel = "error"
	if cfg.LogToStderr {
		ec.LogOutputs = []string{"stderr"}
	} else {
		ec.LogOutputs = []string{filepath.Join(cfg.DataDir, "etcd.log")}
	}
	lists := &listHandler{}
	ec.UserHandlers = map[string]http.Handler{keysPrefix + "/": lists}
	for path, h := range cfg.Handlers {
		ec.UserHandlers[path] = h
	}
	return ec, lists
}

// serve starts the member ec describes and waits until it is ready.
func serve(ec *embed.Config, lists *listHandler, cfg Config) (*Server, error) {
	e, err := embed.StartEtcd(ec)
	if err != nil {
		return nil, fmt.Errorf("etcd: cannot start the embedded member in %s: %v", cfg.DataDir, err)
	}
	timeout := cfg.StartTimeout
	if timeout == 0 {
		timeout = 30 * time.Second
	}
	select {
	case <-e.Server.ReadyNotify():
	case err := <-e.Err():
		e.Close()
		return nil, fmt.Errorf("etcd: the embedded member failed while starting: %v", err)
	case <-time.After(timeout):
		e.Server.Stop()
		e.Close()
		return nil, fmt.Errorf("etcd: the embedded member in %s was not ready after %v (see etcd.log there)", cfg.DataDir, timeout)
	}
	if len(e.Clients) == 0 {
		e.Close()
		return nil, errors.New("etcd: the embedded member has no client listener")
	}
	lists.server = e.Server
	v2 := v2http.NewClientHandler(e.GetLogger(), e.Server, e.Server.Cfg.ReqTimeout())
	lists.etcd.Store(&v2)
	// The advertised URL still says port 0 when the kernel picked the
	// port, so the address comes from the listener itself.
	srv := &Server{etcd: e, lists: lists, inProcess: serveInProcess(lists),
		clientURL: "http://" + e.Clients[0].Addr().String()}
	if cfg.V2Port != 0 {
		l, err := net.Listen("tcp", net.JoinHostPort("127.0.0.1", strconv.Itoa(max(cfg.V2Port, 0))))
		if err != nil {
			srv.Close()
			return nil, fmt.Errorf("etcd: the v2 API's own listener: %v", err)
		}
		srv.v2URL = "http://" + l.Addr().String()
		srv.v2 = &http.Server{Handler: lists}
		go srv.v2.Serve(l)
	}
	return srv, nil
}

func loopbackURL(port int) url.URL {
	return url.URL{Scheme: "http", Host: "127.0.0.1:" + strconv.Itoa(port)}
}

// ClientURL returns the URL that go-etcd clients should use, with the real
// port.
func (s *Server) ClientURL() string {
	return s.clientURL
}

// V2URL returns the URL of the listener that serves the v2 API alone
// (Config.V2Port), or "" without one.
func (s *Server) V2URL() string {
	return s.v2URL
}

// Close stops the member and releases its listeners; its data stays on
// disk. It waits for every client connection to end, and etcd's listener
// never times out a connection on which no request was sent, so close the
// idle connections of this member's clients first
// (tools.CloseIdleConnections): otherwise Close waits until they time out.
func (s *Server) Close() {
	if s.v2 != nil {
		s.v2.Close()
	}
	s.inProcess.close()
	s.etcd.Close()
}

// Watch registers a watcher of this member's v2 store, in this process,
// for the first change under key (a key of the v2 API, such as
// /registry/pods) at index since or after; since 0 means the next one.
// The events name their keys as the store does, below
// etcdserver.StoreKeysPrefix. A watcher for an index that has left etcd's
// window of 1000 events fails with etcd's error 401; one that waits must be
// removed.
func (s *Server) Watch(key string, since uint64) (v2store.Watcher, error) {
	resp, err := s.etcd.Server.Do(context.Background(), pb.Request{Method: http.MethodGet, Path: path.Join(etcdserver.StoreKeysPrefix, key), Recursive: true, Wait: true, Since: since})
	if err != nil {
		return nil, err
	}
	return resp.Watcher, nil
}
