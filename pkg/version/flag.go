package version

import "strconv"

// Flag is the value of a -version style flag, as v0.4's verflag had it:
// false, true, or "raw" for the Go syntax of the version.
type Flag int

// The values a Flag takes.
const (
	FlagFalse Flag = 0
	FlagTrue  Flag = 1
	FlagRaw   Flag = 2
)

// IsBoolFlag lets the flag be given without a value.
func (v *Flag) IsBoolFlag() bool { return true }

// Get returns the value.
func (v *Flag) Get() interface{} { return *v }

// Set reads "raw" or a boolean.
func (v *Flag) Set(s string) error {
	if s == "raw" {
		*v = FlagRaw
		return nil
	}
	b, err := strconv.ParseBool(s)
	if b {
		*v = FlagTrue
	} else {
		*v = FlagFalse
	}
	return err
}

// String returns "raw", "true" or "false".
func (v *Flag) String() string {
	if *v == FlagRaw {
		return "raw"
	}
	return strconv.FormatBool(*v == FlagTrue)
}
