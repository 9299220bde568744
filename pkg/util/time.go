package util

// Follows kubernetes/kubernetes pkg/util/time.go as of v0.4 (October 2014).

import (
	"encoding/json"
	"fmt"
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
//
// Ours: v0.4 kept whatever time.Parse returned, so a time with a fraction
// of a second changed when it was written back, and one whose UTC form
// falls outside the years 0000-9999 ("0000-01-01T00:30:00+01:00") was
// written as "-0001-12-31T23:30:00Z", which nothing could read again: one
// such object made every LIST of its resource fail. Here the fraction is
// dropped on the way in, as the wire would drop it, and such a time is
// refused.
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
	if year := pt.UTC().Year(); year < 0 || year > 9999 {
		return fmt.Errorf("time %q is outside the years 0000-9999 in UTC", s)
	}
	t.Time = pt.Truncate(time.Second).Local()
	return nil
}

// MarshalJSON writes null for the zero time and UTC RFC 3339 otherwise.
func (t Time) MarshalJSON() ([]byte, error) {
	if t.IsZero() {
		return []byte("null"), nil
	}
	return json.Marshal(t.UTC().Format(time.RFC3339))
}
