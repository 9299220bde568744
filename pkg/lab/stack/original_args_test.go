package stack

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kube-rewind/kube-rewind/pkg/lab/original"
)

// TestTheV04APIServerTakesOnlyTheProfilingFlagAndOnlyOnceBuiltWithIt:
// any other flag of ours is refused, and so is the profiling flag for
// binaries built before make original added it, saying how to rebuild.
func TestTheV04APIServerTakesOnlyTheProfilingFlagAndOnlyOnceBuiltWithIt(t *testing.T) {
	dir := t.TempDir()
	info := filepath.Join(dir, original.BuildInfoFile)
	profiling := []string{ProfilingFlag + "127.0.0.1:1234"}
	if err := os.WriteFile(info, []byte("Kubernetes v0.4\nedits to the exported tree:\n  manager metrics page: measurement only\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := checkOriginalAPIServerArgs(dir, nil); err != nil {
		t.Errorf("no flags: %v", err)
	}
	if err := checkOriginalAPIServerArgs(dir, profiling); err == nil || !strings.Contains(err.Error(), "make original") {
		t.Errorf("binaries built before the edit: %v, want an error saying to build them again", err)
	}
	if err := os.WriteFile(info, []byte("Kubernetes v0.4\nedits to the exported tree:\n  "+original.ProfilesFix+": measurement only\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := checkOriginalAPIServerArgs(dir, profiling); err != nil {
		t.Errorf("binaries built with the edit: %v", err)
	}
	if err := checkOriginalAPIServerArgs(dir, append(profiling, "-read_pod_status=false")); err == nil {
		t.Errorf("a flag of ours v0.4 has not: no error")
	}
}
