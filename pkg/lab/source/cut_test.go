package source

import (
	"strings"
	"testing"
)

func TestCutFindsADeclarationOfOneBuildAndMarksItsLines(t *testing.T) {
	ex, err := Cut("../../..", Ref{Dir: "pkg/controller", Name: "ReplicationManager.syncReplicationController",
		Focus: "go func() {", Mark: []string{"rm.podControl.createReplica(ctx, controllerSpec)"}}, Legacy)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasSuffix(ex.File.Path, "replication_controller.go") {
		t.Errorf("cut from %s, want the 2014 file", ex.File.Path)
	}
	lines := ex.Lines()
	marked := 0
	for _, l := range lines {
		if l.Marked {
			marked++
			if !strings.Contains(l.Text, "createReplica") {
				t.Errorf("line %d is marked: %q", l.N, l.Text)
			}
		}
	}
	if marked != 1 || !strings.Contains(lines[0].Text, "func (rm *ReplicationManager) syncReplicationController") {
		t.Errorf("%d marked lines, first line %q", marked, lines[0].Text)
	}
}

func TestCutRefusesANameOrAMarkItCannotFind(t *testing.T) {
	for _, ref := range []Ref{
		{Dir: "pkg/controller", Name: "noSuchFunction"},
		{Dir: "pkg/controller", Name: "ReplicationManager.syncReplicationController", Mark: []string{"no such line"}},
		{Dir: "pkg/controller", Name: "ReplicationManager.syncReplicationController", Focus: "no such step"},
		{Dir: "pkg/no-such-dir", Name: "x"},
	} {
		if _, err := Cut("../../..", ref, Legacy); err == nil {
			t.Errorf("Cut(%+v) found something", ref)
		}
	}
}
