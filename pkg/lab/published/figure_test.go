package published

import (
	"fmt"
	"strings"
	"testing"
)

// A figure as a reference renders it reads back as its value, its sign,
// its unit and the digits it shows; a text that is not one figure is
// refused, saying why.
func TestAFigureReadsBackAsItsValueSignUnitAndDigits(t *testing.T) {
	for _, tc := range []struct{ text, want string }{
		{"2.33 s", "2.33 signed=false unit=\"s\" decimals=2"},
		{"-0.00 s", "-0 signed=true unit=\"s\" decimals=2"},
		{"+5.80 s", "5.8 signed=true unit=\"s\" decimals=2"},
		{"−1.5 CPU s", "-1.5 signed=true unit=\"CPU s\" decimals=1"},
		{Group("+12345 ms"), "12345 signed=true unit=\"ms\" decimals=0"},
		{"99 257", "99257 signed=false unit=\"\" decimals=0"},
		{" 3.60× ", "3.6 signed=false unit=\"×\" decimals=2"},
	} {
		f, err := ParseFigure(tc.text)
		if err != nil {
			t.Errorf("%q: %v", tc.text, err)
			continue
		}
		got := fmt.Sprintf("%g signed=%v unit=%q decimals=%d", f.Value, f.Signed, f.Unit, f.Decimals)
		if got != tc.want {
			t.Errorf("%q read as %s, want %s", tc.text, got, tc.want)
		}
	}
	if r := (Figure{Decimals: 2}).Rounding(); r != 0.005 {
		t.Errorf("a figure to the hundredth rounds within %g, want 0.005", r)
	}
	for _, tc := range []struct{ text, want string }{
		{"soon", "not a number"},
		{"", "not a number"},
		{"about 3 s", "not a number"},
		{"9 min 5 s", "more than one number"},
		{"1.2.3 s", "more than one number"},
	} {
		if _, err := ParseFigure(tc.text); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: %v, want an error saying %q", tc.text, err, tc.want)
		}
	}
}
