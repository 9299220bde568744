package etcd

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"sort"
	"strings"
	"testing"

	"go.etcd.io/etcd/server/v3/etcdserver/api/v2store"
)

// putForm writes a key with extra form values (ttl=, dir=).
func putForm(t *testing.T, base, key string, form url.Values) {
	t.Helper()
	req, err := http.NewRequest("PUT", base+"/v2/keys"+key, strings.NewReader(form.Encode()))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("PUT %s: %v", key, err)
	}
	resp.Body.Close()
	if resp.StatusCode >= 300 {
		t.Fatalf("PUT %s: status %d", key, resp.StatusCode)
	}
}

// TestListingsAreEtcdsOwnBytes sends the same requests to the handler that
// writes listings item by item and to etcd's own v2 handler, and expects
// the same status, headers and body from both.
func TestListingsAreEtcdsOwnBytes(t *testing.T) {
	s, err := Start(Config{DataDir: t.TempDir(), FastTicks: true, NoFsync: true})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	base := s.ClientURL()
	for i := 0; i < 40; i++ {
		putKey(t, base, fmt.Sprintf("/registry/pods/pod-%02d", i), fmt.Sprintf(`{"id":"pod-%02d","n":%d}`, i, i))
	}
	// Values encoding/json escapes: HTML characters, U+2028, control
	// characters and invalid UTF-8.
	putForm(t, base, "/registry/pods/odd", url.Values{"value": {"<a href=\"x\">&\u2028\n\t\x01\xff</a>"}})
	putForm(t, base, "/registry/pods/expiring", url.Values{"value": {"soon"}, "ttl": {"600"}})
	putForm(t, base, "/registry/pods/ns/inner", url.Values{"value": {"nested"}})
	putForm(t, base, "/registry/empty", url.Values{"dir": {"true"}})
	putForm(t, base, "/registry/expiringdir", url.Values{"dir": {"true"}, "ttl": {"600"}})

	etcds := *s.lists.etcd.Load()
	for _, target := range []string{
		"/v2/keys/registry/pods?recursive=true&sorted=false",
		"/v2/keys/registry/pods?sorted=true&recursive=true",
		"/v2/keys/registry/pods/?recursive=true",
		"/v2/keys/registry?recursive=true&sorted=true",
		"/v2/keys/?recursive=true&sorted=true",
		"/v2/keys/registry/empty?recursive=true",
		"/v2/keys/registry/expiringdir?recursive=true",
		"/v2/keys/registry/pods?recursive=true&quorum=false",
		// Not listings: etcd's own handler answers, through ours.
		"/v2/keys/registry/pods/pod-01?recursive=true",
		"/v2/keys/registry/missing?recursive=true",
		"/v2/keys/registry/pods?recursive=true&quorum=true",
		"/v2/keys/registry/pods?recursive=true&sorted=maybe",
		"/v2/keys/registry/pods",
	} {
		// The leader commits an entry of its own every half second while
		// a key has a ttl (a SYNC, which expires keys), so the raft index
		// can move between the two reads: they are made again until it
		// holds still across both.
		var ours, theirs *httptest.ResponseRecorder
		for try := 0; ; try++ {
			before := httptest.NewRecorder()
			etcds.ServeHTTP(before, httptest.NewRequest("GET", target, nil))
			ours, theirs = httptest.NewRecorder(), httptest.NewRecorder()
			s.lists.ServeHTTP(ours, httptest.NewRequest("GET", target, nil))
			etcds.ServeHTTP(theirs, httptest.NewRequest("GET", target, nil))
			if before.Header().Get("X-Raft-Index") == theirs.Header().Get("X-Raft-Index") || try == 50 {
				break
			}
		}
		if ours.Code != theirs.Code {
			t.Errorf("GET %s: status %d, etcd's own %d", target, ours.Code, theirs.Code)
		}
		for _, h := range []string{"Content-Type", "X-Etcd-Index", "X-Raft-Index", "X-Raft-Term", "X-Etcd-Cluster-Id"} {
			if strings.Contains(target, "quorum=true") && strings.HasSuffix(h, "Index") {
				continue // a quorum read goes through raft and moves them
			}
			if ours.Header().Get(h) != theirs.Header().Get(h) {
				t.Errorf("GET %s: %s %q, etcd's own %q", target, h, ours.Header().Get(h), theirs.Header().Get(h))
			}
		}
		// A ttl counts down between the two reads, and an unsorted
		// listing comes in the store's map order, which changes from one
		// read to the next: blank the one, sort the other.
		a, b := blankTTL(ours.Body.Bytes()), blankTTL(theirs.Body.Bytes())
		if !strings.Contains(target, "sorted=true") && theirs.Code == http.StatusOK {
			a, b = sortedListing(t, a), sortedListing(t, b)
		}
		if !bytes.Equal(a, b) {
			t.Errorf("GET %s:\n ours       %.400s\n etcd's own %.400s", target, a, b)
		}
	}
}

// sortedListing returns an answer with every directory's nodes sorted by
// key, as etcd encodes them.
func sortedListing(t *testing.T, body []byte) []byte {
	t.Helper()
	var ev v2store.Event
	if err := json.Unmarshal(body, &ev); err != nil {
		t.Fatalf("%v: %s", err, body)
	}
	var sortNodes func(n *v2store.NodeExtern)
	sortNodes = func(n *v2store.NodeExtern) {
		if n == nil {
			return
		}
		sort.Slice(n.Nodes, func(i, j int) bool { return n.Nodes[i].Key < n.Nodes[j].Key })
		for _, c := range n.Nodes {
			sortNodes(c)
		}
	}
	sortNodes(ev.Node)
	out, err := json.Marshal(&ev)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// blankTTL replaces the digits of each "ttl": with nines: the seconds
// left count down between two reads.
func blankTTL(body []byte) []byte {
	out := append([]byte(nil), body...)
	field := []byte(`"ttl":`)
	for i := 0; ; {
		j := bytes.Index(out[i:], field)
		if j < 0 {
			return out
		}
		k := i + j + len(field)
		for k < len(out) && out[k] >= '0' && out[k] <= '9' {
			out[k] = '9'
			k++
		}
		i = k
	}
}
