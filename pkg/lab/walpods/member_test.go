package walpods

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"path/filepath"
	"sort"
	"sync"
	"testing"
	"time"

	"github.com/coreos/go-etcd/etcd"
	"github.com/kube-rewind/kube-rewind/pkg/tools"
	"go.etcd.io/etcd/server/v3/embed"
	"go.etcd.io/etcd/server/v3/wal"
)

// member is an embedded etcd member for a test, set up as pkg/etcd sets
// up the apiserver's (the v2 API on, loopback only, fast ticks, no
// fsync), with a low snapshot count and small WAL segments so that a
// test sees both happen.
type member struct {
	etcd    *embed.Etcd
	dataDir string
	url     string
}

// startMember starts a member in a fresh directory. segmentBytes is the
// WAL's segment size: etcd's wal.SegmentSizeBytes, a package variable,
// which this process's member reads as it creates each segment.
func startMember(t *testing.T, snapshotCount uint64, segmentBytes int64) *member {
	t.Helper()
	old := wal.SegmentSizeBytes
	wal.SegmentSizeBytes = segmentBytes
	t.Cleanup(func() { wal.SegmentSizeBytes = old })

	dir := t.TempDir()
	ec := embed.NewConfig()
	ec.Name = "walpods"
	ec.Dir = dir
	ec.EnableV2 = true
	loopback := url.URL{Scheme: "http", Host: "127.0.0.1:0"}
	ec.ListenClientUrls = []url.URL{loopback}
	ec.AdvertiseClientUrls = []url.URL{loopback}
	ec.ListenPeerUrls = []url.URL{loopback}
	ec.AdvertisePeerUrls = []url.URL{loopback}
	ec.InitialCluster = ec.InitialClusterFromName(ec.Name)
	ec.TickMs = 10
	ec.ElectionMs = 100
	ec.UnsafeNoFsync = true
	ec.Logger = "zap"
	ec.LogLevel = "error"
	ec.LogOutputs = []string{filepath.Join(dir, "etcd.log")}
	ec.SnapshotCount = snapshotCount
	// Keep every segment, so that a reader can start from the first
	// entry after the run; the test of a purged segment removes one
	// from a copy.
	ec.MaxWalFiles = 0

	e, err := embed.StartEtcd(ec)
	if err != nil {
		t.Fatal(err)
	}
	select {
	case <-e.Server.ReadyNotify():
	case err := <-e.Err():
		e.Close()
		t.Fatal(err)
	case <-time.After(30 * time.Second):
		e.Close()
		t.Fatal("the member was not ready after 30 s")
	}
	m := &member{etcd: e, dataDir: dir, url: "http://" + e.Clients[0].Addr().String()}
	t.Cleanup(m.close)
	return m
}

func (m *member) close() {
	if m.etcd != nil {
		m.etcd.Close()
		m.etcd = nil
	}
}

// podJSON is a pod as the 2014 apiserver stores it, about 700 bytes;
// serial makes every value written unique.
func podJSON(id string, serial int, phase string) string {
	return fmt.Sprintf(`{"kind":"Pod","id":%q,"creationTimestamp":"2014-09-01T12:00:00Z","selfLink":"/api/v1beta1/pods/%s","apiVersion":"v1beta1",`+
		`"labels":{"name":%q,"serial":"%d"},"desiredState":{"manifest":{"version":"v1beta1","id":%q,"uuid":"6a2b6c1e-31b4-11e4-9a56-%012d",`+
		`"volumes":null,"containers":[{"name":"pause","image":"kubernetes/pause:latest","ports":[{"name":"http","hostPort":0,"containerPort":8080,"protocol":"TCP"}],`+
		`"env":[{"name":"SERIAL","value":"%d"}],"cpu":100,"memory":67108864,"imagePullPolicy":""}],"restartPolicy":{"always":{}}},"status":"%s","host":"hollow-%d"},`+
		`"currentState":{"manifest":{"version":"","id":"","volumes":null,"containers":null,"restartPolicy":{}},"status":"%s","podIP":"10.244.%d.%d"}}`,
		id, id, id, serial, id, serial, serial, phase, serial%100, phase, serial%250, serial%200)
}

// workload is what writers did: the successful pod writes as the member
// acknowledged them, in the order of the store's index, and counts of the
// rest.
type workload struct {
	writes []Event
	// requests is every request sent; refusedCAS the compare-and-swaps
	// of pods the member refused, by the value they tried to write;
	// refused the other refused pod writes; others the writes outside
	// Prefix.
	requests   int
	refusedCAS map[string]bool
	refused    int
	others     int
}

