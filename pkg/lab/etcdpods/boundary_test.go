package etcdpods

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/kube-rewind/kube-rewind/pkg/api"
	"github.com/kube-rewind/kube-rewind/pkg/labels"
	"github.com/kube-rewind/kube-rewind/pkg/watch"
	"github.com/kube-rewind/kube-rewind/pkg/watch/watchtest"
)

// write sends a PUT of value, or a DELETE, of key to the member at base
// and returns the index etcd gave the change.
func write(t *testing.T, base, method, key, value string) uint64 {
	t.Helper()
	var body io.Reader
	if method == http.MethodPut {
		body = strings.NewReader(url.Values{"value": {value}}.Encode())
	}
	req, err := http.NewRequest(method, base+"/v2/keys"+key, body)
	if err != nil {
		t.Fatal(err)
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var answer struct {
		Node struct{ ModifiedIndex uint64 }
	}
	err = json.NewDecoder(resp.Body).Decode(&answer)
	if err != nil || resp.StatusCode/100 != 2 || answer.Node.ModifiedIndex == 0 {
		t.Fatalf("%s %s: %s, %v", method, key, resp.Status, err)
	}
	return answer.Node.ModifiedIndex
}

// change is a write of a pod as its watch event should tell it.
type change struct {
	typ   watch.EventType
	id    string
	index uint64
}

func (c change) String() string { return fmt.Sprintf("%s %s at %d", c.typ, c.id, c.index) }

// podWriter writes pods to a member and records each change.
type podWriter struct {
	t       *testing.T
	base    string
	changes []change
	alive   map[string]bool
}

// put creates or replaces the pod id.
func (p *podWriter) put(id, app string) {
	p.t.Helper()
	typ := watch.Added
	if p.alive[id] {
		typ = watch.Modified
	}
	i := write(p.t, p.base, http.MethodPut, Prefix+"/"+id, podJSON(id, app))
	p.alive[id] = true
	p.changes = append(p.changes, change{typ, id, i})
}

// del deletes the pod id.
func (p *podWriter) del(id string) {
	p.t.Helper()
	i := write(p.t, p.base, http.MethodDelete, Prefix+"/"+id, "")
	delete(p.alive, id)
	p.changes = append(p.changes, change{watch.Deleted, id, i})
}

// last returns the index of the last change written.
func (p *podWriter) last() uint64 { return p.changes[len(p.changes)-1].index }

// checkList fails t unless list has, of the pods the changes name,
// those the changes up to its version leave, and no other.
func checkList(t *testing.T, list *api.PodList, changes []change) {
	t.Helper()
	// alive holds, by pod, the index of its last write up to the list's
	// version.
	alive := map[string]uint64{}
	for _, c := range changes {
		switch {
		case c.index > list.ResourceVersion:
		case c.typ == watch.Deleted:
			delete(alive, c.id)
		default:
			alive[c.id] = c.index
		}
	}
	listed := map[string]bool{}
	for _, p := range list.Items {
		listed[p.ID] = true
	}
	checked := map[string]bool{}
	for _, c := range changes {
		if checked[c.id] {
			continue
		}
		checked[c.id] = true
		i, ok := alive[c.id]
		switch {
		case ok && !listed[c.id]:
			t.Errorf("the list at version %d lacks %s, written at %d", list.ResourceVersion, c.id, i)
		case !ok && listed[c.id]:
			t.Errorf("the list at version %d has %s, which is not there at that version", list.ResourceVersion, c.id)
		}
	}
}

// watchedChanges reads w until the change end comes, an error event does,
// or the watch closes, and returns the changes it sent.
func watchedChanges(t *testing.T, w watch.Interface, end change) []change {
	t.Helper()
	var got []change
	for {
		var e watch.Event
		select {
		case ev, ok := <-w.ResultChan():
			if !ok {
				t.Errorf("the watch closed after %v", got)
				return got
			}
			e = ev
		case <-time.After(watchtest.Timeout):
			t.Errorf("the watch sent nothing for %v after %v, and not %v, the last change written", watchtest.Timeout, got, end)
			return got
		}
		pod, ok := e.Object.(*api.Pod)
		if !ok {
			t.Errorf("after %v the watch sent %s %+v", got, e.Type, e.Object)
			return got
		}
		c := change{e.Type, pod.ID, pod.ResourceVersion}
		got = append(got, c)
		if c == end {
			return got
		}
	}
}

// judge names every change after version that got lacks or repeats, every
// change it has that is at or before version, and every one out of
// order; nil if got is every change of want after version, once, in
// order.
func judge(version uint64, want, got []change) []string {
	var problems []string
	wanted := map[change]bool{}
	for _, c := range want {
		if c.index > version {
			wanted[c] = true
		}
	}
	sent := map[change]int{}
	var prev change
	for _, c := range got {
		sent[c]++
		switch {
		case c.index <= version:
			problems = append(problems, fmt.Sprintf("%v came, though the list at version %d has it", c, version))
		case !wanted[c]:
			problems = append(problems, fmt.Sprintf("%v came, which no write made", c))
		case sent[c] > 1:
			problems = append(problems, fmt.Sprintf("%v came twice", c))
		case c.index < prev.index:
			problems = append(problems, fmt.Sprintf("%v came after %v", c, prev))
		}
		prev = c
	}
	for _, c := range want {
		if !wanted[c] || sent[c] > 0 {
			continue
		}
		// Name what the watch sent on either side of the missing one.
		i := sort.Search(len(got), func(i int) bool { return got[i].index > c.index })
		before, after := fmt.Sprintf("the list at version %d", version), "nothing"
		if i > 0 {
			before = got[i-1].String()
		}
		if i < len(got) {
			after = got[i].String()
		}
		problems = append(problems, fmt.Sprintf("%v missing: after %s came %s", c, before, after))
	}
	return problems
}

// Every change of a pod after a list comes once, in order, on a watch
// from the list's version, whatever the source and the way the watch
// begins, with writes planted at the boundary:
//
//   - a list, then a watch from its version, as the apiserver's clients
//     do, with changes written between the two: the first at the list's
//     version plus one;
//   - ListAndWatch, whose watch begins before its list, with changes
//     written between the two, the last at the list's version, and with
//     none;
//   - for the sources that read a tail, a list, then a watch from its
//     version, while the tail is held behind the learner the list was
//     read from.
//
// Each run ends with a last change the test waits for: every change
// before it has come by then, so a missing or repeated one is named
// at once.
//
// Guards the boundary: a watch that begins one index late loses the
// change at the list's version plus one, one that keeps the change at
// the list's version repeats it, and a tail that passes a subscription
// the events it takes in at or before the subscription's index repeats
// what the list has.
func TestEveryPodChangeAfterAListComesOnceOnItsWatch(t *testing.T) {
	member, src := cluster(t)
	// The direct source's clients are closed before the member, which
	// waits for them.
	t.Cleanup(closeIdleConnections)
	sources := []struct {
		name string
		src  *Source
		// tail is set for the sources that read the learner's tail.
		tail bool
	}{
		{"the member read directly", New([]string{member.ClientURL()}), false},
		{"the learner's source", src, true},
		{"the tail's reader over HTTP", NewTailReader(src.LearnerURL()), true},
	}
	ways := []struct {
		name string
		// listAndWatch lists and watches by Source.ListAndWatch, else by
		// a list and then a watch from its version.
		listAndWatch bool
		// gap is set to write changes between the list and the watch.
		gap bool
		// held holds the tail back from before the changes the list has
		// until the watch has begun.
		held bool
	}{
		{"a list, changes, then a watch from the list's version", false, true, false},
		{"ListAndWatch with changes between its watch and its list", true, true, false},
		{"ListAndWatch with no change between its watch and its list", true, false, false},
		{"a list, then a watch from its version, the tail held behind the list", false, false, true},
	}
	ctx := api.NewDefaultContext()
	for i, s := range sources {
		for j, way := range ways {
			if way.held && !s.tail {
				continue
			}
			t.Run(s.name+"/"+way.name, func(t *testing.T) {
				ns := fmt.Sprintf("w%d-%d-", i, j)
				p := &podWriter{t: t, base: member.ClientURL(), alive: map[string]bool{}}
				// caughtUp waits until s's list would have every change
				// written so far.
				caughtUp := func() {
					t.Helper()
					if !s.tail {
						return
					}
					target := p.last()
					watchtest.Within(t, 60*time.Second, fmt.Sprintf("the learner to apply the change at %d", target), func() (bool, error) {
						return indexOf(t, src.LearnerURL()) >= target, nil
					})
				}
				release := func() {}
				if way.held {
					src.tail.held.Lock()
					release = sync.OnceFunc(src.tail.held.Unlock)
					defer release()
				}
				p.put(ns+"a", "web")
				p.put(ns+"b", "web")
				p.put(ns+"c", "web")
				caughtUp()
				subscribed := map[*subscription]bool{}
				if s.tail {
					src.tail.mu.Lock()
					for sub := range src.tail.subs {
						subscribed[sub] = true
					}
					src.tail.mu.Unlock()
				}
				var list *api.PodList
				var w watch.Interface
				var err error
				if way.listAndWatch {
					if way.gap {
						s.src.listing = func() {
							p.put(ns+"d", "web")
							p.put(ns+"a", "db")
							p.del(ns + "b")
							caughtUp()
						}
						defer func() { s.src.listing = nil }()
					}
					list, w, err = s.src.ListAndWatch(ctx, labels.Everything())
					if err != nil {
						t.Fatal(err)
					}
				} else {
					list, err = s.src.ListPods(ctx, labels.Everything())
					if err != nil {
						t.Fatal(err)
					}
					if way.gap {
						p.put(ns+"a", "db")
						p.put(ns+"d", "web")
						p.del(ns + "b")
					}
					w, err = s.src.WatchPods(ctx, labels.Everything(), labels.Everything(), list.ResourceVersion)
					if err != nil {
						t.Fatal(err)
					}
				}
				defer w.Stop()
				checkList(t, list, p.changes)
				if way.held {
					// The watch has begun once the tail has a subscription
					// it did not have before.
					watchtest.Eventually(t, "a new subscription to the tail", func() bool {
						src.tail.mu.Lock()
						defer src.tail.mu.Unlock()
						for sub := range src.tail.subs {
							if !subscribed[sub] {
								return true
							}
						}
						return false
					})
					release()
				}
				p.put(ns+"c", "db")
				p.put(ns+"e", "web")
				p.del(ns + "a")
				p.put(ns+"end", "web")
				// The boundary has a change on each side only if nothing
				// else took an index there.
				var before, after change
				for _, c := range p.changes {
					if c.index <= list.ResourceVersion {
						before = c
					} else if after.index == 0 {
						after = c
					}
				}
				if before.index != list.ResourceVersion || after.index != list.ResourceVersion+1 {
					t.Fatalf("the changes on either side of the list at version %d are %v and %v: something else wrote there", list.ResourceVersion, before, after)
				}
				got := watchedChanges(t, w, p.changes[len(p.changes)-1])
				if problems := judge(list.ResourceVersion, p.changes, got); len(problems) > 0 {
					t.Errorf("after the list at version %d the watch sent %v:\n%s", list.ResourceVersion, got, strings.Join(problems, "\n"))
				}
			})
		}
	}
}
