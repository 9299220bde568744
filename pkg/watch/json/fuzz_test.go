package json

import (
	"bytes"
	"io"
	"testing"

	"github.com/kube-rewind/kube-rewind/pkg/watch"
)

// FuzzWatchDecoder reads arbitrary bytes as a watch stream. The decoder must
// not panic, must end (every call consumes input or reports an error), and
// every event it hands out must carry a known type and an object that
// encodes back into a line the decoder reads as the same event.
func FuzzWatchDecoder(f *testing.F) {
	for _, s := range []string{
		`{"type":"ADDED","object":{"kind":"Pod","apiVersion":"v1beta1","id":"a","resourceVersion":3}}` + "\n",
		`{"type":"DELETED","object":{"kind":"ReplicationController","apiVersion":"v1beta1","id":"c"}}` + "\n" +
			`{"type":"MODIFIED","object":{"kind":"Service","apiVersion":"v1beta1","id":"s","port":80}}` + "\n",
		`{"type":"ERROR","object":{"kind":"Status","apiVersion":"v1beta1","status":"Failure","code":410}}` + "\n",
		`{"type":"ADDED"}` + "\n",
		`{"type":"BOOKMARK","object":{}}` + "\n",
		`{"type":"ADDED","object":{"kind":"Nope","apiVersion":"v1beta1"}}` + "\n",
		`{"type":"ADDED","object":[]}` + "\n",
		`{"type":"ADDED","object":null}` + "\n",
		`{"Type":"ADDED","Object":{"kind":"Pod","apiVersion":"v1beta1"}}` + "\n",
		"\n\n\n", "{", "null\n", "[1]\n", `"x"` + "\n", "\x00\xff\n",
		`{"type":"ADDED","object":{"kind":"Pod","apiVersion":"v1beta1","creationTimestamp":"0000-01-01T00:30:00+01:00"}}` + "\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, stream []byte) {
		d := NewDecoder(io.NopCloser(bytes.NewReader(stream)))
		defer d.Close()
		// Each successful Decode eats at least one line, so there can be no
		// more events than lines.
		limit := bytes.Count(stream, []byte("\n")) + 1
		for i := 0; ; i++ {
			if i > limit {
				t.Fatalf("more than %d events from %d lines", i, limit)
			}
			typ, obj, err := d.Decode()
			if err != nil {
				return
			}
			switch typ {
			case watch.Added, watch.Modified, watch.Deleted, watch.Error:
			default:
				t.Fatalf("event of unknown type %q", typ)
			}
			if obj == nil {
				t.Fatalf("%s event without an object", typ)
			}
			line, err := Object(&watch.Event{Type: typ, Object: obj})
			if err != nil {
				t.Fatalf("a decoded %s event does not encode: %v", typ, err)
			}
			again := NewDecoder(io.NopCloser(bytes.NewReader(append(line, '\n'))))
			typ2, obj2, err := again.Decode()
			if err != nil || typ2 != typ {
				t.Fatalf("re-encoded event %s reads back as %s, %v", line, typ2, err)
			}
			line2, err := Object(&watch.Event{Type: typ2, Object: obj2})
			if err != nil || !bytes.Equal(line, line2) {
				t.Fatalf("event changed on a second trip:\n%s\n%s", line, line2)
			}
		}
	})
}
