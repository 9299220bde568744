package walpods

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math/rand"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"go.etcd.io/etcd/api/v3/etcdserverpb"
	"go.etcd.io/etcd/api/v3/v3rpc/rpctypes"
	clientv3 "go.etcd.io/etcd/client/v3"
	"go.uber.org/zap"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
)

// encodePod is a pod as today's kube-apiserver stores it: a v1.Pod in the
// Kubernetes protobuf encoding, "k8s\x00" first, about 600 bytes. serial
// makes every value written unique.
func encodePod(t testing.TB, ns, name string, serial int64, phase corev1.PodPhase) []byte {
	pod := &corev1.Pod{
		TypeMeta: metav1.TypeMeta{Kind: "Pod", APIVersion: "v1"},
		ObjectMeta: metav1.ObjectMeta{
			Name: name, Namespace: ns,
			UID:               types.UID(fmt.Sprintf("6a2b6c1e-31b4-11e4-9a56-%012d", serial)),
			CreationTimestamp: metav1.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC),
			Labels:            map[string]string{"app": name, "serial": strconv.FormatInt(serial, 10)},
		},
		Spec: corev1.PodSpec{
			NodeName: nodeOf(serial),
			Containers: []corev1.Container{{
				Name: "pause", Image: "registry.k8s.io/pause:3.10",
				Ports: []corev1.ContainerPort{{Name: "http", ContainerPort: 8080, Protocol: corev1.ProtocolTCP}},
				Env:   []corev1.EnvVar{{Name: "SERIAL", Value: strconv.FormatInt(serial, 10)}},
				Resources: corev1.ResourceRequirements{Requests: corev1.ResourceList{
					corev1.ResourceCPU: resource.MustParse("100m"), corev1.ResourceMemory: resource.MustParse("64Mi"),
				}},
			}},
		},
		Status: corev1.PodStatus{Phase: phase, PodIP: fmt.Sprintf("10.244.%d.%d", serial%250, serial%200)},
	}
	var b bytes.Buffer
	if err := podCodec.Encode(pod, &b); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// nodeOf is the node a pod of a serial is bound to: none for one in
// seven.
func nodeOf(serial int64) string {
	if serial%7 == 0 {
		return ""
	}
	return fmt.Sprintf("hollow-%d", serial%50)
}

// workV3 counts what the writers did, as the member answered them.
type workV3 struct {
	// txns is every pod Txn sent; succeeded those whose compares held;
	// failed those whose compares failed; planted those of them whose
	// success branch the planted fault reports: a Put of a pod, or a
	// delete of a pod that was there.
	txns, succeeded, failed, planted atomic.Int64
	// refused is the requests the member refused whole (a Range at a
	// future or compacted revision, a write under a NOSPACE alarm);
	// others the writes outside Prefix; leases the leases revoked or
	// expired; rangeDeletes the deletes of a prefix of pods; compactions
	// the compactions.
	refused, others, leases, rangeDeletes, compactions atomic.Int64
}

func (w *workV3) String() string {
	return fmt.Sprintf("%d pod Txns (%d compares held, %d failed, %d of them with a pod write the fault reports), %d requests refused whole, %d writes outside %s, %d leases revoked, %d deletes of a prefix of pods, %d compactions",
		w.txns.Load(), w.succeeded.Load(), w.failed.Load(), w.planted.Load(), w.refused.Load(), w.others.Load(), Prefix, w.leases.Load(), w.rangeDeletes.Load(), w.compactions.Load())
}

// pool is the live pods the writers share, each with the mod revision a
// writer last saw, which another may since have moved: as the apiserver's
// watch cache, stale at times.
type pool struct {
	mu   sync.Mutex
	keys []string
	rev  map[string]int64
}

func (p *pool) set(key string, rev int64) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if _, ok := p.rev[key]; !ok {
		p.keys = append(p.keys, key)
	}
	p.rev[key] = rev
}

func (p *pool) remove(key string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if _, ok := p.rev[key]; !ok {
		return
	}
	delete(p.rev, key)
	for i, k := range p.keys {
		if k == key {
			p.keys[i] = p.keys[len(p.keys)-1]
			p.keys = p.keys[:len(p.keys)-1]
			break
		}
	}
}

