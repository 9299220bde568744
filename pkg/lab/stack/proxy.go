package stack

import (
	"crypto/tls"
	"io"
	"log"
	"net"
	"net/http"
	"net/http/httputil"
	"net/url"
	"time"
)

// loopbackProxy is a reverse proxy on a free loopback port, in this
// process: the meter and the etcd front are two.
type loopbackProxy struct {
	// URL is where clients reach the target through the proxy.
	URL    string
	server *http.Server
}

// startProxy listens on a free loopback port and serves there the handler
// serve makes of a reverse proxy to target (http://host:port). The proxy
// passes a streamed answer on as it comes, so watch events are not held
// back, and logs nothing: a stream cut when the stack stops is no news.
func startProxy(part, target string, serve func(*httputil.ReverseProxy) http.Handler) (*loopbackProxy, error) {
	return startProxyWith(part, target, nil, nil, serve)
}

// startProxyWith is startProxy reaching target through transport (nil:
// http.DefaultTransport) and, with tlsConfig, serving https and HTTP/2.
// Its goroutines carry part's label (GoAs).
func startProxyWith(part, target string, transport http.RoundTripper, tlsConfig *tls.Config, serve func(*httputil.ReverseProxy) http.Handler) (*loopbackProxy, error) {
	u, err := url.Parse(target)
	if err != nil {
		return nil, err
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	proxy := httputil.NewSingleHostReverseProxy(u)
	proxy.FlushInterval = -1
	proxy.ErrorLog = log.New(io.Discard, "", 0)
	proxy.Transport = transport
	p := &loopbackProxy{URL: "http://" + l.Addr().String(), server: &http.Server{Handler: serve(proxy), ReadHeaderTimeout: 30 * time.Second, ErrorLog: proxy.ErrorLog}}
	if tlsConfig != nil {
		// Clients reach it as they would the apiserver: HTTP/2 over TLS,
		// their requests and watches multiplexed on one connection.
		p.URL = "https://" + l.Addr().String()
		p.server.TLSConfig = tlsConfig.Clone()
		GoAs(part, func() { p.server.ServeTLS(l, "", "") })
		return p, nil
	}
	GoAs(part, func() { p.server.Serve(l) })
	return p, nil
}

// Close stops the proxy and cuts the streams through it.
func (p *loopbackProxy) Close() { p.server.Close() }
