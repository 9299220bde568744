package demo

import (
	"reflect"
	"strings"
	"testing"
)

// TestWithoutPutsTodayWithoutTheChangeOnTheLeft checks the labels of a
// demo of one fix: today's manager without it on the left, named with the
// change's title, PR and date, against today's.
func TestWithoutPutsTodayWithoutTheChangeOnTheLeft(t *testing.T) {
	ds, err := designsFor(nil)
	if err != nil || !reflect.DeepEqual(ds, designs) {
		t.Fatalf("designsFor(nil) = %+v, %v; want 2014 against today", ds, err)
	}
	ds, err = designsFor([]string{"leader-election"})
	if err != nil {
		t.Fatal(err)
	}
	left, right := ds[0], ds[1]
	if left.Variant.Design != "modern" || strings.Join(left.Variant.ManagerArgs, " ") != "-without=leader-election" {
		t.Errorf("left runs %+v, want the modern manager with -without=leader-election", left.Variant)
	}
	if left.Heading != "Today without leader-election" || !strings.Contains(left.Sub, "#19621") || left.Expect != "" {
		t.Errorf("left labelled %q / %q (expect %q)", left.Heading, left.Sub, left.Expect)
	}
	if !reflect.DeepEqual(right, designs[1]) {
		t.Errorf("right = %+v, want today's", right)
	}
	if rows := compareAs([2]string{left.Short, right.Short}, nil, nil); rows != nil {
		t.Errorf("compareAs of nothing = %v", rows)
	}
	if _, err := designsFor([]string{"leader-elections"}); err == nil || !strings.Contains(err.Error(), "leader-election") {
		t.Errorf("an unknown change gave %v, want an error listing the valid ones", err)
	}
}
