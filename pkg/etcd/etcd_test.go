package etcd

import (
	"net/http"
	"net/url"
	"strings"
	"testing"
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
