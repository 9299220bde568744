package today

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// The files make today writes into _output/today.
const (
	Etcd              = "etcd"
	APIServer         = "kube-apiserver"
	ControllerManager = "kube-controller-manager"
	Scheduler         = "kube-scheduler"
	KWOK              = "kwok"
	Kubectl           = "kubectl"
	// StagesFile holds KWOK's stage configs, read from its module by make
	// today: nodes made Ready and kept so by leases, pods made Running
	// and deleted.
	StagesFile = "kwok-stages.yaml"
)

// needed are the files a stack cannot start without; kubectl is for
// people, and the stack does not run it.
var needed = []string{Etcd, APIServer, ControllerManager, Scheduler, KWOK, StagesFile}

const module = "github.com/kube-rewind/kube-rewind"

// DirEnv names the directory of today's binaries; the Makefile exports it
// for the tests, pointing at _output/today.
const DirEnv = "KUBE_REWIND_TODAY"

// BuildHint says how to build what is missing, in one line.
const BuildHint = "make today builds them (several CPU-minutes the first time)"

// DirBeside is where a program whose binaries are in binDir (make
// build's _output/bin) finds today's: $KUBE_REWIND_TODAY, else the
// folder make today fills beside binDir (_output/today).
func DirBeside(binDir string) string {
	if dir := os.Getenv(DirEnv); dir != "" {
		return dir
	}
	return filepath.Join(filepath.Dir(binDir), "today")
}

// Dir returns the directory of today's binaries: $KUBE_REWIND_TODAY, else
// _output/today at the top of this repository, found upward from the
// working directory, else "".
func Dir() string {
	if dir := os.Getenv(DirEnv); dir != "" {
		return dir
	}
	wd, err := os.Getwd()
	if err != nil {
		return ""
	}
	for dir := wd; ; dir = filepath.Dir(dir) {
		if data, err := os.ReadFile(filepath.Join(dir, "go.mod")); err == nil && strings.HasPrefix(string(data), "module "+module+"\n") {
			return filepath.Join(dir, "_output", "today")
		}
		if filepath.Dir(dir) == dir {
			return ""
		}
	}
}

// Missing returns "" when dir holds everything a stack runs, else one
// line naming what is missing and how to build it.
func Missing(dir string) string {
	if dir == "" {
		return "today's binaries: no _output/today found from here; " + BuildHint
	}
	var missing []string
	for _, name := range needed {
		if _, err := os.Stat(filepath.Join(dir, name)); err != nil {
			missing = append(missing, name)
		}
	}
	if len(missing) == 0 {
		return ""
	}
	return fmt.Sprintf("today's binaries: %s not in %s; %s", strings.Join(missing, ", "), dir, BuildHint)
}
