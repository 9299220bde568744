package tools

import (
	"reflect"
	"testing"

	"github.com/kube-rewind/kube-rewind/pkg/api"
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
		if !reflect.DeepEqual(got, want) || !reflect.DeepEqual(gotErr, wantErr) {
			t.Errorf("%s: got %+v, %v; go-etcd's Get gives %+v, %v", key, got, gotErr, want, wantErr)
		}
	}
}

// TestDecodeStoredReadsWhatDecodeIntoReads decodes stored pods both ways.
func TestDecodeStoredReadsWhatDecodeIntoReads(t *testing.T) {
	pod := testPod("foo")
	pod.DesiredState.Host = "machine<1>"
	pod.CreationTimestamp.Time = pod.CreationTimestamp.Time.AddDate(2014, 9, 1)
	data, err := encode(pod)
	if err != nil {
		t.Fatal(err)
	}
	for _, body := range []string{string(data), " " + string(data) + "\n", `{"id": "sloppy", }`, `id: yaml`} {
		var want, got api.Pod
		wantErr := api.DecodeInto([]byte(body), &want)
		gotErr := api.DecodeStored([]byte(body), &got)
		if !reflect.DeepEqual(got, want) || (gotErr == nil) != (wantErr == nil) {
			t.Errorf("%q: DecodeStored gives %+v, %v; DecodeInto %+v, %v", body, got, gotErr, want, wantErr)
		}
	}
}
