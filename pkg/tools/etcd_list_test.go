package tools

import (
	"reflect"
	"sort"
	"testing"

	"github.com/coreos/go-etcd/etcd"
)

// TestGetListAnswersAsGoEtcdsGet checks that the LIST's own decoding of
// etcd's answer gives what go-etcd's Get gives, for a directory with
// values, a nested directory and escapes, and for a missing key.
func TestGetListAnswersAsGoEtcdsGet(t *testing.T) {
	client := NewEtcdClient([]string{etcdURL})
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
