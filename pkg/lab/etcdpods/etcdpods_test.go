package etcdpods

import (
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/kube-rewind/kube-rewind/pkg/api"
	"github.com/kube-rewind/kube-rewind/pkg/etcd/etcdtest"
	"github.com/kube-rewind/kube-rewind/pkg/labels"
	"github.com/kube-rewind/kube-rewind/pkg/tools"
	"github.com/kube-rewind/kube-rewind/pkg/watch"
	"github.com/kube-rewind/kube-rewind/pkg/watch/watchtest"
)

// put stores value at key on the member at base, as the apiserver would.
func put(t *testing.T, base, key, value string) {
	t.Helper()
	if err := putTo(base, key, value); err != nil {
		t.Fatal(err)
	}
}

// newMember starts an embedded member for the test and returns its client
// URL. At the end the clients' idle connections are closed before the
// member is: etcd's Close waits for a connection that was dialed and never
// used (tools.CloseIdleConnections), and in make test, where the transport
// dials such connections more often, a test waited 90 s for it.
func newMember(t *testing.T) string {
	member := etcdtest.New(t)
	t.Cleanup(closeIdleConnections)
	return member.ClientURL()
}

// closeIdleConnections closes the idle connections of the test's clients:
// the Sources' go-etcd clients and their HTTP client, and put's.
func closeIdleConnections() {
	tools.CloseIdleConnections()
	http.DefaultClient.CloseIdleConnections()
}

