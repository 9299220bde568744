package etcd

import (
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"
)

func TestStartRefusesAnEmptyDataDir(t *testing.T) {
	if _, err := Start(Config{}); err == nil || !strings.Contains(err.Error(), "data directory") {
		t.Fatalf("Start without a data dir: err = %v, want one naming the data directory", err)
	}
}

func putKey(t *testing.T, base, key, value string) {
	t.Helper()
	putForm(t, base, key, url.Values{"value": {value}})
}

func getStatus(t *testing.T, base, key string) int {
	t.Helper()
	resp, err := http.Get(base + "/v2/keys" + key)
	if err != nil {
		t.Fatalf("GET %s: %v", key, err)
	}
	resp.Body.Close()
	return resp.StatusCode
}

func TestServerSpeaksV2OnLoopbackAndKeepsDataAcrossRestart(t *testing.T) {
	dir := t.TempDir()
	s, err := Start(Config{DataDir: dir, FastTicks: true})
	if err != nil {
		t.Fatal(err)
	}
	url := s.ClientURL()
	if !strings.HasPrefix(url, "http://127.0.0.1:") || strings.HasSuffix(url, ":0") {
		s.Close()
		t.Fatalf("ClientURL() = %q, want a loopback URL with a real port", url)
	}
	putKey(t, url, "/registry/pods/kept", "x")
	s.Close()

	s, err = Start(Config{DataDir: dir, FastTicks: true})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if code := getStatus(t, s.ClientURL(), "/registry/pods/kept"); code != http.StatusOK {
		t.Fatalf("after restart GET returned %d, want 200", code)
	}
}

func TestSmallerSegmentsKeepAsMuchLog(t *testing.T) {
	if ec, _ := newConfig(Config{DataDir: t.TempDir()}); ec.MaxWalFiles != 5 {
		t.Errorf("with etcd's segments the member keeps %d, want etcd's 5", ec.MaxWalFiles)
	}
	for _, seg := range []int64{1 << 20, 3 << 20, 64 << 20} {
		ec, _ := newConfig(Config{DataDir: t.TempDir(), WALSegmentBytes: seg})
		if kept := int64(ec.MaxWalFiles) * seg; kept < walKeptBytes || ec.MaxWalFiles < 5 {
			t.Errorf("segments of %d bytes: the member keeps %d of them (%d bytes), want at least 5 and %d bytes", seg, ec.MaxWalFiles, kept, walKeptBytes)
		}
	}
}

// The v2 API's own listener takes a compare-and-swap whose old value, in
// the URL, makes a request line of over 4 KB on a new connection, as
// v0.4's binds of a minion's manifests do; the client listener, behind
// etcd's multiplexer, drops that connection (the fault the listener is
// there for).
func TestTheV2ListenerTakesLongRequestLines(t *testing.T) {
	s, err := Start(Config{DataDir: t.TempDir(), FastTicks: true, V2Port: -1})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if s.V2URL() == "" || s.V2URL() == s.ClientURL() {
		t.Fatalf("V2URL() = %q beside ClientURL() %q, want a listener of its own", s.V2URL(), s.ClientURL())
	}
	old := strings.Repeat("m", 5000)
	putKey(t, s.V2URL(), "/registry/hosts/h/kubelet", old)
	swap := func(base, value string) (int, error) {
		q := url.Values{"prevValue": {old}, "value": {value}}
		req, _ := http.NewRequest(http.MethodPut, base+"/v2/keys/registry/hosts/h/kubelet?"+q.Encode(), nil)
		// A new connection for each request: the multiplexer reads
		// only a connection's first one.
		c := &http.Client{Transport: &http.Transport{DisableKeepAlives: true}, Timeout: 10 * time.Second}
		resp, err := c.Do(req)
		if err != nil {
			return 0, err
		}
		resp.Body.Close()
		return resp.StatusCode, nil
	}
	if code, err := swap(s.ClientURL(), "through the multiplexer"); err == nil && code == http.StatusOK {
		t.Errorf("the client listener took a request line of over 4 KB on a new connection (%d): the v2 listener is not needed", code)
	}
	code, err := swap(s.V2URL(), "swapped")
	if err != nil || code != http.StatusOK {
		t.Fatalf("the v2 listener: a compare-and-swap with a request line of over 4 KB answered %d, %v; want 200", code, err)
	}
	if code := getStatus(t, s.V2URL(), "/registry/hosts/h/kubelet"); code != http.StatusOK {
		t.Errorf("GET after the swap answered %d", code)
	}
}
