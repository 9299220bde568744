package kubecfg

import (
	"strings"
	"testing"

	"github.com/kube-rewind/kube-rewind/pkg/api"
	"sigs.k8s.io/yaml"
)

func TestParserSendsJSONAndYAMLFilesAsTheSameWireJSON(t *testing.T) {
	cases := []struct {
		storage string
		obj     api.Object
	}{
		{"pods", &api.Pod{TypeMeta: api.TypeMeta{ID: "foo"}, Labels: map[string]string{"name": "foo"}}},
		{"services", &api.Service{TypeMeta: api.TypeMeta{ID: "frontend"}, Port: 9998, Selector: map[string]string{"name": "frontend"}}},
		{"replicationControllers", nginxController()},
		{"minions", &api.Minion{TypeMeta: api.TypeMeta{ID: "m1"}}},
	}
	for _, tc := range cases {
		t.Run(tc.storage, func(t *testing.T) {
			wire, err := api.Encode(tc.obj)
			if err != nil {
				t.Fatal(err)
			}
			yamlData, err := yaml.JSONToYAML(wire)
			if err != nil {
				t.Fatal(err)
			}
			for name, data := range map[string][]byte{"json": wire, "yaml": yamlData} {
				got, err := parser.ToWireFormat(data, tc.storage)
				if err != nil {
					t.Fatalf("%s: %v", name, err)
				}
				if string(got) != string(wire) {
					t.Errorf("%s: got  %s\nwant %s", name, got, wire)
				}
			}
		})
	}
}

func TestParserRefusesAFileOfAnotherKind(t *testing.T) {
	_, err := parser.ToWireFormat([]byte(`{"kind":"Service","id":"frontend"}`), "pods")
	if err == nil || err.Error() != "data of kind 'Service', obj of type 'Pod'" {
		t.Errorf("got %v", err)
	}
}

func TestParserRefusesUnknownStorage(t *testing.T) {
	_, err := parser.ToWireFormat([]byte("{}"), "badstorage")
	if err == nil || !strings.Contains(err.Error(), "badstorage") {
		t.Errorf("got %v", err)
	}
}

func TestParserListsStorageSorted(t *testing.T) {
	if got := strings.Join(parser.SupportedWireStorage(), "|"); got != "minions|pods|replicationControllers|services" {
		t.Errorf("got %s", got)
	}
}

func TestStoragePathFromArgSplitsResourceAndID(t *testing.T) {
	cases := []struct {
		arg, storage, path string
		hasSuffix          bool
	}{
		{"pods", "pods", "pods", false},
		{"/pods/", "pods", "pods", false},
		{"pods/foo", "pods", "pods/foo", true},
		{"pods/", "pods", "pods", false},
		{"", "", "", false},
	}
	for _, tc := range cases {
		storage, path, hasSuffix := storagePathFromArg(tc.arg)
		if storage != tc.storage || path != tc.path || hasSuffix != tc.hasSuffix {
			t.Errorf("%q: got %q %q %v", tc.arg, storage, path, hasSuffix)
		}
	}
}
