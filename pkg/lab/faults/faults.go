package faults

import (
	"fmt"
	"math/rand/v2"
	"net/http"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	"unicode"

	"github.com/kube-rewind/kube-rewind/pkg/api"
	"github.com/kube-rewind/kube-rewind/pkg/api/errors"
)

// Faults holds the current rules. It is safe for concurrent use; a nil
// *Faults injects nothing.
type Faults struct {
	// state is swapped whole on every change, so the per-request checks
	// read it without a lock; with no rules a request pays one atomic load.
	state atomic.Pointer[state]

	// mu serialises writers and guards rng and known.
	mu    sync.Mutex
	rng   *rand.Rand
	known map[string]bool

	// now is the clock; tests replace it.
	now func() time.Time
}

// state is one immutable version of the rules.
type state struct {
	cfg Config
	// epoch is when the rules were set; watch closing ticks from it.
	epoch time.Time
	// changed is closed when these rules are replaced.
	changed chan struct{}
}

// New returns a Faults with no rules whose random choices follow seed, so a
// test that fixes the seed sees the same failures every run.
func New(seed uint64) *Faults {
	f := &Faults{
		rng: rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15)),
		now: time.Now,
	}
	f.state.Store(&state{epoch: f.now(), changed: make(chan struct{})})
	return f
}

// SetKnownResources names the resources rules set later may refer to;
// a rule naming any other is refused. With none named, any name is taken.
func (f *Faults) SetKnownResources(names ...string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.known = map[string]bool{}
	for _, n := range names {
		f.known[n] = true
	}
}

// Set validates cfg and replaces the current rules with it. On error the
// rules are unchanged and the error names the bad field.
func (f *Faults) Set(cfg Config) error {
	cfg = cfg.copy()
	cfg.normalize()
	f.mu.Lock()
	defer f.mu.Unlock()
	if err := cfg.validate(f.known); err != nil {
		return err
	}
	next := &state{cfg: cfg, epoch: f.now(), changed: make(chan struct{})}
	prev := f.state.Swap(next)
	close(prev.changed)
	return nil
}

// Clear removes every rule.
func (f *Faults) Clear() {
	if err := f.Set(Config{}); err != nil {
		panic(fmt.Sprintf("faults: clearing cannot fail: %v", err))
	}
}

// Config returns a copy of the current rules.
func (f *Faults) Config() Config {
	if f == nil {
		return Config{}.copy()
	}
	return f.state.Load().cfg.copy()
}

// Fail decides whether one request for verb on resource is to fail, and
// with which HTTP code. Each call with a matching rule draws one random
// number.
func (f *Faults) Fail(verb, resource string) (code int, fail bool) {
	if f == nil {
		return 0, false
	}
	s := f.state.Load()
	for _, r := range s.cfg.Fail {
		if !matches(r.Verb, r.Resource, verb, resource) {
			continue
		}
		if r.Fraction <= 0 {
			return 0, false
		}
		f.mu.Lock()
		draw := f.rng.Float64()
		f.mu.Unlock()
		return r.Code, draw < r.Fraction
	}
	return 0, false
}

// Latency returns the delay to add to a request for verb on resource.
func (f *Faults) Latency(verb, resource string) time.Duration {
	if f == nil {
		return 0
	}
	for _, r := range f.state.Load().cfg.Latency {
		if matches(r.Verb, r.Resource, verb, resource) {
			return time.Duration(r.Latency)
		}
	}
	return 0
}

// WatchClose tells a watch stream when to end: after wait (0 means never),
// unless changed is closed first, in which case the rules changed and the
// stream must ask again.
func (f *Faults) WatchClose() (wait time.Duration, changed <-chan struct{}) {
	if f == nil {
		return 0, nil
	}
	s := f.state.Load()
	every := time.Duration(s.cfg.CloseWatchesEvery)
	if every <= 0 {
		return 0, s.changed
	}
	elapsed := f.now().Sub(s.epoch)
	if elapsed < 0 {
		elapsed = 0
	}
	return every - elapsed%every, s.changed
}

// NewError returns the Status error an injected failure answers with: the
// rule's code, the reason that goes with it, and a message saying the
// failure was injected.
func NewError(code int, verb, resource string) error {
	return errors.NewStatus(code, ReasonForCode(code),
		fmt.Sprintf("injected fault: %s %s failed with %d %s by the apiserver fault switch (see /admin/faults)",
			verb, resource, code, http.StatusText(code)))
}

// reasons maps the codes the API uses to their Status reasons.
var reasons = map[int]api.StatusReason{
	http.StatusBadRequest:            api.StatusReasonBadRequest,
	http.StatusNotFound:              api.StatusReasonNotFound,
	http.StatusMethodNotAllowed:      api.StatusReasonMethodNotAllowed,
	http.StatusConflict:              api.StatusReasonConflict,
	http.StatusGone:                  api.StatusReasonGone,
	http.StatusRequestEntityTooLarge: api.StatusReasonRequestEntityTooLarge,
	http.StatusUnsupportedMediaType:  api.StatusReasonUnsupportedMediaType,
	http.StatusUnprocessableEntity:   api.StatusReasonInvalid,
	http.StatusInternalServerError:   api.StatusReasonInternalError,
	http.StatusServiceUnavailable:    api.StatusReasonServiceUnavailable,
	http.StatusGatewayTimeout:        api.StatusReasonTimeout,
}

// ReasonForCode returns the Status reason for an HTTP code: the API's own
// reason where it has one, otherwise the code's standard text in camel case
// ("TooManyRequests" for 429).
func ReasonForCode(code int) api.StatusReason {
	if r, ok := reasons[code]; ok {
		return r
	}
	var b strings.Builder
	for _, word := range strings.FieldsFunc(http.StatusText(code), func(r rune) bool { return r == ' ' || r == '-' }) {
		for i, r := range strings.ReplaceAll(word, "'", "") {
			if i == 0 {
				r = unicode.ToUpper(r)
			}
			b.WriteRune(r)
		}
	}
	return api.StatusReason(b.String())
}

func joinKeys(set map[string]bool) string {
	keys := make([]string, 0, len(set))
	for k := range set {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return strings.Join(keys, ", ")
}
