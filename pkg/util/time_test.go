package util

import (
	"encoding/json"
	"testing"
)

func TestATimeReadsBackAsItWasWritten(t *testing.T) {
	cases := []struct {
		in, out string
	}{
		{`null`, `null`},
		{`"2014-10-14T12:00:00Z"`, `"2014-10-14T12:00:00Z"`},
		{`"2014-10-14T14:00:00+02:00"`, `"2014-10-14T12:00:00Z"`},
		{`"2014-10-14T12:00:00.999Z"`, `"2014-10-14T12:00:00Z"`},
		{`"0000-01-01T00:00:00Z"`, `"0000-01-01T00:00:00Z"`},
		{`"9999-12-31T23:59:59Z"`, `"9999-12-31T23:59:59Z"`},
	}
	for _, c := range cases {
		var got Time
		if err := json.Unmarshal([]byte(c.in), &got); err != nil {
			t.Errorf("%s: %v", c.in, err)
			continue
		}
		out, err := json.Marshal(got)
		if err != nil || string(out) != c.out {
			t.Errorf("%s written as %s (%v), want %s", c.in, out, err, c.out)
			continue
		}
		var again Time
		if err := json.Unmarshal(out, &again); err != nil || !again.Equal(got.Time) {
			t.Errorf("%s: read back as %v (%v), want %v", out, again, err, got)
		}
	}
}

func TestATimeThatCouldNotBeReadBackIsRefused(t *testing.T) {
	for _, in := range []string{
		`"0000-01-01T00:30:00+01:00"`,
		`"9999-12-31T23:30:00-01:00"`,
		`"yesterday"`,
		`17`,
	} {
		var got Time
		if err := json.Unmarshal([]byte(in), &got); err == nil {
			t.Errorf("%s was read as %v", in, got)
		}
	}
}
