package main

import (
	"os/exec"
	"strings"
	"testing"
)

// TestOnlyTheModernBuildLinksClientGo checks that the build tag really
// swaps designs: the modern binary is built on client-go's workqueue,
// informers and leader election, and the 2014 binary contains none of it.
func TestOnlyTheModernBuildLinksClientGo(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go list")
	}
	clientGo := []string{
		"k8s.io/client-go/util/workqueue",
		"k8s.io/client-go/tools/cache",
		"k8s.io/client-go/tools/leaderelection",
	}
	deps := func(tags ...string) map[string]bool {
		args := append([]string{"list", "-deps"}, tags...)
		out, err := exec.Command("go", append(args, ".")...).Output()
		if err != nil {
			t.Fatalf("go %v: %v", args, err)
		}
		set := map[string]bool{}
		for _, p := range strings.Fields(string(out)) {
			set[p] = true
		}
		return set
	}
	modern := deps("-tags", "modern")
	legacy := deps()
	for _, p := range clientGo {
		if !modern[p] {
			t.Errorf("the modern build does not link %s", p)
		}
		if legacy[p] {
			t.Errorf("the 2014 build links %s", p)
		}
	}
	for p := range legacy {
		if strings.HasPrefix(p, "k8s.io/") {
			t.Errorf("the 2014 build links %s", p)
		}
	}
}
