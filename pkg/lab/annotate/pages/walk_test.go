package pages

import (
	"testing"

	"github.com/kube-rewind/kube-rewind/pkg/lab/source"
)

// TestEveryStopNamesAndMarksCodeThatExists catches a renamed function or a
// changed line: the walk says which, instead of showing the wrong code.
func TestEveryStopNamesAndMarksCodeThatExists(t *testing.T) {
	for _, st := range Walk {
		for _, side := range []struct {
			refs []source.Ref
			b    source.Variant
		}{{st.Both, source.Legacy}, {st.Legacy, source.Legacy}, {st.Modern, source.Modern}} {
			for _, ref := range side.refs {
				if len(ref.Mark) == 0 {
					t.Errorf("stop %s, %s: no lines marked", st.ID, ref.Name)
				}
				// Cut fails on a name it cannot find and on any note (a
				// focus or a mark that no line holds).
				if _, err := source.Cut(repoRoot, ref, side.b); err != nil {
					t.Errorf("stop %s, %s: %v", st.ID, ref.Name, err)
				}
			}
		}
	}
}
