package designtest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/kube-rewind/kube-rewind/pkg/lab/stack/stacktest"
)

// listed is what go list -json says of one package: enough to name every
// file a build compiles.
type listed struct {
	ImportPath, Dir string
	GoFiles         []string
	CgoFiles        []string
	SFiles          []string
	DepOnly         bool
	Deps            []string
}

// testBuilds runs go list -test -deps over the module with the given tags
// and returns, for each package of ./..., the files its test binary (or,
// without tests, the package itself) compiles: one line per package linked
// in, naming its directory and files.
func testBuilds(t *testing.T, root string, tags ...string) map[string][]string {
	t.Helper()
	args := append([]string{"list", "-json=ImportPath,Dir,GoFiles,CgoFiles,SFiles,DepOnly,Deps", "-test", "-deps"}, tags...)
	cmd := exec.Command("go", append(args, "./...")...)
	cmd.Dir = root
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go %s: %v", strings.Join(args, " "), err)
	}
	all := map[string]listed{}
	for dec := json.NewDecoder(bytes.NewReader(out)); ; {
		var p listed
		if err := dec.Decode(&p); err == io.EOF {
			break
		} else if err != nil {
			t.Fatal(err)
		}
		all[p.ImportPath] = p
	}
	builds := map[string][]string{}
	for name, p := range all {
		if p.DepOnly {
			continue
		}
		// p, "p [p.test]", "p_test [p.test]" and p.test all add to p's
		// build; the test main is generated from the test files and is
		// left out.
		pkg, _, _ := strings.Cut(name, " ")
		pkg = strings.TrimSuffix(strings.TrimSuffix(pkg, ".test"), "_test")
		for _, dep := range append([]string{name}, p.Deps...) {
			d := all[dep]
			if strings.HasSuffix(dep, ".test") {
				continue
			}
			files := slices.Concat(d.GoFiles, d.CgoFiles, d.SFiles)
			builds[pkg] = append(builds[pkg], fmt.Sprintf("%s %s %v", dep, d.Dir, files))
		}
	}
	for pkg := range builds {
		slices.Sort(builds[pkg])
		builds[pkg] = slices.Compact(builds[pkg])
	}
	return builds
}

// TestTheModernListHoldsEveryPackageTheTagChanges checks the list of
// packages make test runs a second time with -tags modern: every package
// whose test binary compiles other files in the modern build (its own, its
// tests', or those of anything linked in) must be on it, so that a new
// tagged file cannot go untested; and no other, since those compile to the
// same code in both builds.
func TestTheModernListHoldsEveryPackageTheTagChanges(t *testing.T) {
	if testing.Short() {
		t.Skip("lists the module twice")
	}
	if Design == "modern" {
		t.Skip("the untagged build checks the list for both builds")
	}
	root, err := stacktest.ModuleRoot()
	if err != nil {
		t.Fatal(err)
	}
	script := exec.Command(filepath.Join(root, ".ci", "modern-packages"))
	out, err := script.Output()
	if err != nil {
		t.Fatalf(".ci/modern-packages: %v", err)
	}
	onList := map[string]bool{}
	for _, p := range strings.Fields(string(out)) {
		onList[p] = true
	}
	legacy, modern := testBuilds(t, root), testBuilds(t, root, "-tags", "modern")
	for pkg := range modern {
		if _, ok := legacy[pkg]; !ok {
			legacy[pkg] = nil
		}
	}
	differs := 0
	for pkg, files := range legacy {
		changed := !slices.Equal(files, modern[pkg])
		switch {
		case changed && !onList[pkg]:
			t.Errorf("%s builds differently with -tags modern but is not on the modern list", pkg)
		case !changed && onList[pkg]:
			t.Errorf("%s is on the modern list but builds the same with and without the tag", pkg)
		}
		if changed {
			differs++
		}
	}
	for pkg := range onList {
		if _, ok := legacy[pkg]; !ok {
			t.Errorf("the modern list names %s, which is not a package of the module", pkg)
		}
	}
	t.Logf("%d of %d packages build differently with -tags modern", differs, len(legacy))
}
