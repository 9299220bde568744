package etcd

import (
	"context"
	"errors"
	"net"
	"net/http"
	"sync"
)

// Ours: the apiserver and its embedded member share one process, yet by
// default they still talk through the kernel: every request crosses a
// loopback socket twice (written by go-etcd, read by etcd's server, and
// back), and every connection costs two file descriptors of the one
// process. Dial gives the process a connection to the member that is a
// pair of in-memory pipes instead, served by an HTTP server of its own
// with the same handler as the member's client listener: the same HTTP
// requests and answers, byte for byte, without the system calls and file
// descriptors. In 2014 etcd was a process of its own, so this hop cost a
// real connection; the apiserver's ceiling and its file descriptors at
// scale are therefore those of our embedding, not 2014's, and a run
// against an external etcd pays for the hop again.

// pipeListener accepts the server ends of the connections Dial makes.
type pipeListener struct {
	conns  chan net.Conn
	done   chan struct{}
	closed sync.Once
}

func newPipeListener() *pipeListener {
	return &pipeListener{conns: make(chan net.Conn), done: make(chan struct{})}
}

var errListenerClosed = errors.New("etcd: the in-process listener is closed")

func (l *pipeListener) Accept() (net.Conn, error) {
	select {
	case c := <-l.conns:
		return c, nil
	case <-l.done:
		return nil, errListenerClosed
	}
}

func (l *pipeListener) Close() error {
	l.closed.Do(func() { close(l.done) })
	return nil
}

func (l *pipeListener) Addr() net.Addr { return pipeAddr{} }

// dial hands one end of a fresh connection to the server and returns the
// other.
func (l *pipeListener) dial(ctx context.Context) (net.Conn, error) {
	client, server := newPipe()
	select {
	case l.conns <- server:
		return client, nil
	case <-l.done:
	case <-ctx.Done():
	}
	client.Close()
	server.Close()
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return nil, errListenerClosed
}

type pipeAddr struct{}

func (pipeAddr) Network() string { return "pipe" }
func (pipeAddr) String() string  { return "in-process" }

// inProcess serves the member's client API on in-memory connections.
type inProcess struct {
	listener *pipeListener
	server   *http.Server
}

func serveInProcess(h http.Handler) *inProcess {
	p := &inProcess{listener: newPipeListener(), server: &http.Server{Handler: h}}
	go p.server.Serve(p.listener)
	return p
}

// close ends every in-process connection, in use or not.
func (p *inProcess) close() {
	p.server.Close()
}

// Dial returns a new connection to the member's client API from inside
// this process (see inProcess above). Its HTTP requests reach the same
// handler as those sent to ClientURL. It fails once the server is closed.
func (s *Server) Dial(ctx context.Context) (net.Conn, error) {
	return s.inProcess.listener.dial(ctx)
}
