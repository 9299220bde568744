package original

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// DefaultDir is where make original puts the binaries, from the top of
// the tree.
const DefaultDir = "_output/v0.4"

// BuildHint says in one line how to get the binaries.
var BuildHint = fmt.Sprintf("make original V04_SRC=<a Kubernetes git repository holding commit %.7s, e.g. a clone of %s>", Commit, Source)

// Available returns nil when dir holds every binary Build makes, else an
// error that says which is missing and how to build them.
func Available(dir string) error {
	if dir == "" {
		return fmt.Errorf("no directory of the original v0.4 binaries given; build them with %s", BuildHint)
	}
	for _, b := range Binaries {
		info, err := os.Stat(filepath.Join(dir, b))
		if err != nil || info.IsDir() || info.Mode()&0o111 == 0 {
			return fmt.Errorf("the original v0.4 %s is not in %s; build it with %s", b, dir, BuildHint)
		}
	}
	return nil
}

// DirBeside returns the directory make original fills for a tree whose
// make build put its binaries in binDir (_output/bin beside _output/v0.4).
func DirBeside(binDir string) string {
	return filepath.Join(filepath.Dir(binDir), filepath.Base(DefaultDir))
}

// HasEdit reports whether the binaries in dir were built with the edit
// named name (fixes.go), as their BuildInfoFile lists it: binaries built
// before an edit was added lack it until make original runs again.
func HasEdit(dir, name string) bool {
	info, err := os.ReadFile(filepath.Join(dir, BuildInfoFile))
	return err == nil && strings.Contains(string(info), "\n  "+name+": ")
}