func putTo(base, key, value string) error {
	req, _ := http.NewRequest(http.MethodPut, base+"/v2/keys"+key, strings.NewReader(url.Values{"value": {value}}.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return err
	}
	resp.Body.Close()
	if resp.StatusCode/100 != 2 {
		return fmt.Errorf("PUT %s: %s", key, resp.Status)
	}
	return nil
}

func del(t *testing.T, base, key string) {
	t.Helper()
	req, _ := http.NewRequest(http.MethodDelete, base+"/v2/keys"+key, nil)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
}

func podJSON(id, app string) string {
	return fmt.Sprintf(`{"kind":"Pod","apiVersion":"v1beta1","id":%q,"labels":{"app":%q}}`, id, app)
}

// A watch from a list's version sends every change after it, those made
// before the stream opened included, with their types and versions, and
// only pods matching its label selector.
func TestTheWatchSendsEveryChangeAfterTheListInOrder(t *testing.T) {
	member := newMember(t)
	ns := fmt.Sprintf("/a%d", time.Now().UnixNano())
	src := New([]string{member})
	put(t, member, Prefix+ns+"-1", podJSON("a-1", "web"))
	list, err := src.ListPods(api.NewDefaultContext(), labels.Everything())
	if err != nil {
		t.Fatal(err)
	}
	// Changes after the list and before the watch: the gap.
	put(t, member, Prefix+ns+"-2", podJSON("a-2", "web"))
	put(t, member, "/registry/controllers/unrelated", "{}")
	put(t, member, Prefix+ns+"-3", podJSON("a-3", "db"))
	w, err := src.WatchPods(api.NewDefaultContext(), labels.SelectorFromSet(labels.Set{"app": "web"}), labels.Everything(), list.ResourceVersion)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Stop()
	if e := watchtest.Next(t, w); e.Type != watch.Added || e.Object.(*api.Pod).ID != "a-2" || e.Object.(*api.Pod).ResourceVersion <= list.ResourceVersion {
		t.Errorf("first event %s %+v", e.Type, e.Object)
	}
	// Changes on the open stream.
	put(t, member, Prefix+ns+"-2", podJSON("a-2", "web"))
	del(t, member, Prefix+ns+"-1")
	if e := watchtest.Next(t, w); e.Type != watch.Modified || e.Object.(*api.Pod).ID != "a-2" {
		t.Errorf("second event %s %+v", e.Type, e.Object)
	}
	if e := watchtest.Next(t, w); e.Type != watch.Deleted || e.Object.(*api.Pod).ID != "a-1" {
		t.Errorf("third event %s %+v", e.Type, e.Object)
	}
}

// A watch from a version etcd has forgotten ends with a 410, as the
// apiserver's does.
func TestAWatchFromBeyondEtcdsWindowEndsWithGone(t *testing.T) {
	member := newMember(t)
	src := New([]string{member})
	list, err := src.ListPods(api.NewDefaultContext(), labels.Everything())
	if err != nil {
		t.Fatal(err)
	}
	put(t, member, Prefix+"/gone", podJSON("gone", "x"))
	for i := 0; i < 1100; i++ {
		put(t, member, "/registry/controllers/churn", fmt.Sprint(i))
	}
	w, err := src.WatchPods(api.NewDefaultContext(), labels.Everything(), labels.Everything(), list.ResourceVersion)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Stop()
	e := watchtest.Next(t, w)
	if status, ok := e.Object.(*api.Status); e.Type != watch.Error || !ok || status.Code != http.StatusGone {
		t.Errorf("got %s %+v, want an ERROR event with a 410", e.Type, e.Object)
	}
}

// When the member a watch reads dies, the watch goes on from another
// member without losing or repeating an event.
func TestTheWatchMovesToAnotherMemberWhenItsMemberDies(t *testing.T) {
	cluster := etcdtest.StartCluster(t, 3)
	t.Cleanup(closeIdleConnections)
	src := New(cluster.ClientURLs())
	other := cluster.ClientURLs()[1]
	// A write can fail while the members elect a new leader: it is sent
	// again until one is taken.
	write := func(key, value string) {
		t.Helper()
		watchtest.Within(t, 30*time.Second, "PUT "+key+" taken", func() (bool, error) {
			err := putTo(other, key, value)
			return err == nil, err
		})
	}
	list, err := src.ListPods(api.NewDefaultContext(), labels.Everything())
	if err != nil {
		t.Fatal(err)
	}
	w, err := src.WatchPods(api.NewDefaultContext(), labels.Everything(), labels.Everything(), list.ResourceVersion)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Stop()
	write(Prefix+"/p0", podJSON("p0", "x"))
	if e := watchtest.Next(t, w); e.Object.(*api.Pod).ID != "p0" {
		t.Fatalf("first event %+v", e.Object)
	}
	cluster.Stop(0)
	for i := 1; i <= 5; i++ {
		write(Prefix+fmt.Sprintf("/p%d", i), podJSON(fmt.Sprintf("p%d", i), "x"))
	}
	for i := 1; i <= 5; i++ {
		if e := watchtest.Next(t, w); e.Type != watch.Added || e.Object.(*api.Pod).ID != fmt.Sprintf("p%d", i) {
			t.Errorf("event %d: %s %+v", i, e.Type, e.Object)
		}
	}
}

// ListAndWatch's watch brings what changed after the list, once: the
// changes it saw while the list was read, and are in the list, are left
// out.
func TestListAndWatchSendsOnlyWhatChangedAfterTheList(t *testing.T) {
	member := newMember(t)
	ns := fmt.Sprintf("/b%d", time.Now().UnixNano())
	put(t, member, Prefix+ns+"-1", podJSON("b-1", "web"))
	list, w, err := New([]string{member}).ListAndWatch(api.NewDefaultContext(), labels.Everything())
	if err != nil {
		t.Fatal(err)
	}
	defer w.Stop()
	found := false
	for _, p := range list.Items {
		found = found || p.ID == "b-1"
	}
	if !found {
		t.Fatalf("the list lacks b-1")
	}
	put(t, member, Prefix+ns+"-2", podJSON("b-2", "web"))
	if e := watchtest.Next(t, w); e.Type != watch.Added || e.Object.(*api.Pod).ID != "b-2" || e.Object.(*api.Pod).ResourceVersion <= list.ResourceVersion {
		t.Errorf("first event %s %+v, want b-2 added after the list", e.Type, e.Object)
	}
}

// A source reading a learner, and another process's source reading that
// learner's tail, each see every pod of a burst written to the member
// from 32 clients at once, far more than etcd's window, and no error.
func TestALearnerAndItsTailReaderSeeEveryPodOfABurst(t *testing.T) {
	member, src := cluster(t)
	watches, sources := watchBoth(t, src)
	const n = 2000
	written := make(chan error, 1)
	go func() { written <- burst(member.ClientURL(), 0, n, false) }()
	for i, w := range watches {
		seen := map[string]bool{}
		for len(seen) < n {
			e := watchtest.Next(t, w)
			pod, ok := e.Object.(*api.Pod)
			if e.Type != watch.Added || !ok {
				t.Fatalf("%s, after %d pods: %s %+v", sources[i], len(seen), e.Type, e.Object)
			}
			seen[pod.ID] = true
		}
	}
	if err := <-written; err != nil {
		t.Fatal(err)
	}
}
