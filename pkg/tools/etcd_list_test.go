package tools

import (
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"reflect"
	"sort"
	"strings"
	"testing"

	"github.com/coreos/go-etcd/etcd"
	"github.com/kube-rewind/kube-rewind/pkg/etcd/etcdtest"
)

// TestGetListAnswersAsGoEtcdsGet checks that the LIST's own GET and
// decoding give what go-etcd's Get gives, for a directory with values, a
// nested directory and escapes, and for a missing key: against the
// embedded member, whose listings the apiserver's own handler writes, and
// against an external etcd (Debian's etcd-server), whose listings etcd
// writes.
func TestGetListAnswersAsGoEtcdsGet(t *testing.T) {
	t.Run("embedded", func(t *testing.T) { compareLists(t, etcdURL) })
	t.Run("external", func(t *testing.T) {
		cluster := etcdtest.StartCluster(t, 1)
		compareLists(t, cluster.ClientURLs()[0])
	})
}

func compareLists(t *testing.T, member string) {
	client := NewEtcdClient([]string{member})
	t.Cleanup(CloseIdleConnections)
	dir := uniqueKey("list")
	for _, kv := range [][2]string{
		{dir + "/a", `{"id":"a","labels":{"x":"<&>"}}`},
		{dir + "/b", "caf\u00e9 \"quoted\"\n"},
		{dir + "/sub/c", "nested"},
	} {
		if _, err := client.Create(kv[0], kv[1], 0); err != nil {
			t.Fatal(err)
		}
	}
	for _, key := range []string{dir, dir + "-missing"} {
		want, wantErr := client.Get(key, false, true)
		got, gotErr := getList(client, key)
		// etcd lists a directory in no particular order.
		for _, r := range []*etcd.Response{want, got} {
			if r != nil && r.Node != nil {
				sort.Sort(r.Node.Nodes)
			}
		}
		if !reflect.DeepEqual(got, want) || !reflect.DeepEqual(gotErr, wantErr) {
			t.Errorf("%s: got %+v, %v; go-etcd's Get gives %+v, %v", key, got, gotErr, want, wantErr)
		}
	}
}

// TestCreateAnswersAsGoEtcdsCreate creates a key twice, once each way,
// after a first create, and compares the answers and errors.
func TestCreateAnswersAsGoEtcdsCreate(t *testing.T) {
	client := NewEtcdClient([]string{etcdURL})
	t.Cleanup(CloseIdleConnections)
	key := uniqueKey("create")
	got, err := create(client, key, `{"id":"<a>"}`)
	if err != nil || got.Node == nil || got.Node.Key != key || got.Node.Value != `{"id":"<a>"}` || got.Node.ModifiedIndex == 0 || got.EtcdIndex == 0 {
		t.Fatalf("create: %+v, %v", got, err)
	}
	_, wantErr := client.Create(key, "again", 0)
	_, gotErr := create(client, key, "again")
	if !IsEtcdNodeExist(gotErr) || gotErr.Error() != wantErr.Error() {
		t.Errorf("second create: %v; go-etcd's Create gives %v", gotErr, wantErr)
	}
}

// TestStreamListLeavesFailuresToGoEtcd checks which answers the streaming
// LIST decodes itself and which it hands back to go-etcd's retries.
func TestStreamListLeavesFailuresToGoEtcd(t *testing.T) {
	cut := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Write([]byte(`{"action":"get","node":{"key":"/x","dir":true,"nodes":[{"key":"/x/a","val`))
	}))
	defer cut.Close()
	busy := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "leader changed", http.StatusInternalServerError)
	}))
	defer busy.Close()
	gone := httptest.NewServer(http.NotFoundHandler())
	gone.Close()
	t.Cleanup(CloseIdleConnections)

	for name, member := range map[string]string{"cut short": cut.URL, "5xx": busy.URL, "no connection": gone.URL} {
		_, err := streamList(etcd.NewClient([]string{member}), "/x")
		var again notStreamed
		if !errors.As(err, &again) {
			t.Errorf("%s: err = %v, want it left to go-etcd", name, err)
		}
	}
	_, err := streamList(NewEtcdClient([]string{etcdURL}), uniqueKey("missing"))
	if !IsEtcdNotFound(err) {
		t.Errorf("missing key: err = %v, want etcd's key not found", err)
	}
}

