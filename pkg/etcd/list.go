package etcd

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"path"
	"strconv"
	"strings"
	"sync/atomic"

	pb "go.etcd.io/etcd/api/v3/etcdserverpb"
	"go.etcd.io/etcd/server/v3/etcdserver"
	"go.etcd.io/etcd/server/v3/etcdserver/api/v2store"
)

// keysPrefix is where the v2 API serves keys.
const keysPrefix = "/v2/keys"

// listHandler serves a plain recursive GET of a directory (what a LIST
// sends) item by item, and hands every other request under /v2/keys/ to
// etcd's own v2 handler.
//
// Ours: etcd's v2 handler encodes its whole answer into one buffer before
// it writes a byte. For 150 000 pods that answer is the size
// examples/listcost/RESULTS.md measures, and the buffer reaches it by
// doubling, so every such LIST allocates a few times the answer in the
// apiserver process, where etcd is embedded; in 2014 etcd was a
// process of its own and the apiserver did not pay for it. This handler
// reads the same node tree from the same store, under the same lock, and
// writes the same bytes, with the same headers and status, one child node
// at a time. Errors, watches, quorum reads and writes are etcd's own.
type listHandler struct {
	// etcd is etcd's v2 client handler, set once the member is ready.
	etcd   atomic.Pointer[http.Handler]
	server *etcdserver.EtcdServer
}

func (h *listHandler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	next := h.etcd.Load()
	if next == nil {
		http.Error(w, "etcd is starting", http.StatusServiceUnavailable)
		return
	}
	if r.Method != http.MethodGet || !strings.HasPrefix(r.URL.Path, keysPrefix+"/") {
		(*next).ServeHTTP(w, r)
		return
	}
	sorted, ok := plainRecursiveGet(r)
	if !ok {
		(*next).ServeHTTP(w, r)
		return
	}
	ctx, cancel := context.WithTimeout(r.Context(), h.server.Cfg.ReqTimeout())
	defer cancel()
	key := path.Join(etcdserver.StoreKeysPrefix, r.URL.Path[len(keysPrefix):])
	resp, err := h.server.Do(ctx, pb.Request{Method: http.MethodGet, Path: key, Recursive: true, Sorted: sorted})
	if err != nil || resp.Event == nil || resp.Event.Node == nil || !resp.Event.Node.Dir {
		// etcd writes its errors, and answers that are not a listing,
		// itself; it reads the key again to do so.
		(*next).ServeHTTP(w, r)
		return
	}
	w.Header().Set("X-Etcd-Cluster-ID", h.server.Cluster().ID().String())
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("X-Etcd-Index", fmt.Sprint(resp.Event.EtcdIndex))
	w.Header().Set("X-Raft-Index", fmt.Sprint(resp.Index))
	w.Header().Set("X-Raft-Term", fmt.Sprint(resp.Term))
	bw := bufio.NewWriterSize(w, 64<<10)
	if err := writeListing(bw, resp.Event); err == nil {
		bw.Flush()
	}
}

// plainRecursiveGet reports whether r asks only for recursive=true (and
// perhaps sorted or quorum=false), as go-etcd's Get(key, sort, true) does,
// and whether the listing is to be sorted.
func plainRecursiveGet(r *http.Request) (sorted, ok bool) {
	q := r.URL.Query()
	recursive := false
	for name, values := range q {
		if len(values) != 1 {
			return false, false
		}
		b, err := strconv.ParseBool(values[0])
		if err != nil {
			return false, false
		}
		switch name {
		case "recursive":
			recursive = b
		case "sorted":
			sorted = b
		case "quorum":
			if b {
				return false, false
			}
		default:
			return false, false
		}
	}
	return sorted, recursive
}

// writeListing writes ev as etcd's writeKeyEvent would, the store's key
// prefix trimmed from every key, with each child of the listed directory
// encoded on its own.
func writeListing(w *bufio.Writer, ev *v2store.Event) error {
	dir := *ev.Node
	dir.Key = trimKey(dir.Key)
	children := dir.Nodes
	dir.Nodes = nil
	node, err := json.Marshal(&dir)
	if err != nil {
		return err
	}
	action, err := json.Marshal(ev.Action)
	if err != nil {
		return err
	}
	// node is the directory without its children; they go where
	// encoding/json puts "nodes": after the ttl, before the indexes.
	at := nodesAt(node)
	w.WriteString(`{"action":`)
	w.Write(action)
	w.WriteString(`,"node":`)
	w.Write(node[:at])
	if len(children) > 0 {
		// One buffer for every child: Encode writes what Marshal returns,
		// and a newline, which the listing leaves out.
		var one bytes.Buffer
		enc := json.NewEncoder(&one)
		w.WriteString(`,"nodes":[`)
		for i, child := range children {
			if i > 0 {
				w.WriteByte(',')
			}
			one.Reset()
			if err := enc.Encode(trimmed(child)); err != nil {
				return err
			}
			if _, err := w.Write(bytes.TrimSuffix(one.Bytes(), []byte("\n"))); err != nil {
				return err
			}
		}
		w.WriteByte(']')
	}
	w.Write(node[at:])
	if ev.PrevNode != nil {
		prev, err := json.Marshal(trimmed(ev.PrevNode))
		if err != nil {
			return err
		}
		w.WriteString(`,"prevNode":`)
		w.Write(prev)
	}
	if ev.Refresh {
		w.WriteString(`,"refresh":true`)
	}
	_, err = w.WriteString("}\n")
	return err
}

// nodesAt returns where in the encoded node its "nodes" field belongs.
// The key is an escaped string, so the field names searched for cannot
// occur inside it.
func nodesAt(node []byte) int {
	for _, field := range []string{`,"modifiedIndex":`, `,"createdIndex":`} {
		if i := bytes.LastIndex(node, []byte(field)); i >= 0 {
			return i
		}
	}
	return len(node) - 1
}

// trimmed returns n with the store's key prefix trimmed from its key and
// from every key below it, leaving n itself as it is: it may be shared
// with the store's history.
func trimmed(n *v2store.NodeExtern) *v2store.NodeExtern {
	c := *n
	c.Key = trimKey(c.Key)
	if len(n.Nodes) > 0 {
		c.Nodes = make(v2store.NodeExterns, len(n.Nodes))
		for i, nn := range n.Nodes {
			c.Nodes[i] = trimmed(nn)
		}
	}
	return &c
}

func trimKey(key string) string {
	return strings.TrimPrefix(key, etcdserver.StoreKeysPrefix)
}
