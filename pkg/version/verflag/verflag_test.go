package verflag

import (
	"bytes"
	"flag"
	"strings"
	"testing"
)

func TestTheVersionFlagTakesTrueFalseOrRaw(t *testing.T) {
	fs := flag.NewFlagSet("x", flag.ContinueOnError)
	var v Value
	fs.Var(&v, "version", "")
	cases := []struct {
		args []string
		want string
	}{
		{nil, ""},
		{[]string{"-version"}, "Kubernetes v0.4-rewind\n"},
		{[]string{"-version=false"}, ""},
		{[]string{"-version=raw"}, "version.Info{Major:\"0\", Minor:\"4\", GitVersion:\"v0.4-rewind\""},
	}
	for _, c := range cases {
		v = False
		if err := fs.Parse(c.args); err != nil {
			t.Fatal(err)
		}
		var out bytes.Buffer
		printed := Print(&out, v)
		if printed != (c.want != "") || !strings.HasPrefix(out.String(), c.want) {
			t.Errorf("%v: printed %v %q, want %q", c.args, printed, out.String(), c.want)
		}
	}
	if err := fs.Parse([]string{"-version=maybe"}); err == nil {
		t.Error("-version=maybe was accepted")
	}
}
