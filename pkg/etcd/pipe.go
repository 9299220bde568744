package etcd

import (
	"io"
	"net"
	"os"
	"sync"
	"time"
)

// An in-memory connection whose writes are buffered: a write copies its
// bytes into the other end's queue and returns, so that etcd can encode
// the next part of a listing while the apiserver decodes the last, as it
// could through a socket's buffers.
//
// net.Pipe, tried first, hands every read over from the writer's goroutine
// to the reader's: a LIST of 60 000 pods, read a few kilobytes at a time,
// cost the apiserver more CPU through it than through loopback, all in
// goroutine wake-ups (measured once with rcbench listcost, both orders,
// when this pipe replaced it in dff9346).

// pipeChunk is the size of the pooled buffers a queue is made of.
const pipeChunk = 32 << 10

// pipeMaxQueued is how many bytes one direction holds before a write
// waits for the reader: a few chunks, so that a connection costs memory
// only for what is in flight.
const pipeMaxQueued = 8 * pipeChunk

var chunkPool = sync.Pool{New: func() any { b := make([]byte, 0, pipeChunk); return &b }}

// pipeQueue is one direction of a connection.
type pipeQueue struct {
	mu sync.Mutex
	// cond wakes a reader waiting for bytes, a writer waiting for room
	// (once the queue is down to half, so that the two do not take turns
	// at every read) and both at a deadline or a close.
	cond             sync.Cond
	readers, writers int       // waiting
	chunks           []*[]byte // queued bytes: (*chunks[0])[off:], then the others whole
	off              int
	queued           int
	// writerClosed: the writing end was closed; reads drain the queue,
	// then end. readerClosed: the reading end was closed; both fail.
	writerClosed, readerClosed  bool
	readDeadline, writeDeadline time.Time
	readTimer, writeTimer       *time.Timer
}

func newQueue() *pipeQueue {
	q := &pipeQueue{}
	q.cond.L = &q.mu
	return q
}

func expired(deadline time.Time) bool {
	return !deadline.IsZero() && !time.Now().Before(deadline)
}

func (q *pipeQueue) read(b []byte) (int, error) {
	q.mu.Lock()
	defer q.mu.Unlock()
	for {
		switch {
		case q.readerClosed:
			return 0, io.ErrClosedPipe
		case expired(q.readDeadline):
			return 0, os.ErrDeadlineExceeded
		case q.queued > 0:
			return q.take(b), nil
		case q.writerClosed:
			return 0, io.EOF
		}
		q.readers++
		q.cond.Wait()
		q.readers--
	}
}

// take copies queued bytes into b and gives drained chunks back to the
// pool. q.mu is held.
func (q *pipeQueue) take(b []byte) int {
	n := 0
	for n < len(b) && q.queued > 0 {
		head := *q.chunks[0]
		c := copy(b[n:], head[q.off:])
		n += c
		q.off += c
		q.queued -= c
		if q.off == len(head) {
			*q.chunks[0] = head[:0]
			chunkPool.Put(q.chunks[0])
			q.chunks[0] = nil
			q.chunks = q.chunks[1:]
			q.off = 0
		}
	}
	if len(q.chunks) == 0 {
		q.chunks = nil
	}
	if q.writers > 0 && q.queued <= pipeMaxQueued/2 {
		q.cond.Broadcast()
	}
	return n
}

func (q *pipeQueue) write(b []byte) (int, error) {
	q.mu.Lock()
	defer q.mu.Unlock()
	n := 0
	for len(b) > 0 {
		full := q.queued >= pipeMaxQueued
		for {
			switch {
			case q.writerClosed || q.readerClosed:
				return n, io.ErrClosedPipe
			case expired(q.writeDeadline):
				return n, os.ErrDeadlineExceeded
			}
			if !full || q.queued <= pipeMaxQueued/2 {
				break
			}
			q.writers++
			q.cond.Wait()
			q.writers--
		}
		var tail *[]byte
		if k := len(q.chunks); k > 0 && len(*q.chunks[k-1]) < pipeChunk {
			tail = q.chunks[k-1]
		} else {
			tail = chunkPool.Get().(*[]byte)
			q.chunks = append(q.chunks, tail)
		}
		room := min(pipeChunk-len(*tail), pipeMaxQueued-q.queued, len(b))
		*tail = append(*tail, b[:room]...)
		b = b[room:]
		n += room
		q.queued += room
		if q.readers > 0 {
			q.cond.Broadcast()
		}
	}
	return n, nil
}

// setDeadline sets *d and wakes whoever waits when it passes.
func (q *pipeQueue) setDeadline(d *time.Time, timer **time.Timer, t time.Time) {
	q.mu.Lock()
	defer q.mu.Unlock()
	*d = t
	if *timer != nil {
		(*timer).Stop()
		*timer = nil
	}
	if !t.IsZero() {
		*timer = time.AfterFunc(time.Until(t), func() {
			q.mu.Lock()
			q.cond.Broadcast()
			q.mu.Unlock()
		})
	}
	q.cond.Broadcast()
}

func (q *pipeQueue) close(writer bool) {
	q.mu.Lock()
	defer q.mu.Unlock()
	if writer {
		q.writerClosed = true
	} else {
		q.readerClosed = true
		for _, c := range q.chunks {
			*c = (*c)[:0]
			chunkPool.Put(c)
		}
		q.chunks, q.off, q.queued = nil, 0, 0
	}
	q.cond.Broadcast()
}

// pipeConn is one end of a connection: it reads from in and writes to out.
type pipeConn struct {
	in, out *pipeQueue
}

// newPipe returns the two ends of a new connection.
func newPipe() (net.Conn, net.Conn) {
	a, b := newQueue(), newQueue()
	return &pipeConn{in: a, out: b}, &pipeConn{in: b, out: a}
}

func (c *pipeConn) Read(b []byte) (int, error)  { return c.in.read(b) }
func (c *pipeConn) Write(b []byte) (int, error) { return c.out.write(b) }

func (c *pipeConn) Close() error {
	c.in.close(false)
	c.out.close(true)
	return nil
}

func (c *pipeConn) LocalAddr() net.Addr  { return pipeAddr{} }
func (c *pipeConn) RemoteAddr() net.Addr { return pipeAddr{} }

func (c *pipeConn) SetDeadline(t time.Time) error {
	c.SetReadDeadline(t)
	return c.SetWriteDeadline(t)
}

func (c *pipeConn) SetReadDeadline(t time.Time) error {
	c.in.setDeadline(&c.in.readDeadline, &c.in.readTimer, t)
	return nil
}

func (c *pipeConn) SetWriteDeadline(t time.Time) error {
	c.out.setDeadline(&c.out.writeDeadline, &c.out.writeTimer, t)
	return nil
}
