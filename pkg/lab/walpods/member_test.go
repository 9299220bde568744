package walpods

import (
	"context"
	"errors"
	"fmt"
	"math/rand"
	"net"
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
	// snapshotCount is what a restart starts the member with again.
	snapshotCount uint64
}

// startMember starts a member in a fresh directory. segmentBytes is the
// WAL's segment size: etcd's wal.SegmentSizeBytes, a package variable,
// which this process's member reads as it creates each segment.
func startMember(t *testing.T, snapshotCount uint64, segmentBytes int64) *member {
	t.Helper()
	return startMemberAt(t, "127.0.0.1:0", snapshotCount, segmentBytes)
}

// startMemberAt is startMember with the member's clients served at
// clientAddr (host:port, loopback). A member that a test restarts is
// given a port of its own (restartPort): it serves there again after the
// restart, and its clients reconnect.
func startMemberAt(t *testing.T, clientAddr string, snapshotCount uint64, segmentBytes int64) *member {
	t.Helper()
	old := wal.SegmentSizeBytes
	wal.SegmentSizeBytes = segmentBytes
	t.Cleanup(func() { wal.SegmentSizeBytes = old })

	m := &member{dataDir: t.TempDir(), snapshotCount: snapshotCount}
	if err := m.launch(clientAddr); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(m.close)
	return m
}

// launch starts the member in its data directory, serving clients at
// clientAddr: a new member if the directory is empty, else the member
// the directory holds, which reads its snapshot and its WAL back.
func (m *member) launch(clientAddr string) error {
	ec := embed.NewConfig()
	ec.Name = "walpods"
	ec.Dir = m.dataDir
	ec.EnableV2 = true
	client := url.URL{Scheme: "http", Host: clientAddr}
	loopback := url.URL{Scheme: "http", Host: "127.0.0.1:0"}
	ec.ListenClientUrls = []url.URL{client}
	ec.AdvertiseClientUrls = []url.URL{client}
	ec.ListenPeerUrls = []url.URL{loopback}
	ec.AdvertisePeerUrls = []url.URL{loopback}
	ec.InitialCluster = ec.InitialClusterFromName(ec.Name)
	ec.TickMs = 10
	ec.ElectionMs = 100
	ec.UnsafeNoFsync = true
	ec.Logger = "zap"
	ec.LogLevel = "error"
	ec.LogOutputs = []string{filepath.Join(m.dataDir, "etcd.log")}
	ec.SnapshotCount = m.snapshotCount
	// Keep every segment, so that a reader can start from the first
	// entry after the run; the test of a purged segment removes one
	// from a copy.
	ec.MaxWalFiles = 0

	e, err := embed.StartEtcd(ec)
	if err != nil {
		return err
	}
	select {
	case <-e.Server.ReadyNotify():
	case err := <-e.Err():
		e.Close()
		return err
	case <-time.After(30 * time.Second):
		e.Close()
		return errors.New("the member was not ready after 30 s")
	}
	m.etcd = e
	m.url = "http://" + e.Clients[0].Addr().String()
	return nil
}

func (m *member) close() {
	if m.etcd != nil {
		m.etcd.Close()
		m.etcd = nil
	}
}

// restartPort is a loopback address, with a free port below the range
// the kernel gives outgoing connections (32768 up, by default): while a
// restarted member is down, no connection, of this process or another,
// can take its port as its own end.
func restartPort(t *testing.T) string {
	t.Helper()
	rng := rand.New(rand.NewSource(time.Now().UnixNano()))
	for i := 0; i < 100; i++ {
		addr := fmt.Sprintf("127.0.0.1:%d", 20000+rng.Intn(12000))
		l, err := net.Listen("tcp", addr)
		if err != nil {
			continue
		}
		l.Close()
		return addr
	}
	t.Fatal("no free port between 20000 and 32000")
	return ""
}

// outage tells writers whether the member they write to is down: a
// test that restarts the member calls begin before it stops it and end
// once it is ready again. The nil outage is a member that never stops.
type outage struct {
	mu sync.Mutex
	// begun counts the stops so far; up is closed while the member is
	// up.
	begun int
	up    chan struct{}
}