func (p *pool) pick(rng *rand.Rand) (string, int64, int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if len(p.keys) == 0 {
		return "", 0, 0
	}
	k := p.keys[rng.Intn(len(p.keys))]
	return k, p.rev[k], len(p.keys)
}

// writersV3 writes pods from writers goroutines at once, ops operations
// each, as kube-apiserver writes them (its OptimisticPut and
// OptimisticDelete): a create is Txn(If(mod_revision == 0)).Then(Put).
// Else(Get); an update Txn(If(mod_revision == rev)).Then(Put).Else(Get)
// with the revision the writer last saw, again with the revision the Get
// returned while it fails; a delete likewise with Then(Delete). The pods
// are shared, so that writers' compares fail on each other's writes, and
// one create in twenty is of a pod that exists.
func writersV3(ctx context.Context, t testing.TB, cli *clientv3.Client, writers, ops int, w *workV3) error {
	p := &pool{rev: map[string]int64{}}
	var serial, names atomic.Int64
	errs := make(chan error, writers)
	var wg sync.WaitGroup
	for g := 0; g < writers; g++ {
		wg.Add(1)
		go func(g int) {
			defer wg.Done()
			rng := rand.New(rand.NewSource(int64(g) + 1))
			ns := []string{"default", "kube-system", fmt.Sprintf("ns-%d", g%3)}
			// txn sends one pod Txn and counts it; exists says whether
			// the key was there when the member applied it.
			txn := func(key string, cmp clientv3.Cmp, then clientv3.Op) (ok bool, exists bool, rev int64, err error) {
				resp, err := cli.Txn(ctx).If(cmp).Then(then).Else(clientv3.OpGet(key)).Commit()
				w.txns.Add(1)
				if err != nil {
					return false, false, 0, err
				}
				if resp.Succeeded {
					w.succeeded.Add(1)
					return true, then.IsPut(), resp.Header.Revision, nil
				}
				w.failed.Add(1)
				kvs := resp.Responses[0].GetResponseRange().Kvs
				if then.IsPut() || len(kvs) > 0 {
					w.planted.Add(1)
				}
				if len(kvs) == 0 {
					return false, false, 0, nil
				}
				return false, true, kvs[0].ModRevision, nil
			}
			put := func(key string) clientv3.Op {
				i := strings.LastIndexByte(key, '/')
				phase := corev1.PodRunning
				s := serial.Add(1)
				if s%3 == 0 {
					phase = corev1.PodPending
				}
				return clientv3.OpPut(key, string(encodePod(t, key[len(Prefix):i], key[i+1:], s, phase)))
			}
			for n := 0; n < ops; n++ {
				if ctx.Err() != nil {
					errs <- ctx.Err()
					return
				}
				key, rev, live := p.pick(rng)
				r := rng.Intn(100)
				var err error
				switch {
				case live < 24 || r < 20 || (r < 25 && key == ""):
					// A create of a new pod.
					key = fmt.Sprintf("%s%s/pod-%d", Prefix, ns[rng.Intn(len(ns))], names.Add(1))
					var ok bool
					ok, _, rev, err = txn(key, clientv3.Compare(clientv3.ModRevision(key), "=", 0), put(key))
					if err == nil && !ok {
						err = fmt.Errorf("the create of the new pod %s failed its compare", key)
					}
					if err == nil {
						p.set(key, rev)
					}
				case r < 25:
					// A create of a pod that is there (or was).
					var ok, exists bool
					ok, exists, rev, err = txn(key, clientv3.Compare(clientv3.ModRevision(key), "=", 0), put(key))
					if err == nil && ok {
						p.set(key, rev)
					} else if err == nil && !exists {
						p.remove(key)
					}
				default:
					// An update, or one in eight a delete, retried while its
					// compare fails and the pod is there.
					del := r >= 100-100/8
					for attempt := 0; attempt < 10; attempt++ {
						op := put(key)
						if del {
							op = clientv3.OpDelete(key)
						}
						var ok, exists bool
						ok, exists, rev, err = txn(key, clientv3.Compare(clientv3.ModRevision(key), "=", rev), op)
						if err != nil || (ok && del) || (!ok && !exists) {
							p.remove(key)
							break
						}
						p.set(key, rev)
						if ok {
							break
						}
					}
				}
				if err != nil {
					errs <- fmt.Errorf("writer %d: %v", g, err)
					return
				}
			}
		}(g)
	}
	wg.Wait()
	close(errs)
	return <-errs
}

