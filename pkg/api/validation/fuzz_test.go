package validation

import (
	"os"
	"path/filepath"
	"testing"

	"k8s.io/apimachinery/third_party/forked/golang/reflect"

	"github.com/kube-rewind/kube-rewind/pkg/api"
	"github.com/kube-rewind/kube-rewind/pkg/util"
)

// semantic compares decoded objects as the wire sees them: a nil map or
// slice equals an empty one (omitempty writes neither), and two times are
// equal when they name the same instant, whatever their location.
var semantic = reflect.EqualitiesOrDie(func(a, b util.Time) bool { return a.Equal(b.Time) })

// fuzzSeeds are the bodies the fuzzer starts from: every example object of
// the repository, and a few shapes that once broke a decoder somewhere.
func fuzzSeeds(f *testing.F) {
	for _, pattern := range []string{"../../../api/examples/*", "../../../examples/*/*.json"} {
		files, _ := filepath.Glob(pattern)
		for _, file := range files {
			// examples/talk holds talk-mode recordings of hundreds of
			// kilobytes, not API objects: as seeds they slowed the fuzzer
			// to a few executions a second.
			if filepath.Base(filepath.Dir(file)) == "talk" {
				continue
			}
			data, err := os.ReadFile(file)
			if err != nil {
				f.Fatal(err)
			}
			f.Add(data)
		}
	}
	for _, s := range []string{
		`{"id":"a","creationTimestamp":"2014-10-14T12:00:00.5+02:00"}`,
		`{"id":"a","creationTimestamp":"0000-01-01T00:30:00+01:00"}`,
		`{"id":"a","creationTimestamp":"9999-12-31T23:30:00-01:00"}`,
		`{"id":"a","labels":{},"annotations":{}}`,
		`{"id":"a","port":80,"selector":{"a":"b"},"containerPort":"http"}`,
		`{"id":"a","endpoints":["[::1]:80","1.2.3.4:65535"]}`,
		`{"podID":"a","host":"b"}`,
		`{"id":"a","desiredState":{"replicas":1,"replicaSelector":{"a":"b"},"podTemplate":{"labels":{"a":"b"},"desiredState":{"manifest":{"version":"v1beta1","containers":[{"name":"c","image":"i","ports":[{"containerPort":80}]}]}}}}}`,
		"id: a\nlabels: {a: b}\n",
		`{"id":"a","id":"b"}`,
		`{"id":"\u0041\u00e9"}`,
		`{"resourceVersion":18446744073709551615}`,
		`[]`, `null`, `{}`, "",
	} {
		f.Add([]byte(s))
	}
}

// FuzzDecodeAndValidate decodes arbitrary bytes into every kind a client
// may write, validates what decodes, and checks that what validation
// accepts survives the trip to storage and back: encoded, decoded again, it
// is the same object and still valid. A value that could be stored but not
// read back would break every LIST of its resource, as a bad id did in
// 2014.
func FuzzDecodeAndValidate(f *testing.F) {
	fuzzSeeds(f)
	kinds := []string{"Pod", "ReplicationController", "Service", "Endpoints", "Minion", "Binding"}
	f.Fuzz(func(t *testing.T, data []byte) {
		// Decoding the kinds nobody writes must not panic either.
		for _, kind := range api.Kinds() {
			obj, _ := api.New(kind)
			api.DecodeInto(data, obj)
		}
		api.Decode(data)

		for _, kind := range kinds {
			obj, _ := api.New(kind)
			if err := api.DecodeInto(data, obj); err != nil {
				continue
			}
			if obj.GetTypeMeta().Namespace == "" {
				obj.GetTypeMeta().Namespace = api.NamespaceDefault
			}
			if errs := validate(obj); len(errs) > 0 {
				continue
			}
			wire, err := api.Encode(obj)
			if err != nil {
				t.Fatalf("%s accepted by validation cannot be encoded: %v\n%+v", kind, err, obj)
			}
			back, _ := api.New(kind)
			if err := api.DecodeInto(wire, back); err != nil {
				t.Fatalf("%s accepted by validation cannot be decoded again: %v\nwire: %s", kind, err, wire)
			}
			if !semantic.DeepEqual(obj, back) {
				t.Fatalf("%s changed on the way through the wire:\nbefore %+v\nafter  %+v\nwire: %s", kind, obj, back, wire)
			}
			if errs := validate(back); len(errs) > 0 {
				t.Fatalf("%s valid before the wire is invalid after it: %v\nwire: %s", kind, errs, wire)
			}
		}
	})
}
