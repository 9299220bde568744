package tools

// Ours: v0.4 built its client with etcd.NewClient(servers) and called
// SyncCluster. This file departs from that in three ways (the transport,
// the retries, no SyncCluster), each explained where it happens.

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"sync"
	"time"

	"github.com/coreos/go-etcd/etcd"
)

// MaxIdleConnsPerHost is how many idle keep-alive connections the client
// keeps to each etcd member.
const MaxIdleConnsPerHost = 1024

// IdleConnTimeout is how long an idle connection to etcd stays open.
const IdleConnTimeout = 10 * time.Second

// transport is shared by every client NewEtcdClient makes, as
// http.DefaultTransport is shared by default clients.
//
// Ours: go-etcd keeps Go's default of two idle connections per host, so
// with 64 writers 62 open a fresh connection per request. Measured once
// with BenchmarkRawEtcdCreate against ...DefaultTransport (their 64
// writers, loopback, 2 cores; aae7e54), that cost a noticeable share of
// the throughput and left many times more sockets in TIME_WAIT than this
// pool, which lets each concurrent request keep its own connection.
var transport = &http.Transport{
	DialContext:         dial,
	MaxIdleConnsPerHost: MaxIdleConnsPerHost,
	IdleConnTimeout:     IdleConnTimeout,
}

var dialer = &net.Dialer{Timeout: 2 * time.Second, KeepAlive: 30 * time.Second}

// inProcess maps a member's host:port to the function that connects to
// it inside this process (DialInProcess).
var inProcess sync.Map

// DialInProcess makes every client NewEtcdClient made, or will make,
// reach the member at hostPort by calling dial instead of opening a socket
// (an embedded member's Dial: see package etcd). Requests and answers are
// the same HTTP exchanges. The returned function undoes it.
func DialInProcess(hostPort string, dial func(context.Context) (net.Conn, error)) (undo func()) {
	inProcess.Store(hostPort, dial)
	return func() { inProcess.Delete(hostPort) }
}

func dial(ctx context.Context, network, addr string) (net.Conn, error) {
	if d, ok := inProcess.Load(addr); ok {
		return d.(func(context.Context) (net.Conn, error))(ctx)
	}
	return dialer.DialContext(ctx, network, addr)
}

// NewEtcdClient returns a go-etcd client for servers, set up for an
// apiserver that sends many requests at once. Do not call its Close: it
// would change the transport all these clients share, while requests may
// be reading it. Call CloseIdleConnections instead.
func NewEtcdClient(servers []string) *etcd.Client {
	client := etcd.NewClient(servers)
	client.SetTransport(transport)

	// Ours: go-etcd v2.0.0's DefaultCheckRetry gives up on the first
	// network error, although the code around it is written to move on to
	// another member. checkRetry lets it do so, which is what keeps an
	// apiserver working while one member of a cluster is down.
	client.CheckRetry = checkRetry

	// Ours: no SyncCluster. It replaces the given servers with the client
	// URLs the members advertise, and an embedded member bound to port 0
	// advertises ":0", which no request can reach.
	return client
}

// CloseIdleConnections closes the idle connections of every client
// NewEtcdClient made. Call it before closing an embedded etcd: its Close
// waits for every client connection to end, and the transport sometimes
// dials a connection it then leaves unused, which etcd never times out.
func CloseIdleConnections() {
	transport.CloseIdleConnections()
}

// retryRounds is how many times a request may go round all members before
// the client reports them unreachable. go-etcd picks the next member at
// random, so one round is not enough to be sure of trying each.
const retryRounds = 4

// checkRetry retries network errors on another member until every member
// has had its chances, then returns etcd's "not reachable" error (501). Any
// answer with an HTTP status is judged as go-etcd judges it.
func checkRetry(cluster *etcd.Cluster, numReqs int, lastResp http.Response, err error) error {
	if lastResp.StatusCode != 0 {
		return etcd.DefaultCheckRetry(cluster, numReqs, lastResp, err)
	}
	attempts := retryRounds * len(cluster.Machines)
	if len(cluster.Machines) == 1 {
		attempts = 2
	}
	if numReqs > attempts {
		return &etcd.EtcdError{
			ErrorCode: etcd.ErrCodeEtcdNotReachable,
			Message:   "All the given peers are not reachable",
			Cause:     fmt.Sprintf("no answer from %v after %d attempts (last error: %v)", cluster.Machines, numReqs-1, err),
		}
	}
	return nil
}
