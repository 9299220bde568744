package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"sigs.k8s.io/yaml"
)

// resourceOfKind maps a manifest's kind to the resource kubecfg creates it
// as.
var resourceOfKind = map[string]string{
	"Pod":                   "pods",
	"ReplicationController": "replicationControllers",
	"Service":               "services",
}

// droppedKeys are keys of the 2014 manifests that no v1beta1 type had; v0.4
// ignored them, and so does the decoder here.
var droppedKeys = map[string]bool{"enabled": true, "type": true}

// clearedPaths are values the v0.4 server replaced on create, as this one
// does: a controller's template loses its manifest id, since the pod API
// gives each pod its own.
var clearedPaths = map[string]bool{".desiredState.podTemplate.desiredState.manifest.id": true}

// TestEveryManifestOf2014IsCreatedUnchangedAndReadBack creates every
// non-list manifest shipped with v0.2, v0.4 and v0.5 through kubecfg, as a
// new user would, against the real apiserver, reads each back with
// -json and checks that everything the manifest said is there.
func TestEveryManifestOf2014IsCreatedUnchangedAndReadBack(t *testing.T) {
	url, _ := realAPIServer(t)
	folders, _ := filepath.Glob(filepath.Join(manifestsDir(t), "v0.*"))
	if len(folders) != 3 {
		t.Fatalf("found %d folders of manifests, want 3", len(folders))
	}
	for _, folder := range folders {
		files := nonListManifests(t, folder)
		if len(files) != 10 {
			t.Fatalf("%s: found %d manifests, want 10", folder, len(files))
		}
		for _, file := range files {
			name := filepath.Base(folder) + "/" + filepath.Base(file)
			t.Run(name, func(t *testing.T) {
				want := readManifest(t, file)
				kind, _ := want["kind"].(string)
				id, _ := want["id"].(string)
				resource := resourceOfKind[kind]
				if resource == "" || id == "" {
					t.Fatalf("kind %q id %q", kind, id)
				}
				if got := kubecfgAt(url, "", "-c", file, "create", resource); got.code != 0 {
					t.Fatalf("create: exit %d, stderr %q", got.code, got.stderr)
				}
				got := kubecfgAt(url, "", "-json", "get", resource+"/"+id)
				if got.code != 0 {
					t.Fatalf("get: exit %d, stderr %q", got.code, got.stderr)
				}
				var back map[string]interface{}
				if err := json.Unmarshal([]byte(got.stdout), &back); err != nil {
					t.Fatalf("reading back: %v in %q", err, got.stdout)
				}
				for _, diff := range missingFrom(want, back, "") {
					t.Error(diff)
				}
				// Two manifests of a folder share an id (service.json and
				// external-service.json): deleting makes room for the next.
				if got := kubecfgAt(url, "", "delete", resource+"/"+id); got.code != 0 {
					t.Fatalf("delete: exit %d, stderr %q", got.code, got.stderr)
				}
			})
		}
	}
}

// TestTwoManifestsOfOneIDConflictAsIn2014 creates the two v0.4 services
// named "example" one after the other: the second is refused with 409
// AlreadyExists, as v0.4 refused it.
func TestTwoManifestsOfOneIDConflictAsIn2014(t *testing.T) {
	dir := filepath.Join(manifestsDir(t), "v0.4")
	url, _ := realAPIServer(t)
	if got := kubecfgAt(url, "", "-c", filepath.Join(dir, "service.json"), "create", "services"); got.code != 0 {
		t.Fatalf("first create: %+v", got)
	}
	got := kubecfgAt(url, "", "-c", filepath.Join(dir, "external-service.json"), "create", "services")
	if got.code != 255 || !strings.Contains(got.stderr, "already exists") {
		t.Errorf("second create: exit %d, stderr %q; want 255 and already exists", got.code, got.stderr)
	}
}

// manifestsDir returns the folder of the manifests Kubernetes shipped with
// v0.2, v0.4 and v0.5 (api/examples and examples/guestbook of each
// release, one folder each). They are not part of this repository:
// $KUBE_REWIND_MANIFESTS_2014 names the folder, as for pkg/api's tests.
// Without the variable the test skips; with it, a folder without them
// fails it.
func manifestsDir(t *testing.T) string {
	t.Helper()
	dir := os.Getenv("KUBE_REWIND_MANIFESTS_2014")
	if dir == "" {
		t.Skip("the 2014 manifests are not part of this repository: set KUBE_REWIND_MANIFESTS_2014 to a folder holding v0.2/, v0.4/ and v0.5/ to check them")
	}
	if _, err := os.Stat(filepath.Join(dir, "v0.4", "pod.json")); err != nil {
		t.Fatalf("KUBE_REWIND_MANIFESTS_2014=%s does not hold the 2014 manifests: %v", dir, err)
	}
	return dir
}

// nonListManifests returns the manifests of folder that hold one object.
func nonListManifests(t *testing.T, folder string) []string {
	t.Helper()
	all, err := filepath.Glob(filepath.Join(folder, "*.json"))
	if err != nil {
		t.Fatal(err)
	}
	var files []string
	for _, f := range all {
		if !strings.HasSuffix(f, "-list.json") {
			files = append(files, f)
		}
	}
	return files
}

// readManifest reads a manifest the way v0.4 did, through a YAML parser, so
// that the trailing comma of v0.5's redis-slave-controller.json is no
// obstacle.
func readManifest(t *testing.T, file string) map[string]interface{} {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]interface{}
	if err := yaml.Unmarshal(data, &m); err != nil {
		t.Fatal(err)
	}
	return m
}

// missingFrom lists every value of want that got lacks or holds otherwise,
// by its path.
func missingFrom(want, got interface{}, path string) []string {
	switch w := want.(type) {
	case map[string]interface{}:
		g, ok := got.(map[string]interface{})
		if !ok {
			return []string{path + ": not an object in the answer"}
		}
		var out []string
		for k, v := range w {
			if droppedKeys[k] || clearedPaths[path+"."+k] {
				continue
			}
			out = append(out, missingFrom(v, g[k], path+"."+k)...)
		}
		return out
	case []interface{}:
		g, ok := got.([]interface{})
		if !ok || len(g) != len(w) {
			return []string{path + ": not a list of the same length in the answer"}
		}
		var out []string
		for i := range w {
			out = append(out, missingFrom(w[i], g[i], path+"["+itoa(uint64(i))+"]")...)
		}
		return out
	default:
		if want != got {
			return []string{path + ": want " + jsonString(want) + ", got " + jsonString(got)}
		}
		return nil
	}
}

func jsonString(v interface{}) string {
	data, _ := json.Marshal(v)
	return string(data)
}