// write runs pods pods through their lives from writers writers at
// once, each pod written by one writer: a create, a create again (refused),
// a compare-and-swap on a stale index and one on a wrong value (both
// refused), a compare-and-swap on the right index, a plain set for every
// other pod, then for two pods in three a compare-and-delete on a stale
// index (refused) and a delete, by index for every other one. Between
// pods each writer writes a key outside Prefix, one that shares its
// first letters.
func write(ctx context.Context, base string, pods, writers int) (*workload, error) {
	client := tools.NewEtcdClient([]string{base})
	var mu sync.Mutex
	w := &workload{refusedCAS: map[string]bool{}}
	var wg sync.WaitGroup
	errs := make(chan error, writers)
	for g := 0; g < writers; g++ {
		wg.Add(1)
		go func(g int) {
			defer wg.Done()
			var mine []Event
			var refusedCAS []string
			requests, refused, others := 0, 0, 0
			// ok records a write the member took; refuse one it must
			// refuse.
			ok := func(typ EventType, r *etcd.Response, err error) error {
				requests++
				if err != nil {
					return err
				}
				ev := Event{Type: typ, Key: r.Node.Key, StoreIndex: r.Node.ModifiedIndex}
				if typ == Deleted {
					ev.Value = r.PrevNode.Value
				} else {
					ev.Value = r.Node.Value
				}
				mine = append(mine, ev)
				return nil
			}
			refuse := func(code int, what string, err error) error {
				requests++
				var ee *etcd.EtcdError
				if !errors.As(err, &ee) || ee.ErrorCode != code {
					return fmt.Errorf("%s: want etcd's error %d, got %v", what, code, err)
				}
				refused++
				return nil
			}
			for i := g; i < pods; i += writers {
				if ctx.Err() != nil {
					errs <- ctx.Err()
					return
				}
				id := fmt.Sprintf("p%d", i)
				key := Prefix + id
				serial := i * 16
				next := func() string { serial++; return podJSON(id, serial, "Pending") }
				steps := []func() error{
					func() error { r, err := client.Create(key, next(), 0); return ok(Created, r, err) },
					func() error { _, err := client.Create(key, next(), 0); return refuse(105, "a second create", err) },
					func() error {
						v := next()
						_, err := client.CompareAndSwap(key, v, 0, "", 1)
						refusedCAS = append(refusedCAS, v)
						return refuse(101, "a compare-and-swap on a stale index", err)
					},
					func() error {
						v := next()
						_, err := client.CompareAndSwap(key, v, 0, "not the pod", 0)
						refusedCAS = append(refusedCAS, v)
						return refuse(101, "a compare-and-swap on a wrong value", err)
					},
					func() error {
						index := mine[len(mine)-1].StoreIndex
						r, err := client.CompareAndSwap(key, podJSON(id, serial+1, "Running"), 0, "", index)
						serial++
						return ok(Updated, r, err)
					},
				}
				if i%2 == 0 {
					steps = append(steps, func() error { r, err := client.Set(key, next(), 0); return ok(Updated, r, err) })
				}
				if i%3 != 0 {
					steps = append(steps,
						func() error {
							_, err := client.CompareAndDelete(key, "", 1)
							return refuse(101, "a compare-and-delete on a stale index", err)
						},
						func() error {
							if i%2 == 0 {
								r, err := client.Delete(key, false)
								return ok(Deleted, r, err)
							}
							r, err := client.CompareAndDelete(key, "", mine[len(mine)-1].StoreIndex)
							return ok(Deleted, r, err)
						})
				}
				steps = append(steps, func() error {
					requests++
					others++
					_, err := client.Set(fmt.Sprintf("/registry/podsets/%s", id), "{}", 0)
					return err
				})
				for _, step := range steps {
					if err := step(); err != nil {
						errs <- fmt.Errorf("pod %s: %v", id, err)
						return
					}
				}
			}
			mu.Lock()
			w.writes = append(w.writes, mine...)
			for _, v := range refusedCAS {
				w.refusedCAS[v] = true
			}
			w.requests += requests
			w.refused += refused
			w.others += others
			mu.Unlock()
		}(g)
	}
	wg.Wait()
	tools.CloseIdleConnections()
	close(errs)
	if err := <-errs; err != nil {
		return nil, err
	}
	sort.Slice(w.writes, func(i, j int) bool { return w.writes[i].StoreIndex < w.writes[j].StoreIndex })
	return w, nil
}