// zoo sends, one at a time until stop is closed, the requests that the
// apiserver sends seldom or never but that move the store's revision or
// test the compares: leases with pods and other keys attached, revoked;
// a lease left to expire; deletes of a prefix of pods; compares on every
// target with every result, on a pod of its own, with a Put in both
// branches; nested Txns; Ranges at a future or compacted revision in a
// Txn with a Put (refused whole); Puts that ignore the value or the
// lease; compactions as the apiserver's compactor sends them (at the
// revision the reference watch has reached). Then it raises a NOSPACE
// alarm, under which Puts are refused and deletes are not, and disarms
// it.
func zoo(ctx context.Context, t testing.TB, cli *clientv3.Client, stop <-chan struct{}, watched func() int64, w *workV3) error {
	rng := rand.New(rand.NewSource(99))
	var serial int64 = 1 << 40
	pod := func(key string) string {
		serial++
		i := strings.LastIndexByte(key, '/')
		return string(encodePod(t, key[len(Prefix):i], key[i+1:], serial, corev1.PodSucceeded))
	}
	other := func() { w.others.Add(1) }
	// The lease left to expire: a short one, with a pod.
	short, err := cli.Grant(ctx, 1)
	if err != nil {
		return err
	}
	if _, err := cli.Put(ctx, Prefix+"leased/short", pod(Prefix+"leased/short"), clientv3.WithLease(short.ID)); err != nil {
		return err
	}
	var compactVersion, compacted int64
	mine := Prefix + "zoo/z"
	if _, err := cli.Put(ctx, mine, pod(mine)); err != nil {
		return err
	}
	for i := 0; ; i++ {
		select {
		case <-stop:
			return zooAlarm(ctx, t, cli, pod, w, short.ID)
		case <-time.After(2 * time.Millisecond):
		}
		switch i % 8 {
		case 0:
			// A lease with a pod and two events; one event put again
			// without its lease, so that the revoke leaves it.
			l, err := cli.Grant(ctx, 3600)
			if err != nil {
				return err
			}
			pk := fmt.Sprintf("%sleased/p-%d", Prefix, i)
			e1, e2 := fmt.Sprintf("/registry/events/leased/e-%d-1", i), fmt.Sprintf("/registry/events/leased/e-%d-2", i)
			for _, k := range []string{pk, e1, e2} {
				v := pod(k)
				if k != pk {
					v = "event"
				}
				if _, err := cli.Put(ctx, k, v, clientv3.WithLease(l.ID)); err != nil {
					return err
				}
			}
			other()
			other()
			if _, err := cli.Put(ctx, e2, "", clientv3.WithIgnoreValue()); err != nil {
				return err
			}
			other()
			if _, err := cli.Put(ctx, e1, "event again", clientv3.WithIgnoreLease()); err != nil {
				return err
			}
			other()
			if _, err := cli.Revoke(ctx, l.ID); err != nil {
				return err
			}
			w.leases.Add(1)
		case 1:
			// A delete of a prefix of pods, and one of a prefix with none.
			for j := 0; j < 3; j++ {
				k := fmt.Sprintf("%sdoomed-%d/p-%d", Prefix, i, j)
				if _, err := cli.Put(ctx, k, pod(k)); err != nil {
					return err
				}
			}
			if _, err := cli.Delete(ctx, fmt.Sprintf("%sdoomed-%d/", Prefix, i), clientv3.WithPrefix()); err != nil {
				return err
			}
			if _, err := cli.Delete(ctx, fmt.Sprintf("%sdoomed-%d/", Prefix, i), clientv3.WithPrefix()); err != nil {
				return err
			}
			w.rangeDeletes.Add(2)
		case 2, 3, 4:
			// A compare of a random target and result, with operands
			// about the pod's own, and a Put in each branch; one in three
			// nested.
			g, err := cli.Get(ctx, mine)
			if err != nil {
				return err
			}
			var cur *clientv3.GetResponse = g
			var kvCreate, kvMod, kvVer, kvLease int64
			var kvValue []byte
			if len(cur.Kvs) > 0 {
				kv := cur.Kvs[0]
				kvCreate, kvMod, kvVer, kvLease, kvValue = kv.CreateRevision, kv.ModRevision, kv.Version, kv.Lease, kv.Value
			}
			result := []string{"=", "!=", ">", "<"}[rng.Intn(4)]
			d := int64(rng.Intn(3) - 1)
			var cmp clientv3.Cmp
			switch rng.Intn(5) {
			case 0:
				cmp = clientv3.Compare(clientv3.Version(mine), result, kvVer+d)
			case 1:
				cmp = clientv3.Compare(clientv3.CreateRevision(mine), result, kvCreate+d)
			case 2:
				cmp = clientv3.Compare(clientv3.ModRevision(mine), result, kvMod+d)
			case 3:
				cmp = clientv3.Compare(clientv3.LeaseValue(mine), result, kvLease+d)
			default:
				v := string(kvValue)
				switch d {
				case -1:
					v = v[:len(v)/2]
				case 1:
					v += "z"
				}
				cmp = clientv3.Compare(clientv3.Value(mine), result, v)
			}
			then := []clientv3.Op{clientv3.OpPut(mine, pod(mine))}
			if i%3 == 0 {
				nested := Prefix + "zoo/nested"
				then = append(then, clientv3.OpTxn(
					[]clientv3.Cmp{clientv3.Compare(clientv3.Version(nested), ">", int64(rng.Intn(3)))},
					[]clientv3.Op{clientv3.OpPut(nested, pod(nested))},
					[]clientv3.Op{clientv3.OpDelete(nested)}))
			}
			resp, err := cli.Txn(ctx).If(cmp).Then(then...).Else(clientv3.OpPut(mine, pod(mine))).Commit()
			w.txns.Add(1)
			if err != nil {
				return err
			}
			if resp.Succeeded {
				w.succeeded.Add(1)
			} else {
				w.failed.Add(1)
				w.planted.Add(1)
			}
		case 5:
			// Ranges at a future revision, and at a compacted one: the
			// member refuses the Txn whole.
			g, err := cli.Get(ctx, mine)
			if err != nil {
				return err
			}
			for _, rev := range []int64{g.Header.Revision + 1000, compacted - 1} {
				if rev <= 0 {
					continue
				}
				_, err := cli.Txn(ctx).Then(clientv3.OpGet(mine, clientv3.WithRev(rev)), clientv3.OpPut(mine, pod(mine))).Commit()
				if !errors.Is(err, rpctypes.ErrFutureRev) && !errors.Is(err, rpctypes.ErrCompacted) {
					return fmt.Errorf("a Txn with a Range at revision %d (the store at %d): %v, want it refused", rev, g.Header.Revision, err)
				}
				w.refused.Add(1)
			}
			// A delete of a pod that is not there: no write.
			if _, err := cli.Delete(ctx, Prefix+"zoo/none"); err != nil {
				return err
			}
		case 6:
			// The apiserver's compactor: a Txn on compact_rev_key's
			// version, then a compaction.
			rev := watched() - 5
			resp, err := cli.Txn(ctx).If(clientv3.Compare(clientv3.Version("compact_rev_key"), "=", compactVersion)).
				Then(clientv3.OpPut("compact_rev_key", strconv.FormatInt(rev, 10))).Else(clientv3.OpGet("compact_rev_key")).Commit()
			if err != nil {
				return err
			}
			other()
			if !resp.Succeeded {
				return fmt.Errorf("the compactor's Txn failed")
			}
			compactVersion++
			if rev > 1 {
				if _, err := cli.Compact(ctx, rev); err != nil && !errors.Is(err, rpctypes.ErrCompacted) {
					return err
				}
				compacted = max(compacted, rev)
				w.compactions.Add(1)
			}
		case 7:
			// A plain Put of a pod and of a key that shares the prefix's
			// first letters, and a plain delete.
			k := fmt.Sprintf("%splain/p-%d", Prefix, i)
			if _, err := cli.Put(ctx, k, pod(k)); err != nil {
				return err
			}
			if _, err := cli.Put(ctx, fmt.Sprintf("/registry/podtemplates/plain/p-%d", i), "template"); err != nil {
				return err
			}
			other()
			if i%16 == 7 {
				if _, err := cli.Delete(ctx, k); err != nil {
					return err
				}
			}
		}
	}
}

