package faults

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/kube-rewind/kube-rewind/pkg/api"
)

func TestFailRuleFailsAboutTheChosenFractionOfMatchingRequests(t *testing.T) {
	f := New(1)
	if err := f.Set(Config{Fail: []FailRule{{Verb: "POST", Resource: "pods", Fraction: 0.1, Code: 500}}}); err != nil {
		t.Fatal(err)
	}
	failures := 0
	for i := 0; i < 1000; i++ {
		code, fail := f.Fail("POST", "pods")
		if fail {
			failures++
			if code != 500 {
				t.Fatalf("code = %d, want 500", code)
			}
		}
	}
	if failures < 50 || failures > 150 {
		t.Errorf("failures = %d of 1000 at 0.1, want between 50 and 150", failures)
	}
}

func TestTheSameSeedGivesTheSameFailures(t *testing.T) {
	run := func() []bool {
		f := New(42)
		if err := f.Set(Config{Fail: []FailRule{{Verb: "*", Resource: "*", Fraction: 0.5, Code: 503}}}); err != nil {
			t.Fatal(err)
		}
		out := make([]bool, 200)
		for i := range out {
			_, out[i] = f.Fail("GET", "pods")
		}
		return out
	}
	a, b := run(), run()
	for i := range a {
		if a[i] != b[i] {
			t.Fatalf("request %d differs between two runs with one seed", i)
		}
	}
}

func TestRulesMatchOnVerbAndResourceWithWildcards(t *testing.T) {
	f := New(1)
	err := f.Set(Config{
		Fail: []FailRule{
			{Verb: "post", Resource: "pods", Fraction: 1, Code: 500},
			{Verb: "*", Resource: "services", Fraction: 1, Code: 503},
		},
		Latency: []LatencyRule{{Verb: "LIST", Resource: "*", Latency: Duration(time.Second)}},
	})
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		verb, resource string
		fail           bool
		code           int
		latency        time.Duration
	}{
		{"POST", "pods", true, 500, 0},
		{"PUT", "pods", false, 0, 0},
		{"DELETE", "services", true, 503, 0},
		{"LIST", "pods", false, 0, time.Second},
		{"GET", "replicationControllers", false, 0, 0},
	}
	for _, c := range cases {
		t.Run(c.verb+" "+c.resource, func(t *testing.T) {
			code, fail := f.Fail(c.verb, c.resource)
			if fail != c.fail || (fail && code != c.code) {
				t.Errorf("Fail = %d, %v; want %d, %v", code, fail, c.code, c.fail)
			}
			if got := f.Latency(c.verb, c.resource); got != c.latency {
				t.Errorf("Latency = %v, want %v", got, c.latency)
			}
		})
	}
}

func TestANilSwitchInjectsNothing(t *testing.T) {
	var f *Faults
	if _, fail := f.Fail("POST", "pods"); fail {
		t.Error("nil switch failed a request")
	}
	if f.Latency("POST", "pods") != 0 {
		t.Error("nil switch added latency")
	}
	if wait, _ := f.WatchClose(); wait != 0 {
		t.Error("nil switch closes watches")
	}
}

