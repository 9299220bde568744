//go:build modern

package controller

import (
	"encoding/json"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/kube-rewind/kube-rewind/pkg/client"
)

// upstreamBurstReplicas is BurstReplicas of k8s.io/kubernetes v1.37.2,
// declared in pkg/controller/replicaset/replica_set.go and taken over by
// pkg/controller/replication: the most pods one sync creates or deletes
// (history: burst-cap, kubernetes/kubernetes#7869).
const upstreamBurstReplicas = 500

// upstreamModule is the module of this repository that requires
// k8s.io/kubernetes, relative to this package.
const upstreamModule = "../../cmd/controller-manager-upstream"

func TestTheBurstCapIsUpstreams500(t *testing.T) {
	if BurstReplicas != upstreamBurstReplicas {
		t.Errorf("BurstReplicas = %d, want %d, upstream's in k8s.io/kubernetes v1.37.2 pkg/controller/replicaset/replica_set.go", BurstReplicas, upstreamBurstReplicas)
	}
}

// TestTheBurstCapIsTheOneOfTheUpstreamManagerWeRunBeside reads
// BurstReplicas from the source of the k8s.io/kubernetes release that
// controller-manager-upstream builds, so that the port and the manager it
// is measured against cap a sync alike. The source is read from the
// module cache, without the network; until that module is downloaded
// (make upstream or make today) the test skips.
func TestTheBurstCapIsTheOneOfTheUpstreamManagerWeRunBeside(t *testing.T) {
	if _, err := os.Stat(filepath.Join(upstreamModule, "go.mod")); err != nil {
		t.Fatalf("no module requiring k8s.io/kubernetes at %s: %v", upstreamModule, err)
	}
	cmd := exec.Command("go", "list", "-m", "-json", "k8s.io/kubernetes")
	cmd.Dir = upstreamModule
	cmd.Env = append(os.Environ(), "GOPROXY=off")
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Skipf("k8s.io/kubernetes is not in the module cache (go list -m in %s: %v: %s); make upstream downloads it", upstreamModule, err, strings.TrimSpace(stderr.String()))
	}
	var mod struct{ Version, Dir string }
	if err := json.Unmarshal(out, &mod); err != nil {
		t.Fatalf("go list -m -json k8s.io/kubernetes: %v", err)
	}
	if mod.Dir == "" {
		t.Skipf("k8s.io/kubernetes %s is required but its source is not in the module cache; make upstream downloads it", mod.Version)
	}
	file := filepath.Join(mod.Dir, "pkg", "controller", "replicaset", "replica_set.go")
	theirs, err := burstReplicasIn(file)
	if err != nil {
		t.Fatalf("k8s.io/kubernetes %s: %v", mod.Version, err)
	}
	if BurstReplicas != theirs {
		t.Errorf("BurstReplicas = %d, but k8s.io/kubernetes %s caps a sync at %d (%s)", BurstReplicas, mod.Version, theirs, file)
	}
}

// burstReplicasIn returns the integer constant BurstReplicas declared in
// the Go file at path.
func burstReplicasIn(path string) (int, error) {
	f, err := parser.ParseFile(token.NewFileSet(), path, nil, 0)
	if err != nil {
		return 0, err
	}
	for _, decl := range f.Decls {
		gen, ok := decl.(*ast.GenDecl)
		if !ok || gen.Tok != token.CONST {
			continue
		}
		for _, spec := range gen.Specs {
			vs := spec.(*ast.ValueSpec)
			for i, name := range vs.Names {
				if name.Name != "BurstReplicas" {
					continue
				}
				var lit *ast.BasicLit
				if i < len(vs.Values) {
					lit, _ = vs.Values[i].(*ast.BasicLit)
				}
				if lit == nil || lit.Kind != token.INT {
					return 0, fmt.Errorf("%s declares BurstReplicas other than as an integer literal", path)
				}
				return strconv.Atoi(lit.Value)
			}
		}
	}
	return 0, fmt.Errorf("%s declares no constant BurstReplicas", path)
}

// With the default cap, a controller wanting 1 200 pods and having none
// gets 500 from its first sync, and expects those 500; the next syncs
// create the rest.
func TestOneSyncOfAControllerShort1200PodsCreates500(t *testing.T) {
	f := newFixture(t, &client.Fake{}, BurstReplicas)
	rc := newRC(1200)
	f.addRC(t, rc)
	if err := f.sync(t, rc); err != nil {
		t.Fatal(err)
	}
	if n := len(f.podControl.Templates); n != 500 {
		t.Errorf("one sync short of 1200 pods created %d, want 500", n)
	}
	rcKey, _ := KeyFunc(rc)
	exp, _, _ := f.rm.expectations.GetExpectations(rcKey)
	if add, _ := exp.GetExpectations(); add != 500 {
		t.Errorf("after one sync short of 1200 pods, %d creates expected, want 500", add)
	}
}

// With the default cap, a controller scaled to none with 1 200 pods
// deletes 500 in its first sync, and expects those 500 deletions.
func TestOneSyncOfAControllerOver1200PodsDeletes500(t *testing.T) {
	f := newFixture(t, &client.Fake{}, BurstReplicas)
	rc := newRC(0)
	f.addRC(t, rc)
	f.addPods(t, newPods(1200, rc)...)
	if err := f.sync(t, rc); err != nil {
		t.Fatal(err)
	}
	if n := len(f.podControl.DeletePodName); n != 500 {
		t.Errorf("one sync over by 1200 pods deleted %d, want 500", n)
	}
	rcKey, _ := KeyFunc(rc)
	exp, _, _ := f.rm.expectations.GetExpectations(rcKey)
	if _, del := exp.GetExpectations(); del != 500 {
		t.Errorf("after one sync over by 1200 pods, %d deletions expected, want 500", del)
	}
}
