package live

import (
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/kube-rewind/kube-rewind/pkg/lab/demo"
	"github.com/kube-rewind/kube-rewind/pkg/lab/stack/today"
)

// TestWithoutPutsTodayWithoutTheChangeOnTheLeft checks the labels of a
// demo of one fix: today's manager without it on the left, named with the
// change's title, PR and date, against today's.
func TestWithoutPutsTodayWithoutTheChangeOnTheLeft(t *testing.T) {
	ds, err := designsFor(nil, "", "")
	if err != nil || !reflect.DeepEqual(ds, demo.Designs) {
		t.Fatalf("designsFor(nil) = %+v, %v; want 2014 against today", ds, err)
	}
	ds, err = designsFor([]string{"leader-election"}, "", "")
	if err != nil {
		t.Fatal(err)
	}
	left, right := ds[0], ds[1]
	if left.Variant.Design != "modern" || strings.Join(left.Variant.ManagerArgs, " ") != "-without=leader-election" {
		t.Errorf("left runs %+v, want the modern manager with -without=leader-election", left.Variant)
	}
	if left.Heading != "Today without leader-election" || !strings.Contains(left.Sub, "#19621") || left.Checked {
		t.Errorf("left labelled %q / %q (checked %v)", left.Heading, left.Sub, left.Checked)
	}
	if !reflect.DeepEqual(right, demo.Designs[1]) {
		t.Errorf("right = %+v, want today's", right)
	}
	if rows := demo.CompareAs([2]string{left.Short, right.Short}, nil, nil); rows != nil {
		t.Errorf("CompareAs of nothing = %v", rows)
	}
	if _, err := designsFor([]string{"leader-elections"}, "", ""); err == nil || !strings.Contains(err.Error(), "leader-election") {
		t.Errorf("an unknown change gave %v, want an error listing the valid ones", err)
	}
}

// TestEitherSideCanPlayAnyVariant checks that -left and -right put any
// variant on either side, named and checked as that variant, and that an
// unknown one is refused with the valid names.
func TestEitherSideCanPlayAnyVariant(t *testing.T) {
	ds, err := designsFor(nil, "upstream", "legacy")
	if err != nil {
		t.Fatal(err)
	}
	if ds[0].Variant.Name != "upstream" || !ds[0].Checked || ds[0].Heading != "Upstream today" {
		t.Errorf("left = %+v, want upstream's manager, held to the modern design's expectations", ds[0])
	}
	if !reflect.DeepEqual(ds[1], demo.Designs[0]) {
		t.Errorf("right = %+v, want the 2014 manager", ds[1])
	}
	if ds, err := designsFor(nil, "", "modern-unthrottled"); err != nil || ds[1].Variant.Name != "modern-unthrottled" || ds[1].Short == "" {
		t.Errorf("right = %+v (%v), want modern-unthrottled under its name", ds, err)
	}
	if _, err := designsFor(nil, "upstreem", ""); err == nil || !strings.Contains(err.Error(), "upstream") {
		t.Errorf("an unknown variant gave %v, want an error listing the valid ones", err)
	}
	if _, err := designsFor([]string{"leader-election"}, "upstream", ""); err == nil {
		t.Error("-without with -left was accepted; both choose the left side")
	}
	err = haveBinaries(t.TempDir(), "", ds)
	if err == nil || !strings.Contains(err.Error(), "make upstream") && !strings.Contains(err.Error(), "make build") {
		t.Errorf("missing binaries gave %v, want how to build them", err)
	}
}

// TestTheOriginalBinariesPlayOnASideWhenBuilt puts the original v0.4
// binaries on the left, held to the 2014 design's expectations, and
// refuses them, saying how to build them, when make original has not.
func TestTheOriginalBinariesPlayOnASideWhenBuilt(t *testing.T) {
	ds, err := designsFor(nil, "stack-original", "upstream")
	if err != nil {
		t.Fatal(err)
	}
	if ds[0].Variant.Original == "" || !ds[0].Checked || ds[0].Variant.Design != "legacy" || ds[0].Heading == "stack-original" {
		t.Errorf("left = %+v, want v0.4's stack under its own heading, held to the 2014 design's expectations", ds[0])
	}
	bin := t.TempDir()
	if err := haveBinaries(bin, "", ds[:1]); err == nil || !strings.Contains(err.Error(), "make original V04_SRC=") {
		t.Errorf("without _output/v0.4: %v, want how to build it", err)
	}
}

// TestTodaysStackPlaysOnASideWhenBuilt puts today's whole control plane
// on the right, held to what a scenario expects of today's stack, and
// refuses it, saying how to build it, when make today has not; a cluster
// of a kubeconfig is the benchmark's, not talk mode's.
func TestTodaysStackPlaysOnASideWhenBuilt(t *testing.T) {
	t.Setenv(today.DirEnv, "")
	ds, err := designsFor(nil, "", "stack-today")
	if err != nil {
		t.Fatal(err)
	}
	if !ds[1].Variant.OnToday() || !ds[1].Checked || ds[1].Heading == "stack-today" {
		t.Errorf("right = %+v, want today's stack under its own heading, held to its own expectations", ds[1])
	}
	if err := haveBinaries(filepath.Join(t.TempDir(), "bin"), "", ds[1:]); err == nil || !strings.Contains(err.Error(), "make today") {
		t.Errorf("without _output/today: %v, want how to build it", err)
	}
	ds, err = designsFor(nil, "", "cluster")
	if err != nil {
		t.Fatal(err)
	}
	if err := haveBinaries(t.TempDir(), "", ds[1:]); err == nil || !strings.Contains(err.Error(), "-kubeconfig") {
		t.Errorf("the variant cluster in talk mode without a kubeconfig: %v, want a refusal naming -kubeconfig", err)
	}
	if err := haveBinaries(t.TempDir(), "some.kubeconfig", ds[1:]); err != nil {
		t.Errorf("the variant cluster in talk mode with a kubeconfig: %v", err)
	}
}
