package published_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/kube-rewind/kube-rewind/pkg/lab/published"
	"github.com/kube-rewind/kube-rewind/pkg/lab/scenario"
)

// TestTheFairFightRunsEveryAblationBesideItsParityRun: an ablation left
// out of the page's variants would never be judged.
func TestTheFairFightRunsEveryAblationBesideItsParityRun(t *testing.T) {
	var names []string
	for _, p := range published.Pages {
		if p.Name != "fairfight" {
			continue
		}
		for _, arg := range p.Commands[0] {
			if list, ok := strings.CutPrefix(arg, "-variants="); ok {
				names = strings.Split(list, ",")
			}
		}
	}
	if len(names) == 0 {
		t.Fatal("no fairfight page with -variants")
	}
	for _, n := range names {
		if _, err := scenario.VariantByName(n); err != nil {
			t.Error(err)
		}
	}
	for _, a := range scenario.Ablations {
		parity := scenario.StackTodayParity.Name
		if a.On == scenario.Originals {
			parity = scenario.StackOriginalParity.Name
		}
		if !slices.Contains(names, parity) || !slices.Contains(names, parity+"-with-"+a.Key) {
			t.Errorf("the fair fight runs %s without %s-with-%s beside it", parity, parity, a.Key)
		}
	}
}
