package stack

// The etcd front: v0.4's etcd client (go-etcd, as vendored in its
// Godeps) sends a compare-and-swap's parameters in the URL, among them
// prevValue, the whole value it read, and v0.4's AtomicUpdate always sends
// it. The list of manifests v0.4 keeps per minion
// (/registry/hosts/<minion>/kubelet) grows by a manifest with each pod
// bound there, so the request line of a binding's swap grows past 4 KB
// once a minion holds about five pods. etcd 3.4 serves its v2 API behind
// a connection multiplexer that reads at most 4 KB of a new connection to
// tell HTTP/1 from gRPC, and drops a connection whose first request line
// is longer: go-etcd then gives up ("All the given peers are not
// reachable") and the binding fails, unless the request happened to reuse
// a connection already matched. etcd 0.4, which v0.4 ran on, had no such
// limit.
//
// Ours: the original apiserver reaches its etcd member through this front,
// which moves the query of every PUT and POST into its form body, where
// etcd reads the same parameters, so the request line stays short. It
// changes nothing else, but adds a loopback hop to each of the
// apiserver's etcd requests, and its work is the benchmark process's.

import (
	"io"
	"net/http"
	"net/http/httputil"
	"strconv"
	"strings"
)

// etcdFront forwards to one etcd member.
type etcdFront struct{ *loopbackProxy }

// startEtcdFront listens on a free loopback port and forwards to target.
func startEtcdFront(target string) (*etcdFront, error) {
	p, err := startProxy(PartEtcdFront, target, func(proxy *httputil.ReverseProxy) http.Handler {
		forward := proxy.Director
		proxy.Director = func(req *http.Request) {
			forward(req)
			queryToBody(req)
		}
		return proxy
	})
	if err != nil {
		return nil, err
	}
	return &etcdFront{p}, nil
}

// queryToBody moves the query of a PUT or POST into its form body, after
// the body's own fields.
func queryToBody(req *http.Request) {
	if (req.Method != http.MethodPut && req.Method != http.MethodPost) || req.URL.RawQuery == "" {
		return
	}
	var body []byte
	if req.Body != nil {
		body, _ = io.ReadAll(req.Body)
		req.Body.Close()
	}
	form := string(body)
	if form != "" {
		form += "&"
	}
	form += req.URL.RawQuery
	req.URL.RawQuery = ""
	req.Body = io.NopCloser(strings.NewReader(form))
	req.ContentLength = int64(len(form))
	req.Header.Set("Content-Length", strconv.Itoa(len(form)))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
}