// zooAlarm raises a NOSPACE alarm, checks that the member refuses Puts and
// lets deletes through, disarms it, and waits for the short lease to
// expire.
func zooAlarm(ctx context.Context, t testing.TB, cli *clientv3.Client, pod func(string) string, w *workV3, short clientv3.LeaseID) error {
	status, err := cli.Status(ctx, cli.Endpoints()[0])
	if err != nil {
		return err
	}
	alarm := &etcdserverpb.AlarmRequest{Action: etcdserverpb.AlarmRequest_ACTIVATE, MemberID: status.Header.MemberId, Alarm: etcdserverpb.AlarmType_NOSPACE}
	a, b, c := Prefix+"alarm/a", Prefix+"alarm/b", Prefix+"alarm/c"
	if _, err := cli.Put(ctx, c, pod(c)); err != nil {
		return err
	}
	if _, err := etcdserverpb.NewMaintenanceClient(cli.ActiveConnection()).Alarm(ctx, alarm); err != nil {
		return err
	}
	if _, err := cli.Put(ctx, a, pod(a)); !errors.Is(err, rpctypes.ErrNoSpace) {
		return fmt.Errorf("a Put under a NOSPACE alarm: %v", err)
	}
	w.refused.Add(1)
	// A Txn that would delete a pod but could put one is refused; a Txn
	// that only deletes one is not.
	mine := Prefix + "zoo/z"
	if _, err := cli.Txn(ctx).Then(clientv3.OpDelete(c)).Else(clientv3.OpPut(c, pod(c))).Commit(); !errors.Is(err, rpctypes.ErrNoSpace) {
		return fmt.Errorf("a Txn with a Put under a NOSPACE alarm: %v", err)
	}
	w.refused.Add(1)
	if _, err := cli.Txn(ctx).If(clientv3.Compare(clientv3.Version(mine), ">", 0)).Then(clientv3.OpDelete(mine)).Else(clientv3.OpGet(mine)).Commit(); err != nil {
		return fmt.Errorf("a Txn that deletes under a NOSPACE alarm: %v", err)
	}
	if _, err := cli.Grant(ctx, 60); !errors.Is(err, rpctypes.ErrNoSpace) {
		return fmt.Errorf("a lease under a NOSPACE alarm: %v", err)
	}
	w.refused.Add(1)
	if _, err := cli.AlarmDisarm(ctx, (*clientv3.AlarmMember)(&etcdserverpb.AlarmMember{MemberID: alarm.MemberID, Alarm: alarm.Alarm})); err != nil {
		return err
	}
	if _, err := cli.Put(ctx, b, pod(b)); err != nil {
		return fmt.Errorf("a Put after the alarm: %v", err)
	}
	// The short lease expires on its own: the leader proposes its
	// revoke.
	deadline := time.Now().Add(20 * time.Second)
	for {
		ttl, err := cli.TimeToLive(ctx, short)
		if err != nil {
			return err
		}
		if ttl.TTL == -1 {
			w.leases.Add(1)
			return nil
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("the lease of 1 s had not expired after 20 s")
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// newClientV3 is a v3 client of a member.
func newClientV3(t testing.TB, endpoint string) *clientv3.Client {
	t.Helper()
	cli, err := clientv3.New(clientv3.Config{Endpoints: []string{endpoint}, DialTimeout: 10 * time.Second, Logger: zap.NewNop()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cli.Close() })
	return cli
}
