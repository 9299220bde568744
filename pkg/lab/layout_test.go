package lab

import (
	"fmt"
	"os/exec"
	"path"
	"strings"
	"testing"
)

const module = "github.com/kube-rewind/kube-rewind"

// labCommands are the binaries that are themselves laboratory.
var labCommands = map[string]bool{
	module + "/cmd/annotate":       true,
	module + "/cmd/hollow-node":    true,
	module + "/cmd/local-up":       true,
	module + "/cmd/local-up-today": true,
	module + "/cmd/rcbench":        true,
	module + "/cmd/testreport":     true,
}

// allowed names the few places outside the laboratory that may reach into
// it: the apiserver binary wires the fault switch around its storage.
var allowed = map[string]string{
	module + "/cmd/apiserver": module + "/pkg/lab/faults",
}

// TestNothingOfTheSubjectImportsTheLaboratory keeps the arrows pointing
// one way: the 2014 stack, the modern additions and their binaries build
// without any package of pkg/lab, in both builds.
func TestNothingOfTheSubjectImportsTheLaboratory(t *testing.T) {
	for _, tags := range []string{"", "modern"} {
		out, err := exec.Command("go", "list", "-tags="+tags, "-f", `{{.ImportPath}} {{join .Deps " "}}`, module+"/...").CombinedOutput()
		if err != nil {
			t.Fatalf("go list -tags=%q: %v\n%s", tags, err, out)
		}
		for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
			fields := strings.Fields(line)
			pkg, deps := fields[0], fields[1:]
			if inLab(pkg) || labCommands[pkg] {
				continue
			}
			for _, d := range deps {
				if !inLab(d) {
					continue
				}
				if allowed[pkg] == d {
					continue
				}
				t.Errorf("-tags=%q: %s imports the laboratory package %s", tags, pkg, d)
			}
		}
	}
}

func inLab(pkg string) bool {
	return pkg == module+"/pkg/lab" || strings.HasPrefix(pkg, module+"/pkg/lab/")
}

// layer is one rung of the laboratory. Each of its units is a package
// ("pkg/lab/stats") or a package and every package under it
// ("pkg/lab/bench/...", as go list reads the pattern).
type layer struct {
	name  string
	units []string
}

// labLayers are the laboratory's layers, bottom first, said once: a
// package imports packages of the layers below its own and of its own
// unit, never of a layer above, nor of another unit of its layer (so the
// leaves import nothing of the laboratory). The three tools, bench, demo
// and annotate, stand side by side on what they share, which sits below
// them (source, the Go files read and cut by declaration; published, the
// published pages and their stamps); publish, which runs every tool's
// pages, stands on all three. The arrows inside a unit are its own to
// order (bench's doc says its layers). pkg/README.md's Layout says the
// same in prose.
var labLayers = []layer{
	{"the leaves", []string{
		"pkg/lab", "pkg/lab/chromium", "pkg/lab/stats", "pkg/lab/mdtable", "pkg/lab/faults", "pkg/lab/original",
		"pkg/lab/etcdpods", "pkg/lab/walpods", "pkg/lab/source", "pkg/lab/published"}},
	{"the stand-in kubelets and the tests' helpers", []string{"pkg/lab/hollownode", "pkg/lab/testutil"}},
	{"the stacks", []string{"pkg/lab/stack/..."}},
	{"the sampler", []string{"pkg/lab/sampler"}},
	{"the scenarios", []string{"pkg/lab/scenario/..."}},
	{"the tools", []string{"pkg/lab/bench/...", "pkg/lab/demo/...", "pkg/lab/annotate/..."}},
	{"publishing and the tests of whole stacks", []string{
		"pkg/lab/publish", "pkg/lab/e2e", "pkg/lab/faulttest", "pkg/lab/loadtest", "pkg/lab/testreport"}},
	{"the commands", []string{"cmd/..."}},
}

// place finds the layer and the unit of pkg, a path relative to the
// module; ok is false when no layer names it.
func place(pkg string) (level int, unit string, ok bool) {
	for i, l := range labLayers {
		for _, u := range l.units {
			base, all := strings.CutSuffix(u, "/...")
			if pkg == base || all && strings.HasPrefix(pkg, base+"/") {
				return i, u, true
			}
		}
	}
	return 0, "", false
}

// unitName is how a message names a unit: "bench" for pkg/lab/bench/....
func unitName(unit string) string { return path.Base(strings.TrimSuffix(unit, "/...")) }

