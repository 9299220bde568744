package api

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func TestEncodeStampsKindAndVersionWithoutChangingTheObject(t *testing.T) {
	pod := &Pod{TypeMeta: TypeMeta{ID: "php", ResourceVersion: 7}}
	data, err := Encode(pod)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"kind":"Pod","id":"php","creationTimestamp":null,"resourceVersion":7,"apiVersion":"v1beta1",`
	if !strings.HasPrefix(string(data), want) {
		t.Errorf("got %s", data)
	}
	if pod.Kind != "" || pod.APIVersion != "" {
		t.Errorf("Encode changed its argument: %+v", pod.TypeMeta)
	}
}

func TestDecodeIntoAcceptsYAMLAndSloppyJSON(t *testing.T) {
	for name, body := range map[string]string{
		"yaml":           "kind: Service\napiVersion: v1beta1\nid: example\nport: 8000\n",
		"trailing comma": `{"kind": "Service", "id": "example", "port": 8000,}`,
		"no kind":        `{"id": "example", "port": 8000}`,
	} {
		var svc Service
		if err := DecodeInto([]byte(body), &svc); err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		if svc.ID != "example" || svc.Port != 8000 || svc.Kind != "" {
			t.Errorf("%s: decoded %+v", name, svc)
		}
	}
}

func TestDecodeIntoRefusesAnotherKindOrVersion(t *testing.T) {
	var pod Pod
	err := DecodeInto([]byte(`{"kind":"Service","id":"x"}`), &pod)
	if err == nil || err.Error() != "data of kind 'Service', obj of type 'Pod'" {
		t.Errorf("got %v", err)
	}
	if err := DecodeInto([]byte(`{"kind":"Pod","apiVersion":"v1beta3"}`), &pod); err == nil {
		t.Error("v1beta3 accepted")
	}
	for _, bad := range []string{"", "[1,2]", "{", "just words"} {
		if err := DecodeInto([]byte(bad), &pod); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}

func TestDecodeNeedsVersionAndKind(t *testing.T) {
	if _, err := Decode([]byte(`{"kind":"Pod"}`)); err == nil {
		t.Error("no apiVersion accepted")
	}
	obj, err := Decode([]byte(`{"kind":"Status","apiVersion":"v1beta1","status":"Failure","code":404}`))
	if err != nil {
		t.Fatal(err)
	}
	if s, ok := obj.(*Status); !ok || s.Code != 404 {
		t.Errorf("got %#v", obj)
	}
}

func TestEveryKindRoundTrips(t *testing.T) {
	for _, kind := range Kinds() {
		obj, _ := New(kind)
		obj.GetTypeMeta().ID = "x"
		data, err := Encode(obj)
		if err != nil {
			t.Fatalf("%s: %v", kind, err)
		}
		back, err := Decode(data)
		if err != nil {
			t.Fatalf("%s: %v", kind, err)
		}
		if KindOf(back) != kind || back.GetTypeMeta().ID != "x" {
			t.Errorf("%s came back as %s %+v", kind, KindOf(back), back.GetTypeMeta())
		}
	}
}

// TestThe2014ManifestsDecode reads the example files v0.4 shipped and checks
// that each decodes into the type its kind names. They are not part of this
// repository: $KUBE_REWIND_MANIFESTS_2014 names a folder holding them, one
// folder per release (v0.2, v0.4, v0.5), as cmd/kubecfg's tests read it
// too. Without the variable the test skips; with it, a folder without them
// fails it.
func TestThe2014ManifestsDecode(t *testing.T) {
	root := os.Getenv("KUBE_REWIND_MANIFESTS_2014")
	if root == "" {
		t.Skip("the 2014 manifests are not part of this repository: set KUBE_REWIND_MANIFESTS_2014 to a folder holding v0.4/*.json to check them")
	}
	files, _ := filepath.Glob(filepath.Join(root, "v0.4", "*.json"))
	if len(files) == 0 {
		t.Fatalf("KUBE_REWIND_MANIFESTS_2014=%s holds no v0.4/*.json", root)
	}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := Decode(data); err != nil {
			t.Errorf("%s: %v", filepath.Base(f), err)
		}
	}
}

func TestDecodeIntoRefusesAnythingAfterTheObject(t *testing.T) {
	for _, body := range []string{
		`{"id":"a"} {"id":"b"}`,
		`{"id":"a"} garbage`,
		`{"id":"a"}]`,
		"id: a\n---\nid: b\n",
		"id: a\n---\n---\nid: b\n",
		"{\"id\":\"a\"}\n---\n{\"id\":\"b\"}",
		"id: a\n...\nid: b\n",
	} {
		var pod Pod
		if err := DecodeInto([]byte(body), &pod); err == nil {
			t.Errorf("%q read as %+v", body, pod)
		}
	}
	for _, body := range []string{"id: a\n---\n", "---\nid: a\n", "id: a\n...\n", "# note\nid: a\n# end\n", "{\"id\":\"a\"}\n\n"} {
		var pod Pod
		if err := DecodeInto([]byte(body), &pod); err != nil || pod.ID != "a" {
			t.Errorf("%q: %v, %+v", body, err, pod)
		}
	}
}

func TestV1beta1ContainerStateAndMinionResourcesRoundTrip(t *testing.T) {
	const podBody = `{"kind":"Pod","id":"php","currentState":{"info":{"nginx":{"state":{"running":{"startedAt":"2014-10-14T16:46:22Z"}},"restartCount":1,"image":"dockerfile/nginx"}}}}`
	var pod Pod
	if err := DecodeInto([]byte(podBody), &pod); err != nil {
		t.Fatal(err)
	}
	status := pod.CurrentState.Info["nginx"]
	if status.State.Running == nil || status.State.Running.StartedAt.Year() != 2014 || status.RestartCount != 1 {
		t.Fatalf("decoded %+v", status)
	}
	data, err := Encode(&pod)
	if err != nil {
		t.Fatal(err)
	}
	if want := `"info":{"nginx":{"state":{"running":{"startedAt":"2014-10-14T16:46:22Z"}},"restartCount":1,"image":"dockerfile/nginx"}}`; !strings.Contains(string(data), want) {
		t.Errorf("encoded %s\nwant it to hold %s", data, want)
	}

	var minion Minion
	if err := DecodeInto([]byte(`{"id":"m1","resources":{"capacity":{"cpu":1000,"memory":"3Gi"}}}`), &minion); err != nil {
		t.Fatal(err)
	}
	capacity := minion.NodeResources.Capacity
	if capacity[ResourceCPU].IntVal != 1000 || capacity[ResourceMemory].StrVal != "3Gi" {
		t.Errorf("capacity %+v", capacity)
	}
}

func TestJSONThatIsNotJSONSaysWhereItBroke(t *testing.T) {
	for name, tc := range map[string]struct{ body, want string }{
		"truncated": {"{\"kind\": \"Pod\", \"id\": \"a\"",
			"invalid JSON at line 1, column 25, the end of the input: unexpected end of JSON input (nor is it YAML: "},
		"missing comma": {"{\n  \"id\": \"a\"\n  \"kind\": \"Pod\"\n}",
			"invalid JSON at line 3, column 3: invalid character '\"' after object key:value pair (nor is it YAML: "},
	} {
		err := DecodeInto([]byte(tc.body), &Pod{})
		if err == nil || !strings.HasPrefix(err.Error(), tc.want) {
			t.Errorf("%s: got %v\nwant %s...", name, err, tc.want)
		}
	}
}

// TestDecodeIntoDecodesAsEncodingJSON checks the single-pass decoder
// against encoding/json's own on bodies that test its rules: unknown and
// differently-cased names, nulls, escapes, type errors, and duplicates.
func TestDecodeIntoDecodesAsEncodingJSON(t *testing.T) {
	for _, body := range []string{
		`{"id":"a","labels":{"x":"<&>\u2028"},"desiredState":{"manifest":{"containers":[{"name":"c","ports":[{"containerPort":80}]}]}}}`,
		`{"ID":"upper","Labels":{"a":"b"},"unknown":[1,2,{"x":null}]}`,
		`{"id":null,"labels":null,"creationTimestamp":"2014-10-01T00:00:00Z","resourceVersion":7}`,
		`{"id":"a","id":"b"}`,
		`{"id":1}`,
		`{"id":"a","resourceVersion":-1}`,
		`{"kind":"Pod","apiVersion":"v1beta1","id":"k"}`,
		`{"kind":"Service","id":"k"}`,
		`{"id":"\ud800 lone surrogate"}`,
	} {
		var want, got Pod
		wantErr := decodeJSONInto([]byte(body), &want)
		gotErr := DecodeInto([]byte(body), &got)
		if !reflect.DeepEqual(got, want) || fmt.Sprint(gotErr) != fmt.Sprint(wantErr) {
			t.Errorf("%s: DecodeInto gives %+v, %v; encoding/json %+v, %v", body, got, gotErr, want, wantErr)
		}
	}
}
