package util

// Follows kubernetes/kubernetes pkg/util/time.go as of v0.4 (October 2014).

import (
	"encoding/json"
	"time"
)

// Time wraps time.Time so that the zero time goes on the wire as null and
// any other time as RFC 3339 with whole seconds, as the 2014 API did.
type Time struct {
	time.Time
}

// Now returns the current local time, truncated to whole seconds.
func Now() Time {
	return Time{time.Now().Truncate(time.Second)}
}

// Unix returns the local Time for the given Unix seconds and nanoseconds.
func Unix(sec, nsec int64) Time {
	return Time{time.Unix(sec, nsec)}
}

// UnmarshalJSON accepts null or an RFC 3339 string.
func (t *Time) UnmarshalJSON(b []byte) error {
	if string(b) == "null" {
		t.Time = time.Time{}
		return nil
	}
	var s string
	if err := json.Unmarshal(b, &s); err != nil {
		return err
	}
	pt, err := time.Parse(time.RFC3339, s)
	if err != nil {
		return err
	}
	t.Time = pt.Local()
	return nil
}

// MarshalJSON writes null for the zero time and UTC RFC 3339 otherwise.
func (t Time) MarshalJSON() ([]byte, error) {
	if t.IsZero() {
		return []byte("null"), nil
	}
	return json.Marshal(t.UTC().Format(time.RFC3339))
}