// arrowFault says what is wrong with pkg importing imp, both relative to
// the module, or "" when labLayers allow it. An import of neither the
// laboratory nor a command (the subject, the standard library, a
// module) is not the layers' to judge.
func arrowFault(pkg, imp string) string {
	if !inLab(module+"/"+imp) && !strings.HasPrefix(imp, "cmd/") {
		return ""
	}
	from, fromUnit, ok := place(pkg)
	if !ok {
		return fmt.Sprintf("%s is in no layer: give it one in labLayers", pkg)
	}
	to, toUnit, ok := place(imp)
	switch {
	case !ok:
		return fmt.Sprintf("%s imports %s, which is in no layer: give it one in labLayers", pkg, imp)
	case fromUnit == toUnit || to < from:
		return ""
	case to == from:
		return fmt.Sprintf("%s imports %s: %s must not import %s, beside it among %s", pkg, imp, unitName(fromUnit), unitName(toUnit), labLayers[from].name)
	}
	return fmt.Sprintf("%s imports %s: %s must not import %s, a layer above it (%s, above %s)", pkg, imp,
		unitName(fromUnit), unitName(toUnit), labLayers[to].name, labLayers[from].name)
}

// TestTheLaboratoryLayoutPointsEveryArrowDown checks every direct import
// of every package of the laboratory and of every command, tests left
// out, against labLayers, in both builds.
func TestTheLaboratoryLayoutPointsEveryArrowDown(t *testing.T) {
	for _, tags := range []string{"", "modern"} {
		out, err := exec.Command("go", "list", "-tags="+tags, "-f", `{{.ImportPath}} {{join .Imports " "}}`,
			module+"/pkg/lab/...", module+"/cmd/...").CombinedOutput()
		if err != nil {
			t.Fatalf("go list -tags=%q: %v\n%s", tags, err, out)
		}
		for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
			fields := strings.Fields(line)
			pkg := strings.TrimPrefix(fields[0], module+"/")
			if _, _, ok := place(pkg); !ok {
				t.Errorf("-tags=%q: %s is in no layer: give it one in labLayers", tags, pkg)
				continue
			}
			for _, imp := range fields[1:] {
				imp, ours := strings.CutPrefix(imp, module+"/")
				if !ours {
					continue
				}
				if fault := arrowFault(pkg, imp); fault != "" {
					t.Errorf("-tags=%q: %s", tags, fault)
				}
			}
		}
	}
}

// TestTheLayoutRefusesAnArrowBetweenToolsOrUpward plants arrows that
// labLayers forbid, and some that they allow.
func TestTheLayoutRefusesAnArrowBetweenToolsOrUpward(t *testing.T) {
	for _, tc := range []struct {
		pkg, imp, want string
	}{
		{"pkg/lab/annotate/site", "pkg/lab/bench/publish", "pkg/lab/annotate/site imports pkg/lab/bench/publish: annotate must not import bench, beside it among the tools"},
		{"pkg/lab/demo/deck", "pkg/lab/annotate", "pkg/lab/demo/deck imports pkg/lab/annotate: demo must not import annotate, beside it among the tools"},
		{"pkg/lab/bench/report", "pkg/lab/demo", "pkg/lab/bench/report imports pkg/lab/demo: bench must not import demo, beside it among the tools"},
		{"pkg/lab/stack", "pkg/lab/scenario", "pkg/lab/stack imports pkg/lab/scenario: stack must not import scenario, a layer above it (the scenarios, above the stacks)"},
		{"pkg/lab/published", "pkg/lab/publish", "pkg/lab/published imports pkg/lab/publish: published must not import publish, a layer above it (publishing and the tests of whole stacks, above the leaves)"},
		{"pkg/lab/source", "pkg/lab/stats", "pkg/lab/source imports pkg/lab/stats: source must not import stats, beside it among the leaves"},
		{"pkg/lab/demo", "pkg/lab/nothing", "pkg/lab/demo imports pkg/lab/nothing, which is in no layer: give it one in labLayers"},
		{"pkg/lab/annotate/site", "pkg/lab/published", ""},
		{"pkg/lab/demo/deck", "pkg/lab/source", ""},
		{"pkg/lab/publish", "pkg/lab/bench", ""},
		{"pkg/lab/bench/runner", "pkg/lab/bench/report", ""},
		{"cmd/rcbench", "pkg/lab/publish", ""},
		{"pkg/lab/stack", "pkg/api", ""},
	} {
		if got := arrowFault(tc.pkg, tc.imp); got != tc.want {
			t.Errorf("%s -> %s:\n got %q\nwant %q", tc.pkg, tc.imp, got, tc.want)
		}
	}
}