func TestSetRefusesBadRulesAndNamesTheField(t *testing.T) {
	f := New(1)
	f.SetKnownResources("pods", "services")
	cases := []struct {
		name string
		cfg  Config
		want string
	}{
		{"fraction above one", Config{Fail: []FailRule{{Verb: "POST", Resource: "pods", Fraction: 1.5, Code: 500}}}, "fail[0].fraction"},
		{"negative fraction", Config{Fail: []FailRule{{Verb: "POST", Resource: "pods", Fraction: -0.1, Code: 500}}}, "fail[0].fraction"},
		{"success code", Config{Fail: []FailRule{{Verb: "POST", Resource: "pods", Fraction: 0.5, Code: 200}}}, "fail[0].code"},
		{"unknown verb", Config{Fail: []FailRule{{Verb: "PATCH", Resource: "pods", Fraction: 0.5, Code: 500}}}, "fail[0].verb"},
		{"unknown resource", Config{Fail: []FailRule{{Verb: "POST", Resource: "podz", Fraction: 0.5, Code: 500}}}, `"podz" is not served`},
		{"no resource", Config{Latency: []LatencyRule{{Verb: "POST", Latency: Duration(time.Millisecond)}}}, "latency[0].resource"},
		{"zero latency", Config{Latency: []LatencyRule{{Verb: "POST", Resource: "pods"}}}, "latency[0].latency"},
		{"huge latency", Config{Latency: []LatencyRule{{Verb: "POST", Resource: "pods", Latency: Duration(time.Hour)}}}, "latency[0].latency"},
		{"tiny watch period", Config{CloseWatchesEvery: Duration(time.Microsecond)}, "closeWatchesEvery"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			err := f.Set(c.cfg)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("Set = %v, want an error naming %q", err, c.want)
			}
			if !f.Config().Empty() {
				t.Errorf("a refused Set changed the rules to %+v", f.Config())
			}
		})
	}
}

func TestWatchCloseTicksFromWhenTheRuleWasSet(t *testing.T) {
	f := New(1)
	now := time.Unix(1000, 0)
	f.now = func() time.Time { return now }
	if wait, _ := f.WatchClose(); wait != 0 {
		t.Fatalf("wait = %v with no rule, want 0", wait)
	}
	if err := f.Set(Config{CloseWatchesEvery: Duration(5 * time.Second)}); err != nil {
		t.Fatal(err)
	}
	now = now.Add(7 * time.Second)
	wait, changed := f.WatchClose()
	if wait != 3*time.Second {
		t.Errorf("wait = %v 7s after a 5s rule, want 3s", wait)
	}
	f.Clear()
	select {
	case <-changed:
	default:
		t.Error("clearing the rules did not signal open streams")
	}
}

func TestParseFlagRules(t *testing.T) {
	fail, err := ParseFailRule("post:pods:0.1:500")
	if err != nil {
		t.Fatal(err)
	}
	if fail != (FailRule{Verb: "POST", Resource: "pods", Fraction: 0.1, Code: 500}) {
		t.Errorf("fail rule = %+v", fail)
	}
	latency, err := ParseLatencyRule("*:*:50ms")
	if err != nil {
		t.Fatal(err)
	}
	if latency != (LatencyRule{Verb: "*", Resource: "*", Latency: Duration(50 * time.Millisecond)}) {
		t.Errorf("latency rule = %+v", latency)
	}
	var rules FailRules
	if err := rules.Set("GET:pods:1:503"); err != nil {
		t.Fatal(err)
	}
	if rules.String() != "GET:pods:1:503" {
		t.Errorf("String = %q", rules.String())
	}
	for _, bad := range []string{"POST:pods:0.1", "POST:pods:x:500", "POST:pods:0.1:abc", "POST:pods:2:500", "POST:pods:0.1:302"} {
		if _, err := ParseFailRule(bad); err == nil {
			t.Errorf("ParseFailRule(%q) accepted it", bad)
		}
	}
	for _, bad := range []string{"POST:pods", "POST:pods:soon", "POST:pods:-1s", "FETCH:pods:1s"} {
		if _, err := ParseLatencyRule(bad); err == nil {
			t.Errorf("ParseLatencyRule(%q) accepted it", bad)
		}
	}
}

func TestReasonForCodeUsesTheAPIsReasons(t *testing.T) {
	cases := map[int]api.StatusReason{
		500: api.StatusReasonInternalError,
		503: api.StatusReasonServiceUnavailable,
		409: api.StatusReasonConflict,
		429: "TooManyRequests",
		418: "ImATeapot",
	}
	for code, want := range cases {
		if got := ReasonForCode(code); got != want {
			t.Errorf("ReasonForCode(%d) = %q, want %q", code, got, want)
		}
	}
}

func adminRequest(t *testing.T, f *Faults, method, remote, body string) (int, []byte) {
	t.Helper()
	req := httptest.NewRequest(method, "/admin/faults", strings.NewReader(body))
	req.RemoteAddr = remote
	rec := httptest.NewRecorder()
	f.ServeHTTP(rec, req)
	return rec.Code, rec.Body.Bytes()
}

