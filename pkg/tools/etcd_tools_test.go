package tools

import (
	"errors"
	"fmt"
	"net/http"
	"reflect"
	"strings"
	"testing"

	"github.com/coreos/go-etcd/etcd"
	"github.com/kube-rewind/kube-rewind/pkg/api"
)

func testPod(id string) *api.Pod {
	return &api.Pod{
		TypeMeta: api.TypeMeta{ID: id, Namespace: "default"},
		Labels:   map[string]string{"name": "foo"},
	}
}

func encodeOrDie(t *testing.T, obj api.Object) string {
	t.Helper()
	data, err := api.Encode(obj)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

func TestExtractListVersionsEachItemByItsNodeAndTheListByTheEtcdIndex(t *testing.T) {
	fake := NewFakeEtcdClient(t)
	fake.Data["/some/key"] = EtcdResponseWithError{R: &etcd.Response{
		EtcdIndex: 10,
		Node: &etcd.Node{Dir: true, Nodes: []*etcd.Node{
			{Key: "/some/key/foo", Value: encodeOrDie(t, testPod("foo")), ModifiedIndex: 1},
			{Key: "/some/key/sub", Dir: true},
			{Key: "/some/key/bar", Value: encodeOrDie(t, testPod("bar")), ModifiedIndex: 2},
		}},
	}}
	helper := EtcdHelper{fake}
	var got []api.Pod
	var version uint64
	if err := helper.ExtractList("/some/key", &got, &version); err != nil {
		t.Fatal(err)
	}
	if version != 10 {
		t.Errorf("list version = %d, want 10", version)
	}
	if len(got) != 2 || got[0].ID != "foo" || got[0].ResourceVersion != 1 || got[1].ID != "bar" || got[1].ResourceVersion != 2 {
		t.Errorf("items = %+v", got)
	}
}

func TestExtractListOfAMissingDirectoryIsEmptyAtTheErrorsIndex(t *testing.T) {
	fake := NewFakeEtcdClient(t)
	fake.Data["/none"] = EtcdResponseWithError{R: &etcd.Response{}, E: &etcd.EtcdError{ErrorCode: 100, Index: 7}}
	helper := EtcdHelper{fake}
	var got []api.Pod
	var version uint64
	if err := helper.ExtractList("/none", &got, &version); err != nil {
		t.Fatal(err)
	}
	if len(got) != 0 || version != 7 {
		t.Errorf("got %v at %d, want empty at 7", got, version)
	}
}

func TestExtractListReportsOtherErrorsAndUndecodableValues(t *testing.T) {
	fake := NewFakeEtcdClient(t)
	boom := errors.New("boom")
	fake.Data["/broken"] = EtcdResponseWithError{E: boom}
	fake.Data["/garbage"] = EtcdResponseWithError{R: &etcd.Response{Node: &etcd.Node{Dir: true, Nodes: []*etcd.Node{
		{Key: "/garbage/x", Value: "{not json", ModifiedIndex: 3},
	}}}}
	helper := EtcdHelper{fake}
	var got []api.Pod
	if err := helper.ExtractList("/broken", &got, nil); err != boom {
		t.Errorf("err = %v, want boom", err)
	}
	if err := helper.ExtractList("/garbage", &got, nil); err == nil || !strings.Contains(err.Error(), "/garbage/x") {
		t.Errorf("err = %v, want one naming the bad key", err)
	}
}

func TestExtractListDecodesLongListsInKeyOrder(t *testing.T) {
	fake := NewFakeEtcdClient(t)
	var nodes []*etcd.Node
	for i := 0; i < 3*parallelDecodeMin; i++ {
		id := fmt.Sprintf("pod-%04d", i)
		nodes = append(nodes, &etcd.Node{Key: "/pods/" + id, Value: encodeOrDie(t, testPod(id)), ModifiedIndex: uint64(i + 1)})
	}
	fake.Data["/pods"] = EtcdResponseWithError{R: &etcd.Response{Node: &etcd.Node{Dir: true, Nodes: nodes}}}
	helper := EtcdHelper{fake}
	var got []api.Pod
	if err := helper.ExtractList("/pods", &got, nil); err != nil {
		t.Fatal(err)
	}
	for i, pod := range got {
		if pod.ID != fmt.Sprintf("pod-%04d", i) || pod.ResourceVersion != uint64(i+1) {
			t.Fatalf("item %d = %s at %d", i, pod.ID, pod.ResourceVersion)
		}
	}
}

func TestExtractObj(t *testing.T) {
	fake := NewFakeEtcdClient(t)
	fake.Data["/pods/foo"] = EtcdResponseWithError{R: &etcd.Response{Node: &etcd.Node{Value: encodeOrDie(t, testPod("foo")), ModifiedIndex: 4}}}
	fake.ExpectNotFoundGet("/pods/missing")
	helper := EtcdHelper{fake}

	var pod api.Pod
	if err := helper.ExtractObj("/pods/foo", &pod, false); err != nil {
		t.Fatal(err)
	}
	if pod.ID != "foo" || pod.ResourceVersion != 4 || pod.Kind != "" {
		t.Errorf("pod = %+v", pod.TypeMeta)
	}
	if err := helper.ExtractObj("/pods/missing", &pod, false); !IsEtcdNotFound(err) {
		t.Errorf("missing without ignoreNotFound: err = %v", err)
	}
	pod = *testPod("leftover")
	if err := helper.ExtractObj("/pods/missing", &pod, true); err != nil || !reflect.DeepEqual(pod, api.Pod{}) {
		t.Errorf("missing with ignoreNotFound: %v, %+v; want nil and a zero pod", err, pod)
	}
}

func TestCreateObjStoresWithoutVersionAndReturnsTheNewOne(t *testing.T) {
	fake := NewFakeEtcdClient(t)
	fake.TestIndex = true
	helper := EtcdHelper{fake}
	pod := testPod("foo")
	if err := helper.CreateObj("/pods/foo", pod); err != nil {
		t.Fatal(err)
	}
	if pod.ResourceVersion != 1 {
		t.Errorf("resourceVersion = %d, want 1", pod.ResourceVersion)
	}
	stored := fake.Data["/pods/foo"].R.Node.Value
	if strings.Contains(stored, "resourceVersion") || !strings.Contains(stored, `"kind":"Pod"`) {
		t.Errorf("stored %s", stored)
	}
	if err := helper.CreateObj("/pods/foo", testPod("foo")); !IsEtcdNodeExist(err) {
		t.Errorf("second create: err = %v, want 105", err)
	}
	pod.ResourceVersion = 9
	if err := helper.CreateObj("/pods/bar", pod); err == nil {
		t.Errorf("create with a resourceVersion succeeded")
	}
}

func TestSetObjComparesAndSwapsOnTheResourceVersion(t *testing.T) {
	fake := NewFakeEtcdClient(t)
	fake.TestIndex = true
	helper := EtcdHelper{fake}
	pod := testPod("foo")
	if err := helper.SetObj("/pods/foo", pod); err != nil {
		t.Fatalf("set without version (a create): %v", err)
	}
	if err := helper.SetObj("/pods/foo", testPod("foo")); !IsEtcdNodeExist(err) {
		t.Errorf("set without version on an existing key: err = %v, want 105", err)
	}
	pod.Labels = map[string]string{"name": "bar"}
	if err := helper.SetObj("/pods/foo", pod); err != nil {
		t.Fatalf("set with the current version: %v", err)
	}
	if pod.ResourceVersion != 2 {
		t.Errorf("resourceVersion = %d, want 2", pod.ResourceVersion)
	}
	stale := testPod("foo")
	stale.ResourceVersion = 1
	if err := helper.SetObj("/pods/foo", stale); !IsEtcdTestFailed(err) {
		t.Errorf("set with a stale version: err = %v, want 101", err)
	}
	last := fake.Actions[len(fake.Actions)-1]
	if last.Action != "compareAndSwap" || last.Index != 1 {
		t.Errorf("last action = %+v", last)
	}
}

func TestAtomicUpdateCreatesWhenAbsentAndSwapsWhenPresent(t *testing.T) {
	fake := NewFakeEtcdClient(t)
	fake.TestIndex = true
	fake.ExpectNotFoundGet("/pods/foo")
	helper := EtcdHelper{fake}
	setHost := func(host string) EtcdUpdateFunc {
		return func(in api.Object) (api.Object, error) {
			pod := in.(*api.Pod)
			pod.ID = "foo"
			pod.DesiredState.Host = host
			return pod, nil
		}
	}
	if err := helper.AtomicUpdate("/pods/foo", &api.Pod{}, setHost("a")); err != nil {
		t.Fatal(err)
	}
	if err := helper.AtomicUpdate("/pods/foo", &api.Pod{}, setHost("b")); err != nil {
		t.Fatal(err)
	}
	var pod api.Pod
	if err := helper.ExtractObj("/pods/foo", &pod, false); err != nil || pod.DesiredState.Host != "b" || pod.ResourceVersion != 2 {
		t.Errorf("after two updates: %v, host %q at %d", err, pod.DesiredState.Host, pod.ResourceVersion)
	}
}

func TestAtomicUpdateSkipsTheWriteWhenNothingChanged(t *testing.T) {
	fake := NewFakeEtcdClient(t)
	fake.TestIndex = true
	helper := EtcdHelper{fake}
	if err := helper.CreateObj("/pods/foo", testPod("foo")); err != nil {
		t.Fatal(err)
	}
	writes := len(fake.Actions)
	err := helper.AtomicUpdate("/pods/foo", &api.Pod{}, func(in api.Object) (api.Object, error) { return in, nil })
	if err != nil {
		t.Fatal(err)
	}
	for _, a := range fake.Actions[writes:] {
		if a.Action != "get" {
			t.Errorf("unexpected %s", a.Action)
		}
	}
}

func TestAtomicUpdateRetriesWhenSomeoneElseWroteFirst(t *testing.T) {
	fake := NewFakeEtcdClient(t)
	fake.TestIndex = true
	helper := EtcdHelper{fake}
	if err := helper.CreateObj("/pods/foo", testPod("foo")); err != nil {
		t.Fatal(err)
	}
	calls := 0
	err := helper.AtomicUpdate("/pods/foo", &api.Pod{}, func(in api.Object) (api.Object, error) {
		calls++
		if calls == 1 {
			// Another writer changes the pod between our read and our
			// write.
			other := testPod("foo")
			other.ResourceVersion = 1
			other.Labels = map[string]string{"by": "other"}
			if err := helper.SetObj("/pods/foo", other); err != nil {
				t.Errorf("the other writer failed: %v", err)
			}
		}
		pod := in.(*api.Pod)
		pod.DesiredState.Host = "mine"
		return pod, nil
	})
	if err != nil {
		t.Fatal(err)
	}
	var pod api.Pod
	if err := helper.ExtractObj("/pods/foo", &pod, false); err != nil {
		t.Fatal(err)
	}
	if calls != 2 || pod.Labels["by"] != "other" || pod.DesiredState.Host != "mine" {
		t.Errorf("after %d calls: labels %v, host %q; want 2 calls keeping both writes", calls, pod.Labels, pod.DesiredState.Host)
	}
}

func TestAtomicUpdateStopsOnTheUpdatersError(t *testing.T) {
	fake := NewFakeEtcdClient(t)
	fake.TestIndex = true
	helper := EtcdHelper{fake}
	if err := helper.CreateObj("/pods/foo", testPod("foo")); err != nil {
		t.Fatal(err)
	}
	refused := errors.New("refused")
	err := helper.AtomicUpdate("/pods/foo", &api.Pod{}, func(api.Object) (api.Object, error) { return nil, refused })
	if err != refused {
		t.Errorf("err = %v, want the updater's", err)
	}
}

func TestEtcdErrorKinds(t *testing.T) {
	cases := []struct {
		name string
		err  error
		is   func(error) bool
		want bool
	}{
		{"not found", EtcdErrorNotFound, IsEtcdNotFound, true},
		{"exists is not not-found", EtcdErrorNodeExist, IsEtcdNotFound, false},
		{"exists", EtcdErrorNodeExist, IsEtcdNodeExist, true},
		{"test failed", EtcdErrorTestFailed, IsEtcdTestFailed, true},
		{"event index cleared", &etcd.EtcdError{ErrorCode: 401}, IsEtcdWatchExpired, true},
		{"nil", nil, IsEtcdNotFound, false},
		{"plain error", errors.New("100"), IsEtcdNotFound, false},
		{"go-etcd gave up", &etcd.EtcdError{ErrorCode: etcd.ErrCodeEtcdNotReachable}, IsEtcdUnreachable, true},
		{"a 100 is reachable", EtcdErrorNotFound, IsEtcdUnreachable, false},
		{"wrapped", fmt.Errorf("x: %w", EtcdErrorTestFailed), IsEtcdTestFailed, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := c.is(c.err); got != c.want {
				t.Errorf("got %v, want %v", got, c.want)
			}
		})
	}
}

func TestCheckRetryMovesOnAfterANetworkErrorUntilEveryMemberHadItsTurns(t *testing.T) {
	netErr := errors.New("connection refused")
	three := etcd.NewCluster([]string{"http://a", "http://b", "http://c"})
	if err := checkRetry(three, 2, http.Response{}, netErr); err != nil {
		t.Errorf("first network error: %v, want a retry", err)
	}
	err := checkRetry(three, retryRounds*3+1, http.Response{}, netErr)
	if !IsEtcdUnreachable(err) || !strings.Contains(err.Error(), "connection refused") {
		t.Errorf("after all rounds: %v, want 501 quoting the last error", err)
	}
	one := etcd.NewCluster([]string{"http://a"})
	if err := checkRetry(one, 3, http.Response{}, netErr); !IsEtcdUnreachable(err) {
		t.Errorf("a single member gets two attempts: %v", err)
	}
}
