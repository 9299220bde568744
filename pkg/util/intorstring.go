package util

// Follows kubernetes/kubernetes pkg/util/util.go IntOrString as of v0.4
// (October 2014): a port may be named ("http") or numbered (8080).

import (
	"encoding/json"
	"strconv"
)

// IntstrKind says which of the two fields of an IntOrString is in use.
type IntstrKind int

const (
	IntstrInt IntstrKind = iota
	IntstrString
)

// IntOrString is a JSON number or a JSON string.
type IntOrString struct {
	Kind   IntstrKind
	IntVal int
	StrVal string
}

// NewIntOrStringFromInt returns an IntOrString holding i.
func NewIntOrStringFromInt(i int) IntOrString {
	return IntOrString{Kind: IntstrInt, IntVal: i}
}

// NewIntOrStringFromString returns an IntOrString holding s.
func NewIntOrStringFromString(s string) IntOrString {
	return IntOrString{Kind: IntstrString, StrVal: s}
}

// UnmarshalJSON accepts a quoted string or a number.
func (v *IntOrString) UnmarshalJSON(b []byte) error {
	if len(b) > 0 && b[0] == '"' {
		v.Kind = IntstrString
		return json.Unmarshal(b, &v.StrVal)
	}
	v.Kind = IntstrInt
	return json.Unmarshal(b, &v.IntVal)
}

// MarshalJSON writes whichever value the kind selects.
func (v IntOrString) MarshalJSON() ([]byte, error) {
	if v.Kind == IntstrString {
		return json.Marshal(v.StrVal)
	}
	return json.Marshal(v.IntVal)
}

// String returns the value as text.
func (v IntOrString) String() string {
	if v.Kind == IntstrString {
		return v.StrVal
	}
	return strconv.Itoa(v.IntVal)
}
