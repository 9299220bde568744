package labels

import "testing"

func TestParseSelectorRoundTripsCanonicalForms(t *testing.T) {
	for _, in := range []string{"", "x=a,y=b,z=c", "x!=a,y=b"} {
		sel, err := ParseSelector(in)
		if err != nil {
			t.Fatalf("ParseSelector(%q): %v", in, err)
		}
		if got := sel.String(); got != in {
			t.Errorf("ParseSelector(%q).String() = %q", in, got)
		}
	}
}

func TestParseSelectorSortsTermsAndReadsDoubleEquals(t *testing.T) {
	sel, err := ParseSelector("z=c,x==a")
	if err != nil {
		t.Fatal(err)
	}
	if got := sel.String(); got != "x=a,z=c" {
		t.Errorf("got %q", got)
	}
}

func TestParseSelectorRefusesWhat2014Refused(t *testing.T) {
	for _, in := range []string{"x=a||y=b", "x==a==b", "garbage"} {
		if _, err := ParseSelector(in); err == nil {
			t.Errorf("ParseSelector(%q) succeeded", in)
		}
	}
}

func TestSelectorMatching(t *testing.T) {
	cases := []struct {
		selector string
		labels   Set
		want     bool
	}{
		{"", Set{"a": "b"}, true},
		{"x=y", Set{"x": "y"}, true},
		{"x=y", Set{"x": "z"}, false},
		{"x=", Set{}, true},
		{"x!=y", Set{"x": "z"}, true},
		{"x!=y", Set{}, true},
		{"x!=y", Set{"x": "y"}, false},
		{"x=y,a=b", Set{"x": "y", "a": "b", "c": "d"}, true},
		{"x=y,a=b", Set{"x": "y"}, false},
	}
	for _, c := range cases {
		sel, err := ParseSelector(c.selector)
		if err != nil {
			t.Fatal(err)
		}
		if got := sel.Matches(c.labels); got != c.want {
			t.Errorf("%q matches %v = %v, want %v", c.selector, c.labels, got, c.want)
		}
	}
}

func TestSetStringIsSorted(t *testing.T) {
	if got := (Set{"foo": "bar", "baz": "qup"}).String(); got != "baz=qup,foo=bar" {
		t.Errorf("got %q", got)
	}
}

func TestSelectorFromSetOfNothingSelectsEverything(t *testing.T) {
	if !SelectorFromSet(nil).Empty() || !SelectorFromSet(Set{}).Empty() {
		t.Error("an empty set should give an empty selector")
	}
	if v, ok := SelectorFromSet(Set{"a": "b"}).RequiresExactMatch("a"); !ok || v != "b" {
		t.Errorf("RequiresExactMatch = %q, %v", v, ok)
	}
}
