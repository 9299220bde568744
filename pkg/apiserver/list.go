package apiserver

import (
	"bytes"
	"encoding/json"
	"net/http"
	"reflect"

	"github.com/golang/glog"

	"github.com/kube-rewind/kube-rewind/pkg/api"
)

// streamListMin is the number of items from which a list is written item
// by item instead of encoded whole first.
const streamListMin = 64

// streamFlushBytes is how much encoded JSON is gathered before it is
// written out.
const streamFlushBytes = 32 << 10

// writeList writes a list answer with status 200, the same bytes
// writeJSON would write.
//
// Ours: v0.4 encoded a whole list into one buffer before writing it; for
// 150 000 pods that buffer grows, by doubling, to some 100 MB, and is
// copied once more before it is sent. Here a long list is written item
// by item: the list's head with an empty items array is encoded as
// Encode encodes it, then each item as encoding/json encodes an element of
// the array, through one small buffer. Should an item fail to encode
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
	buf := bytes.NewBuffer(make([]byte, 0, streamFlushBytes+4096))
	buf.Write(head[:len(head)-len("]}")])
	enc := json.NewEncoder(buf)
	for i := 0; i < items.Len(); i++ {
		if i > 0 {
			buf.WriteByte(',')
		}
		if err := enc.Encode(items.Index(i).Addr().Interface()); err != nil {
			glog.Errorf("encoding item %d of a %T answer: %v", i, list, err)
			panic(http.ErrAbortHandler)
		}
		// Encode ends each value with a newline, which an array's
		// elements do not have.
		buf.Truncate(buf.Len() - 1)
		if buf.Len() >= streamFlushBytes {
			if _, err := w.Write(buf.Bytes()); err != nil {
				return
			}
			buf.Reset()
		}
	}
	buf.WriteString("]}")
	w.Write(buf.Bytes())
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
