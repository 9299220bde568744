package registry

import (
	"strings"
	"testing"

	"github.com/kube-rewind/kube-rewind/pkg/api/errors"
	"github.com/kube-rewind/kube-rewind/pkg/labels"
)

func TestSelectorKeysNamesEveryTerm(t *testing.T) {
	cases := map[string]string{
		"":                    "",
		"ID=a":                "ID",
		"b!=2,a=1":            "a,b",
		"DesiredState.Host==": "DesiredState.Host",
	}
	for in, want := range cases {
		sel, err := labels.ParseSelector(in)
		if err != nil {
			t.Fatal(err)
		}
		if got := strings.Join(SelectorKeys(sel), ","); got != want {
			t.Errorf("SelectorKeys(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestCheckFieldsAnswersAnUnknownFieldWithA400NamingIt(t *testing.T) {
	sel, _ := labels.ParseSelector("ID=a,Colour=blue")
	err := CheckFields("pods", sel, "ID")
	if !errors.IsBadRequest(err) || !strings.Contains(err.Error(), "Colour") {
		t.Errorf("got %v", err)
	}
	if err := CheckFields("pods", labels.Everything()); err != nil {
		t.Errorf("an empty selector: %v", err)
	}
	if err := CheckFields("replicationControllers", sel); !errors.IsBadRequest(err) {
		t.Errorf("no fields allowed: %v", err)
	}
}