func decodeStatus(t *testing.T, body []byte) api.Status {
	t.Helper()
	var s api.Status
	if err := json.Unmarshal(body, &s); err != nil || s.Kind != "Status" {
		t.Fatalf("body is not a Status (%v): %s", err, body)
	}
	return s
}

func TestAdminEndpointSetsShowsAndClearsRules(t *testing.T) {
	f := New(1)
	code, body := adminRequest(t, f, "PUT", "127.0.0.1:4000",
		`{"fail":[{"verb":"POST","resource":"pods","fraction":0.25,"code":503}],"latency":[{"verb":"GET","resource":"*","latency":"20ms"}],"closeWatchesEvery":"5s"}`)
	if code != 200 {
		t.Fatalf("PUT = %d %s", code, body)
	}
	code, body = adminRequest(t, f, "GET", "[::1]:4000", "")
	if code != 200 {
		t.Fatalf("GET = %d %s", code, body)
	}
	var got Config
	if err := json.Unmarshal(body, &got); err != nil {
		t.Fatal(err)
	}
	if len(got.Fail) != 1 || got.Fail[0].Code != 503 || got.Latency[0].Latency != Duration(20*time.Millisecond) || got.CloseWatchesEvery != Duration(5*time.Second) {
		t.Errorf("GET shows %s", body)
	}
	if code, body = adminRequest(t, f, "DELETE", "127.0.0.1:4000", ""); code != 200 {
		t.Fatalf("DELETE = %d %s", code, body)
	}
	if !f.Config().Empty() {
		t.Errorf("DELETE left %+v", f.Config())
	}
	if !strings.Contains(string(body), `"fail":[]`) {
		t.Errorf("cleared rules read %s, want empty lists", body)
	}
}

func TestAdminEndpointRefusesClientsOffLoopback(t *testing.T) {
	f := New(1)
	for _, method := range []string{"GET", "PUT", "DELETE"} {
		code, body := adminRequest(t, f, method, "10.1.2.3:4000", `{"closeWatchesEvery":"1s"}`)
		if code != http.StatusForbidden {
			t.Errorf("%s from 10.1.2.3 = %d, want 403", method, code)
		}
		if s := decodeStatus(t, body); s.Code != 403 || !strings.Contains(s.Message, "loopback") {
			t.Errorf("%s Status = %+v", method, s)
		}
	}
	if !f.Config().Empty() {
		t.Errorf("a refused PUT changed the rules")
	}
}

func TestAdminEndpointAnswersBadInputWithAStatusNamingIt(t *testing.T) {
	cases := []struct {
		name, method, body string
		code               int
		want               string
	}{
		{"malformed JSON", "PUT", `{"fail":[`, 400, "malformed"},
		{"unknown key", "PUT", `{"fial":[]}`, 400, "fial"},
		{"bad duration", "PUT", `{"closeWatchesEvery":"soon"}`, 400, "soon"},
		{"bad fraction", "PUT", `{"fail":[{"verb":"GET","resource":"pods","fraction":3,"code":500}]}`, 400, "fail[0].fraction"},
		{"empty body", "PUT", ``, 400, "empty body"},
		{"trailing data", "PUT", `{} {}`, 400, "after the JSON"},
		{"too large", "PUT", `{"x":"` + strings.Repeat("a", maxAdminBody) + `"}`, 413, "larger than"},
		{"wrong method", "POST", `{}`, 405, "POST"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f := New(1)
			code, body := adminRequest(t, f, c.method, "127.0.0.1:1", c.body)
			if code != c.code {
				t.Fatalf("code = %d, want %d: %s", code, c.code, body)
			}
			s := decodeStatus(t, body)
			if s.Code != c.code || !strings.Contains(s.Message, c.want) {
				t.Errorf("Status = %+v, want code %d and a message naming %q", s, c.code, c.want)
			}
		})
	}
}
