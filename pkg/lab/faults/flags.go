package faults

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// ParseFailRule reads "VERB:RESOURCE:FRACTION:CODE", the form of the
// apiserver's -fail flag, e.g. "POST:pods:0.1:500".
func ParseFailRule(s string) (FailRule, error) {
	parts := strings.Split(s, ":")
	if len(parts) != 4 {
		return FailRule{}, fmt.Errorf("fail rule %q: want VERB:RESOURCE:FRACTION:CODE, e.g. POST:pods:0.1:500", s)
	}
	fraction, err := strconv.ParseFloat(parts[2], 64)
	if err != nil {
		return FailRule{}, fmt.Errorf("fail rule %q: fraction %q is not a number", s, parts[2])
	}
	code, err := strconv.Atoi(parts[3])
	if err != nil {
		return FailRule{}, fmt.Errorf("fail rule %q: code %q is not a number", s, parts[3])
	}
	r := FailRule{Verb: strings.ToUpper(parts[0]), Resource: parts[1], Fraction: fraction, Code: code}
	if err := (Config{Fail: []FailRule{r}}).checked(); err != nil {
		return FailRule{}, fmt.Errorf("fail rule %q: %v", s, err)
	}
	return r, nil
}

// ParseLatencyRule reads "VERB:RESOURCE:DURATION", the form of the
// apiserver's -latency flag, e.g. "POST:pods:50ms".
func ParseLatencyRule(s string) (LatencyRule, error) {
	parts := strings.Split(s, ":")
	if len(parts) != 3 {
		return LatencyRule{}, fmt.Errorf("latency rule %q: want VERB:RESOURCE:DURATION, e.g. POST:pods:50ms", s)
	}
	d, err := time.ParseDuration(parts[2])
	if err != nil {
		return LatencyRule{}, fmt.Errorf("latency rule %q: %v", s, err)
	}
	r := LatencyRule{Verb: strings.ToUpper(parts[0]), Resource: parts[1], Latency: Duration(d)}
	if err := (Config{Latency: []LatencyRule{r}}).checked(); err != nil {
		return LatencyRule{}, fmt.Errorf("latency rule %q: %v", s, err)
	}
	return r, nil
}

// checked normalizes a copy of c and validates it without a resource list.
func (c Config) checked() error {
	c = c.copy()
	c.normalize()
	return c.validate(nil)
}

// FailRules is a flag.Value that collects repeated -fail rules.
type FailRules []FailRule

// String lists the rules in flag form.
func (r *FailRules) String() string {
	if r == nil {
		return ""
	}
	parts := make([]string, len(*r))
	for i, f := range *r {
		parts[i] = fmt.Sprintf("%s:%s:%v:%d", f.Verb, f.Resource, f.Fraction, f.Code)
	}
	return strings.Join(parts, ",")
}

// Set parses one rule and appends it.
func (r *FailRules) Set(s string) error {
	rule, err := ParseFailRule(s)
	if err != nil {
		return err
	}
	*r = append(*r, rule)
	return nil
}

// LatencyRules is a flag.Value that collects repeated -latency rules.
type LatencyRules []LatencyRule

// String lists the rules in flag form.
func (r *LatencyRules) String() string {
	if r == nil {
		return ""
	}
	parts := make([]string, len(*r))
	for i, l := range *r {
		parts[i] = fmt.Sprintf("%s:%s:%v", l.Verb, l.Resource, time.Duration(l.Latency))
	}
	return strings.Join(parts, ",")
}

// Set parses one rule and appends it.
func (r *LatencyRules) Set(s string) error {
	rule, err := ParseLatencyRule(s)
	if err != nil {
		return err
	}
	*r = append(*r, rule)
	return nil
}