// TestDecodeListingDecodesAsGoEtcd decodes answers of every shape etcd
// writes, and some it does not, both ways.
func TestDecodeListingDecodesAsGoEtcd(t *testing.T) {
	header := http.Header{"X-Etcd-Index": {"7"}, "X-Raft-Index": {"9"}, "X-Raft-Term": {"2"}}
	for _, body := range []string{
		`{"action":"get","node":{"key":"/r","dir":true,"nodes":[{"key":"/r/a","value":"{\"id\":\"a\\u003c\"}","modifiedIndex":4,"createdIndex":3},{"key":"/r/d","dir":true,"nodes":[{"key":"/r/d/x","value":"caf\u00e9","modifiedIndex":5,"createdIndex":5}],"modifiedIndex":5,"createdIndex":5},{"key":"/r/t","value":"v","expiration":"2026-11-24T12:00:52.085591062Z","ttl":600,"modifiedIndex":6,"createdIndex":6}],"modifiedIndex":2,"createdIndex":2}}` + "\n",
		`{"action":"get","node":{"key":"/r","dir":true,"modifiedIndex":2,"createdIndex":2}}`,
		`{"action":"get","node":{"key":"/r/a","value":"x","modifiedIndex":4,"createdIndex":3}}`,
		`{"action":"get","node":{"nodes":[],"key":"/r","dir":true}}`,
		`{"action":"get","node":null}`,
		`{"action":"get","node":{"key":"/r","nodes":null},"prevNode":{"key":"/r","value":"old"},"unknown":[1,2]}`,
		`{"Action":"get","NODE":{"Key":"/r","Nodes":[{"KEY":"/r/a"}]}}`,
		`{"action":"get","node":{"key":"/r","dir":true,"nodes":[null,{"key":"/r/a","value":null,"dir":false,"ttl":-1,"modifiedIndex":0}]}}`,
		`{"action":"get","node":{"key":"/r","nodes":[{"key":"/r/a","modifiedIndex":1.5}]}}`,
		`{"action":"get","node":{"key":"/r","nodes":[{"key":"/r/a","dir":"yes"}]}}`,
		`{"action":"get","node":{"key":"/r","nodes":["a"]}}`,
		`{"action":"get","node":{"key":"/r","nodes":[{"key":"/r/a","modifiedIndex":18446744073709551616}]}}`,
	} {
		want, wantErr := (&etcd.RawResponse{StatusCode: http.StatusOK, Body: []byte(body), Header: header}).Unmarshal()
		r := httptest.NewRecorder()
		r.Body.WriteString(body)
		got, gotErr := decodeListing(r.Body)
		if gotErr == nil {
			got.EtcdIndex, got.RaftIndex, got.RaftTerm = 7, 9, 2
		}
		if !reflect.DeepEqual(got, want) || (gotErr == nil) != (wantErr == nil) {
			t.Errorf("%s:\n got %+v, %v\n go-etcd decodes %+v, %v", body, got, gotErr, want, wantErr)
		}
	}
	for _, body := range []string{`{"action":"get","node":{"key":"/r","nodes":[{"key":`, `[]`, `{"action":"get"} {}`} {
		if _, err := decodeListing(strings.NewReader(body)); err == nil {
			t.Errorf("%s: decoded without error", body)
		}
	}
}

// TestAListGoesToGoEtcdsMember checks that a LIST is sent to the member
// go-etcd uses, so that it sees every write go-etcd's member answered.
func TestAListGoesToGoEtcdsMember(t *testing.T) {
	seen := make(chan string, 8)
	members := make([]string, 3)
	for i := range members {
		name := fmt.Sprintf("member-%d", i)
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			seen <- name
			w.Header().Set("X-Etcd-Index", "3")
			w.Write([]byte(`{"action":"get","node":{"key":"/x","dir":true,"nodes":[{"key":"/x/` + name + `","value":"v"}]}}`))
		}))
		defer srv.Close()
		members[i] = srv.URL
	}
	t.Cleanup(CloseIdleConnections)
	for round := 0; round < 4; round++ {
		client := NewEtcdClient(members)
		if _, err := client.RawGet("/x", false, true); err != nil {
			t.Fatal(err)
		}
		goEtcds := <-seen
		response, err := getList(client, "/x")
		if err != nil {
			t.Fatal(err)
		}
		if ours := <-seen; ours != goEtcds || response.Node.Nodes[0].Key != "/x/"+goEtcds {
			t.Fatalf("go-etcd asked %s, the LIST asked %s", goEtcds, ours)
		}
	}
}

// TestAListAsksForAQuorumReadWhenTheClientDoes sends a LIST through a
// client of each consistency and checks the query asks for a quorum read
// exactly when go-etcd's Get would.
func TestAListAsksForAQuorumReadWhenTheClientDoes(t *testing.T) {
	queries := make(chan string, 1)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		queries <- r.URL.Query().Get("quorum")
		w.Header().Set("X-Etcd-Index", "3")
		w.Write([]byte(`{"action":"get","node":{"key":"/x","dir":true,"nodes":[]}}`))
	}))
	defer srv.Close()
	t.Cleanup(CloseIdleConnections)
	for _, tc := range []struct {
		consistency, quorum string
	}{{etcd.WEAK_CONSISTENCY, "false"}, {etcd.STRONG_CONSISTENCY, "true"}} {
		client := NewEtcdClient([]string{srv.URL})
		if err := client.SetConsistency(tc.consistency); err != nil {
			t.Fatal(err)
		}
		if _, err := client.Get("/x", false, true); err != nil {
			t.Fatal(err)
		}
		goEtcds := <-queries
		if _, err := getList(client, "/x"); err != nil {
			t.Fatal(err)
		}
		if ours := <-queries; ours != tc.quorum || goEtcds != tc.quorum {
			t.Errorf("%s: the LIST asked quorum=%s and go-etcd's Get quorum=%s, want %s", tc.consistency, ours, goEtcds, tc.quorum)
		}
	}
}
