package publish

import (
	"fmt"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"go.etcd.io/etcd/server/v3/wal"

	"github.com/kube-rewind/kube-rewind/pkg/apiserver"
	"github.com/kube-rewind/kube-rewind/pkg/lab/published"
)

// TestTheProseCitesThePagesAsTheyAre is rcbench publish -check on the
// repository: every figure a Markdown file cites shows what its page
// says, and no figure there looks measured without citing a page but
// for the allow-list's constants, each as its Go declaration has it.
// published's TestTheCheckCatchesAFigureChangedByHand plants each drift
// this catches.
func TestTheProseCitesThePagesAsTheyAre(t *testing.T) {
	constants, err := Constants(repoRoot)
	if err != nil {
		t.Fatalf("the allow-list: %v", err)
	}
	drifts, err := published.CheckProse(repoRoot, constants)
	if err != nil {
		t.Fatal(err)
	}
	var lines []string
	for _, d := range drifts {
		lines = append(lines, d.String())
	}
	if len(lines) > 0 {
		t.Errorf("%d figure(s) of the prose do not cite their page as it is (rcbench publish -cite rewrites the cited ones from the pages):\n%s", len(lines), strings.Join(lines, "\n"))
	}
}

// TestGoCommentsCopyNoMeasuredFigure is published.UncitedInGo on the
// repository: no comment of a Go file but tests writes a figure that
// looks measured (a CPU time, microseconds, memory, a share, a ratio, a
// count of goroutines, a number of times in digits), but for the
// allow-list's constants, each as its Go declaration has it. A comment
// says which page measured a figure instead of copying it.
func TestGoCommentsCopyNoMeasuredFigure(t *testing.T) {
	constants, err := Constants(repoRoot)
	if err != nil {
		t.Fatalf("the allow-list: %v", err)
	}
	drifts, err := published.UncitedInGo(repoRoot, constants)
	if err != nil {
		t.Fatal(err)
	}
	var lines []string
	for _, d := range drifts {
		lines = append(lines, fmt.Sprintf("%s:%d: %q", d.File, d.Line, d.Written))
	}
	if len(lines) > 0 {
		t.Errorf("%d figure(s) of Go comments look measured: say which page measured each instead (\"the listcost page measures it\", \"measured once on …\"), or, for a constant of the code, allow it in constants.go:\n%s", len(lines), strings.Join(lines, "\n"))
	}
}

// TestTheOthersConstantsAreAsMirrored holds the constants that
// constants.go declares for code outside the repository's declarations
// to the values they mirror.
func TestTheOthersConstantsAreAsMirrored(t *testing.T) {
	if got := apiserver.NewHTTPServer(nil, 0).MaxHeaderBytes; got != apiserverMaxHeaderBytes {
		t.Errorf("the apiserver's server reads headers up to %d bytes; apiserverMaxHeaderBytes is %d", got, apiserverMaxHeaderBytes)
	}
	if wal.SegmentSizeBytes != etcdWALSegmentBytes {
		t.Errorf("etcd's wal.SegmentSizeBytes is %d; etcdWALSegmentBytes is %d", wal.SegmentSizeBytes, etcdWALSegmentBytes)
	}
}

// TestTheReadmeSaysWhatEachPageShowedAsTheSentencesWriteIt checks that
// the README's sentences of what the pages showed are the ones
// rcbench publish -readme writes, so that a sentence edited by hand in
// the README rather than in pkg/lab/published/showed.go fails.
func TestTheReadmeSaysWhatEachPageShowedAsTheSentencesWriteIt(t *testing.T) {
	written, err := published.ShowedIsWritten(repoRoot)
	if err != nil {
		t.Fatal(err)
	}
	if !written {
		t.Errorf("%s's sentences of what the pages showed are not what rcbench publish -readme writes from pkg/lab/published/showed.go: run it", published.ReadmeFile)
	}
}

// TestEveryAllowedConstantIsInTheCode reads every constant of the
// allow-list from its declaration.
func TestEveryAllowedConstantIsInTheCode(t *testing.T) {
	cs, err := Constants(repoRoot)
	if err != nil {
		t.Fatal(err)
	}
	if len(cs) < len(allowed) {
		t.Errorf("%d constants from %d declarations", len(cs), len(allowed))
	}
	seen := map[string]bool{}
	for _, m := range allowed {
		if seen[m.Dir+"."+m.Name] {
			t.Errorf("%s.%s is allowed twice", m.Dir, m.Name)
		}
		seen[m.Dir+"."+m.Name] = true
	}
}

// repoRoot is the repository's top.
var repoRoot = func() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "..", "..")
}()
