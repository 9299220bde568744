package apiserver

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"reflect"
	"runtime"
	"sync"

	"github.com/golang/glog"

	"github.com/kube-rewind/kube-rewind/pkg/api"
)

// streamListMin is the number of items from which a list is written item
// by item instead of encoded whole first.
const streamListMin = 64

// writeList writes a list answer with status 200, the same bytes
// writeJSON would write.
//
// Ours: v0.4 encoded a whole list into one buffer before writing it; for
// 150 000 pods that buffer grows, by doubling, past the whole answer's
// size (examples/listcost/RESULTS.md measures that answer), and is
// copied once more before it is sent. Here a long list is written a
// chunk of items at a time: the list's head with an empty items array is
// encoded as Encode encodes it, then each item as encoding/json encodes an
// element of the array (encodeItems). Should an item fail to encode
// after the head went out, the connection is cut, so that no client takes
// a truncated list for a whole one.
func writeList(w http.ResponseWriter, list api.Object) {
	items, head, ok := splitList(list)
	if !ok {
		writeJSON(w, http.StatusOK, list)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(http.StatusOK)
	if _, err := w.Write(head[:len(head)-len("]}")]); err != nil {
		return
	}
	stop := make(chan struct{})
	defer close(stop)
	for c := range encodeItems(items, stop) {
		<-c.done
		if c.err != nil {
			glog.Errorf("encoding a %T answer: %v", list, c.err)
			panic(http.ErrAbortHandler)
		}
		_, err := w.Write(c.buf.Bytes())
		c.buf.Reset()
		chunkBuffers.Put(c.buf)
		if err != nil {
			return
		}
	}
	w.Write([]byte("]}"))
}

// encodeChunk is how many items of a list one goroutine encodes at a time.
const encodeChunk = 256

// encoded is one chunk of a list's items, encoded as the elements of a
// JSON array are, with the comma before it unless it is the first.
type encoded struct {
	buf  *bytes.Buffer
	err  error
	done chan struct{}
}

// chunkBuffers keeps the buffers of written chunks for the next ones.
var chunkBuffers = sync.Pool{New: func() any { return new(bytes.Buffer) }}

// encodeItems encodes items a chunk at a time on as many goroutines as
// the process may run at once, and hands the chunks back in order, a few
// ahead of the one being written. Closing stop ends it early.
//
// Ours: the items of a long list are encoded in parallel. Encoding is the
// last step of a LIST, after every pod has been read and decoded, so done
// one item after another it leaves all but one core idle: for 150 000
// pods, a few hundred milliseconds.
func encodeItems(items reflect.Value, stop <-chan struct{}) <-chan *encoded {
	workers := runtime.GOMAXPROCS(0)
	out := make(chan *encoded, workers)
	go func() {
		defer close(out)
		busy := make(chan struct{}, workers)
		for start := 0; start < items.Len(); start += encodeChunk {
			select {
			case busy <- struct{}{}:
			case <-stop:
				return
			}
			c := &encoded{buf: chunkBuffers.Get().(*bytes.Buffer), done: make(chan struct{})}
			select {
			case out <- c:
			case <-stop:
				return
			}
			go func(start, end int) {
				defer func() {
					close(c.done)
					<-busy
				}()
				enc := json.NewEncoder(c.buf)
				for i := start; i < end; i++ {
					if i > 0 {
						c.buf.WriteByte(',')
					}
					if err := enc.Encode(items.Index(i).Addr().Interface()); err != nil {
						c.err = fmt.Errorf("item %d: %v", i, err)
						return
					}
					// Encode ends each value with a newline, which an
					// array's elements do not have.
					c.buf.Truncate(c.buf.Len() - 1)
				}
			}(start, min(start+encodeChunk, items.Len()))
		}
	}()
	return out
}

// splitList returns the items of a long list and the list's JSON with an
// empty items array at its end; ok is false for anything else, which
// writeJSON then writes whole.
func splitList(list api.Object) (items reflect.Value, head []byte, ok bool) {
	v := reflect.ValueOf(list)
	if v.Kind() != reflect.Pointer || v.IsNil() || v.Elem().Kind() != reflect.Struct {
		return reflect.Value{}, nil, false
	}
	field := v.Elem().FieldByName("Items")
	if !field.IsValid() || field.Kind() != reflect.Slice || field.Len() < streamListMin {
		return reflect.Value{}, nil, false
	}
	empty := reflect.New(v.Elem().Type())
	empty.Elem().Set(v.Elem())
	empty.Elem().FieldByName("Items").Set(reflect.MakeSlice(field.Type(), 0, 0))
	head, err := api.Encode(empty.Interface().(api.Object))
	if err != nil || !bytes.HasSuffix(head, []byte(`"items":[]}`)) {
		return reflect.Value{}, nil, false
	}
	return field, head, true
}
