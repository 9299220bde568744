package etcd_test

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/kube-rewind/kube-rewind/pkg/etcd"
	"github.com/kube-rewind/kube-rewind/pkg/etcd/etcdtest"
)

// cluster starts a member whose peers can reach it and a learner of it.
func cluster(t *testing.T) (member, learner *etcd.Server) {
	t.Helper()
	ports, err := etcdtest.FreePorts(2)
	if err != nil {
		t.Fatal(err)
	}
	member, err = etcd.Start(etcd.Config{DataDir: t.TempDir(), PeerPort: ports[0], FastTicks: true, NoFsync: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(member.Close)
	learner, err = etcd.StartLearner(etcd.Config{DataDir: t.TempDir(), PeerPort: ports[1], NoFsync: true}, []string{member.ClientURL()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(learner.Close)
	return member, learner
}

func put(base, key, value string) error {
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

// burst writes n pods and as many other keys to base from 32 writers at
// once.
func burst(t *testing.T, base string, n int) {
	t.Helper()
	var wg sync.WaitGroup
	errs := make(chan error, 64)
	for w := 0; w < 32; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			for i := w; i < n; i += 32 {
				if err := put(base, fmt.Sprintf("/registry/pods/p%d", i), "{}"); err != nil {
					errs <- err
					return
				}
				if err := put(base, fmt.Sprintf("/registry/controllers/c%d", i), "{}"); err != nil {
					errs <- err
					return
				}
			}
		}(w)
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
}

// A learner's tail has every event under its prefix, once and in index
// order, however the learner batches what it applies: a burst of writes
// from 32 clients to the member, far more than etcd's window of 1000.
func TestALearnersTailHasEveryEventOfABurstInOrder(t *testing.T) {
	member, learner := cluster(t)
	tail, err := learner.Tail("/registry/pods")
	if err != nil {
		t.Fatal(err)
	}
	defer tail.Close()
	sub, err := tail.Subscribe(0)
	if err == nil {
		t.Fatal("a subscription from index 0, before the tail began, was taken")
	}
	probe, err := http.Get(learner.ClientURL() + "/v2/keys/none")
	if err != nil {
		t.Fatal(err)
	}
	probe.Body.Close()
	var now uint64
	fmt.Sscan(probe.Header.Get("X-Etcd-Index"), &now)
	sub, err = tail.Subscribe(now)
	if err != nil {
		t.Fatal(err)
	}
	defer sub.Close()
	const n = 3000
	burst(t, member.ClientURL(), n)
	seen := map[string]bool{}
	var last uint64
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	for len(seen) < n {
		events, err := sub.Next(ctx)
		if err != nil {
			t.Fatalf("after %d of %d pods: %v", len(seen), n, err)
		}
		for _, e := range events {
			if !strings.HasPrefix(e.Node.Key, "/1/registry/pods/") {
				t.Fatalf("event of %s, outside the prefix", e.Node.Key)
			}
			if e.Index() <= last {
				t.Fatalf("event at %d after %d", e.Index(), last)
			}
			last = e.Index()
			if seen[e.Node.Key] {
				t.Fatalf("%s twice", e.Node.Key)
			}
			seen[e.Node.Key] = true
		}
	}
}

// Another process reads the tail over the learner's client URL: every
// event after the index it asks for, as etcd's watch writes them, and an
// etcd error 401 for an index the tail does not have.
func TestTheTailStreamsOverHTTP(t *testing.T) {
	member, learner := cluster(t)
	tail, err := learner.Tail("/registry/pods")
	if err != nil {
		t.Fatal(err)
	}
	defer tail.Close()
	resp, err := http.Get(learner.ClientURL() + etcd.TailPath + "?after=0")
	if err != nil {
		t.Fatal(err)
	}
	var gone struct{ ErrorCode int }
	json.NewDecoder(resp.Body).Decode(&gone)
	resp.Body.Close()
	if resp.StatusCode != http.StatusBadRequest || gone.ErrorCode != 401 {
		t.Fatalf("after=0: %s, errorCode %d; want 400 with etcd's 401", resp.Status, gone.ErrorCode)
	}
	probe, err := http.Get(learner.ClientURL() + "/v2/keys/none")
	if err != nil {
		t.Fatal(err)
	}
	probe.Body.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, learner.ClientURL()+etcd.TailPath+"?after="+probe.Header.Get("X-Etcd-Index"), nil)
	resp, err = http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if err := put(member.ClientURL(), "/registry/controllers/c", "{}"); err != nil {
		t.Fatal(err)
	}
	if err := put(member.ClientURL(), "/registry/pods/a", `{"id":"a"}`); err != nil {
		t.Fatal(err)
	}
	lines := bufio.NewScanner(resp.Body)
	if !lines.Scan() {
		t.Fatalf("the stream ended: %v", lines.Err())
	}
	var e struct {
		Action string
		Node   struct {
			Key, Value    string
			ModifiedIndex uint64
		}
	}
	if err := json.Unmarshal(lines.Bytes(), &e); err != nil {
		t.Fatal(err)
	}
	if e.Action != "set" || e.Node.Key != "/registry/pods/a" || e.Node.Value != `{"id":"a"}` || e.Node.ModifiedIndex == 0 {
		t.Fatalf("first event %s", lines.Bytes())
	}
}
