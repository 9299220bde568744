package faults

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"time"
)

// Verbs lists the request verbs a rule may name; "*" matches any of them.
// They are the verbs of the apiserver's request metrics: GET reads one
// object and LIST a collection.
var Verbs = []string{"LIST", "GET", "POST", "PUT", "DELETE", "WATCH"}

// Limits on rules. A latency longer than maxLatency would only hold
// connections open; a watch-closing period under minCloseWatchesEvery would
// turn every watch into a reconnect loop; maxRules bounds the work per
// request.
const (
	maxLatency           = 10 * time.Minute
	minCloseWatchesEvery = 10 * time.Millisecond
	maxRules             = 100
)

// Duration is a time.Duration written in JSON as a Go duration string
// ("50ms").
type Duration time.Duration

// MarshalJSON writes the duration as a string.
func (d Duration) MarshalJSON() ([]byte, error) {
	return json.Marshal(time.Duration(d).String())
}

// UnmarshalJSON reads a Go duration string; "" is zero.
func (d *Duration) UnmarshalJSON(b []byte) error {
	var s string
	if err := json.Unmarshal(b, &s); err != nil {
		return fmt.Errorf("a duration must be a string such as \"50ms\", not %s", b)
	}
	if s == "" {
		*d = 0
		return nil
	}
	v, err := time.ParseDuration(s)
	if err != nil {
		return fmt.Errorf("invalid duration %q: %v", s, err)
	}
	*d = Duration(v)
	return nil
}

// FailRule fails Fraction (0..1) of the requests matching Verb and Resource
// with HTTP status Code, before storage is touched.
type FailRule struct {
	Verb     string  `json:"verb"`
	Resource string  `json:"resource"`
	Fraction float64 `json:"fraction"`
	Code     int     `json:"code"`
}

// LatencyRule delays every request matching Verb and Resource by Latency.
type LatencyRule struct {
	Verb     string   `json:"verb"`
	Resource string   `json:"resource"`
	Latency  Duration `json:"latency"`
}

// Config is the whole set of rules; its zero value injects nothing. For a
// request, the first matching fail rule and the first matching latency rule
// apply.
type Config struct {
	Fail    []FailRule    `json:"fail"`
	Latency []LatencyRule `json:"latency"`
	// CloseWatchesEvery ends every open watch stream each time this period
	// elapses since the rule was set; 0 leaves watches alone.
	CloseWatchesEvery Duration `json:"closeWatchesEvery"`
}

// Empty reports whether c injects nothing.
func (c Config) Empty() bool {
	return len(c.Fail) == 0 && len(c.Latency) == 0 && c.CloseWatchesEvery == 0
}

// copy returns a deep copy whose lists are never nil, so that JSON shows []
// rather than null.
func (c Config) copy() Config {
	out := Config{
		Fail:              append([]FailRule{}, c.Fail...),
		Latency:           append([]LatencyRule{}, c.Latency...),
		CloseWatchesEvery: c.CloseWatchesEvery,
	}
	return out
}

// normalize upper-cases verbs so that "post" and "POST" name the same rule.
func (c *Config) normalize() {
	for i := range c.Fail {
		c.Fail[i].Verb = strings.ToUpper(strings.TrimSpace(c.Fail[i].Verb))
		c.Fail[i].Resource = strings.TrimSpace(c.Fail[i].Resource)
	}
	for i := range c.Latency {
		c.Latency[i].Verb = strings.ToUpper(strings.TrimSpace(c.Latency[i].Verb))
		c.Latency[i].Resource = strings.TrimSpace(c.Latency[i].Resource)
	}
}

// validate returns an error naming the first bad field of c. known, when not
// empty, lists the resources a rule may name besides "*".
func (c Config) validate(known map[string]bool) error {
	if len(c.Fail)+len(c.Latency) > maxRules {
		return fmt.Errorf("too many rules: %d (at most %d)", len(c.Fail)+len(c.Latency), maxRules)
	}
	for i, r := range c.Fail {
		field := fmt.Sprintf("fail[%d]", i)
		if err := validateMatch(field, r.Verb, r.Resource, known); err != nil {
			return err
		}
		if !(r.Fraction >= 0 && r.Fraction <= 1) {
			return fmt.Errorf("%s.fraction: %v is outside 0..1", field, r.Fraction)
		}
		if r.Code < 400 || r.Code > 599 || http.StatusText(r.Code) == "" {
			return fmt.Errorf("%s.code: %d is not an HTTP error code (4xx or 5xx)", field, r.Code)
		}
	}
	for i, r := range c.Latency {
		field := fmt.Sprintf("latency[%d]", i)
		if err := validateMatch(field, r.Verb, r.Resource, known); err != nil {
			return err
		}
		if r.Latency <= 0 || time.Duration(r.Latency) > maxLatency {
			return fmt.Errorf("%s.latency: %v is outside (0, %v]", field, time.Duration(r.Latency), maxLatency)
		}
	}
	if every := time.Duration(c.CloseWatchesEvery); every != 0 && every < minCloseWatchesEvery {
		return fmt.Errorf("closeWatchesEvery: %v is shorter than %v (use 0 to turn it off)", every, minCloseWatchesEvery)
	}
	return nil
}

func validateMatch(field, verb, resource string, known map[string]bool) error {
	if verb != "*" && !isVerb(verb) {
		return fmt.Errorf("%s.verb: %q is not one of %s or *", field, verb, strings.Join(Verbs, ", "))
	}
	if resource == "" {
		return fmt.Errorf("%s.resource: required (a resource name or *)", field)
	}
	if resource != "*" && len(known) > 0 && !known[resource] {
		return fmt.Errorf("%s.resource: %q is not served here (known: %s)", field, resource, joinKeys(known))
	}
	return nil
}

func isVerb(verb string) bool {
	for _, v := range Verbs {
		if v == verb {
			return true
		}
	}
	return false
}

func matches(ruleVerb, ruleResource, verb, resource string) bool {
	return (ruleVerb == "*" || ruleVerb == verb) && (ruleResource == "*" || ruleResource == resource)
}
