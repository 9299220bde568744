package labels

import (
	"strings"
	"testing"
)

// FuzzParseSelector parses arbitrary text as a selector. Whatever the input
// it must not panic, and a selector it accepts must print in a form that
// parses back to a selector printing the same way and matching the same
// labels: clients send selectors as String() and the server parses them.
func FuzzParseSelector(f *testing.F) {
	for _, s := range []string{
		"", "x=a,y=b,z=c", "x!=a,y=b", "z=c,x==a", "x=a||y=b", "x==a==b", "garbage",
		"a==c,a=b", "a!==b", "=b", "a=", ",,", "a=b,", " a = b ", "a!=b!=c", "!=", "==", "=",
		"name=nginx,replicationController=nginxController", "a=b,a!=b",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		sel, err := ParseSelector(in)
		if err != nil {
			return
		}
		printed := sel.String()
		again, err := ParseSelector(printed)
		if err != nil {
			t.Fatalf("ParseSelector(%q) printed as %q, which does not parse: %v", in, printed, err)
		}
		if again.String() != printed {
			t.Fatalf("ParseSelector(%q) printed as %q, which prints back as %q", in, printed, again.String())
		}
		if sel.Empty() != again.Empty() {
			t.Fatalf("ParseSelector(%q): Empty %v, after the round trip %v", in, sel.Empty(), again.Empty())
		}
		// Try both selectors on label sets made of the keys and values the
		// input names: each term satisfied, each violated, none present.
		for _, ls := range probeSets(in) {
			if sel.Matches(ls) != again.Matches(ls) {
				t.Fatalf("ParseSelector(%q) and its round trip %q disagree on %v", in, printed, ls)
			}
		}
	})
}

// probeSets returns label sets built from the words of a selector.
func probeSets(in string) []Set {
	words := strings.FieldsFunc(in, func(r rune) bool { return r == ',' || r == '=' || r == '!' })
	sets := []Set{{}}
	for i, k := range words {
		for j, v := range words {
			if i != j {
				sets = append(sets, Set{k: v}, Set{k: ""})
			}
		}
		all := Set{}
		for _, v := range words {
			all[v] = k
		}
		sets = append(sets, all)
	}
	return sets
}