func newOutage() *outage {
	o := &outage{up: make(chan struct{})}
	close(o.up)
	return o
}

func (o *outage) begin() {
	if o == nil {
		return
	}
	o.mu.Lock()
	defer o.mu.Unlock()
	o.begun++
	o.up = make(chan struct{})
}

func (o *outage) end() {
	if o == nil {
		return
	}
	o.mu.Lock()
	defer o.mu.Unlock()
	close(o.up)
}

// stops is how many times the member has been stopped so far.
func (o *outage) stops() int {
	if o == nil {
		return 0
	}
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.begun
}

// interrupted says whether a request sent when stops() said n can have
// failed because the member stopped: it is down, or was stopped since.
func (o *outage) interrupted(n int) bool {
	if o == nil {
		return false
	}
	o.mu.Lock()
	defer o.mu.Unlock()
	select {
	case <-o.up:
		return o.begun != n
	default:
		return true
	}
}

// wait waits until the member is up.
func (o *outage) wait(ctx context.Context) error {
	if o == nil {
		return nil
	}
	o.mu.Lock()
	up := o.up
	o.mu.Unlock()
	select {
	case <-up:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// untouched checks that the member holds a writer's pod key as the
// writer's last acknowledged write of it left it (mine is the writer's
// acknowledged writes, and no other writer writes the key): absent before
// its create and after its delete, else at the index of that write.
func untouched(client *etcd.Client, key string, mine []Event) error {
	var last *Event
	for i := len(mine) - 1; i >= 0; i-- {
		if mine[i].Key == key {
			last = &mine[i]
			break
		}
	}
	gone := last == nil || last.Type == Deleted
	r, err := client.Get(key, false, false)
	var ee *etcd.EtcdError
	switch {
	case err == nil && gone:
		return fmt.Errorf("the member holds %s, written at index %d, where the writer's acknowledged writes leave it absent", key, r.Node.ModifiedIndex)
	case err == nil && r.Node.ModifiedIndex != last.StoreIndex:
		return fmt.Errorf("the member holds %s as written at index %d, the writer's last acknowledged write of it was at %d", key, r.Node.ModifiedIndex, last.StoreIndex)
	case err == nil:
		return nil
	case errors.As(err, &ee) && ee.ErrorCode == 100:
		if !gone {
			return fmt.Errorf("the member no longer holds %s, which the writer last wrote at index %d and never deleted", key, last.StoreIndex)
		}
		return nil
	}
	return fmt.Errorf("reading %s back: %v", key, err)
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
	// again is how many requests were sent again because the member
	// stopped while they were on their way (writeThrough).
	again int
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
	return writeThrough(ctx, base, pods, writers, nil)
}

// writeThrough is write to a member that down may stop and start again
// while the writers write (nil: one that stays up). A request that fails
// while the member is down, or that was on its way when it went down, was
// not taken (the member finishes the requests it has begun before it
// stops): the writer checks that its pod's key is as its last
// acknowledged write left it, and sends the request again once the member
// is back.
func writeThrough(ctx context.Context, base string, pods, writers int, down *outage) (*workload, error) {
	var mu sync.Mutex
	w := &workload{refusedCAS: map[string]bool{}}
	var wg sync.WaitGroup
	errs := make(chan error, writers)
	for g := 0; g < writers; g++ {
		wg.Add(1)
		go func(g int) {
			defer wg.Done()
			// A client of its own: on a network error go-etcd's client
			// picks another member in a field it does not lock.
			client := tools.NewEtcdClient([]string{base})
			var mine []Event
			var refusedCAS []string
			requests, refused, others, again := 0, 0, 0, 0
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
					for {
						stops := down.stops()
						err := step()
						if err == nil {
							break
						}
						if !down.interrupted(stops) {
							errs <- fmt.Errorf("pod %s: %v", id, err)
							return
						}
						if werr := down.wait(ctx); werr != nil {
							errs <- fmt.Errorf("pod %s: a request failed while the member was down (%v), and the member did not come back: %v", id, err, werr)
							return
						}
						if err := untouched(client, key, mine); err != nil {
							errs <- fmt.Errorf("pod %s: a request failed while the member was down, and yet the member took it: %v", id, err)
							return
						}
						again++
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
			w.again += again
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
