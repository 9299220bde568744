package lab

import (
	"os/exec"
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
