package walpods

import (
	"bytes"
	"fmt"
	"sort"
	"strings"

	pb "go.etcd.io/etcd/api/v3/etcdserverpb"
	"go.etcd.io/etcd/pkg/v3/pbutil"
	"go.etcd.io/etcd/raft/v3/raftpb"
)

// The v3 side: a v3 store kept in step with the member's mvcc store, as
// far as deciding which writes happen and at which revision needs.
//
// What the member does, and this copies (etcdserver's apply.go and
// mvcc's kvstore_txn.go, v3.5.35):
//   - The store's revision starts at 1. A Put, a DeleteRange or a Txn that
//     changes at least one key moves it by one, and every change it makes
//     has that revision as its mod revision (a delete: the revision it was
//     deleted at); one that changes nothing leaves it. A Put of a key that
//     does not exist, or was deleted, creates it: create revision the
//     write's, version 1; a Put of a live key keeps its create revision
//     and adds one to its version.
//   - A Txn evaluates its compares on the store as it is before it, each
//     over the key or the range it names, and runs the success branch if
//     all hold, else the failure branch (nested Txns likewise, on the same
//     view). Before it writes, the member checks the chosen branches: a
//     Put with ignore_value or ignore_lease needs its key, a Put with a
//     lease needs the lease, a Range at a revision needs it to be neither
//     in the future nor compacted; one failed check fails the whole Txn,
//     which writes nothing. Within a Txn, each operation sees the ones
//     before it.
//   - Leases: a LeaseGrant makes a lease (unless it exists), a Put
//     attaches its key to its lease and detaches it from the one before,
//     a delete detaches it, and a LeaseRevoke deletes every key still
//     attached, in key order, as one write. The TTLs are not kept: the
//     leader proposes the revoke of an expired lease, and the WAL has it.
//   - Compaction moves the first revision a Range can name, which a Txn's
//     check reads; old revisions are not kept here anyway.
//   - Alarms: a NOSPACE alarm, raised through the log, makes the member
//     refuse every Put, every Txn with a Put in either branch and every
//     LeaseGrant until it is disarmed; a CORRUPT alarm refuses every key
//     request. The member switches its applier when the first alarm of a
//     kind is raised and when the last is disarmed, whatever other alarm
//     is on; so does this.
//
// What it does not model:
//   - Auth. With auth on, the member refuses requests that lack the
//     permission; the reader stops with an error at the first AuthEnable
//     it reads (the apiserver and the laboratory never turn auth on).
//     The other auth requests touch the auth store only.
//   - A member that restarts replays entries its backend already has
//     (shouldApplyV3 false); a reader applies each entry once, which is
//     the same store.
//   - etcd's leader keeps the Ranges of a Txn it proposed (a client waits
//     for their result) and checks their revisions; a follower drops the
//     top-level Ranges of a Txn nobody waits for, and so skips that check.
//     This models the member that checks. The apiserver's Ranges name no
//     revision, so the two agree on its Txns.
//   - A Txn that fails in the middle of its writes (a Put with
//     ignore_value after a delete of its key in the same Txn): the member
//     panics; the reader stops with an error.
//   - Values are kept for every live key (compares on VALUE need them), so
//     the reader holds as much as the member's current keyspace.
//   - Deletes of ranges and compares over ranges scan every live key; the
//     apiserver sends neither for pods (it deletes one key at a time).

// kv is what the store keeps of a live key: what a compare reads.
type kv struct {
	create, mod, version int64
	lease                int64
	value                []byte
}

// applyMode is which of its appliers the member is using, as its alarms
// chose it.
type applyMode int

const (
	modeNormal  applyMode = iota
	modeCapped            // a NOSPACE alarm: no Put, no LeaseGrant
	modeCorrupt           // a CORRUPT alarm: no key request at all
)

// mvccApplier keeps the v3 keyspace as the member's mvcc store holds it at
// its current revision, and emits the pod writes.
type mvccApplier struct {
	keys map[string]*kv
	// rev is the store's current revision; compactRev the last compaction's
	// (-1 before one, as mvcc starts).
	rev, compactRev int64
	// leases holds the live leases and the keys attached to each.
	leases map[int64]map[string]struct{}
	// alarms holds the raised alarms, by kind and member.
	alarms map[pb.AlarmType]map[uint64]bool
	mode   applyMode

	// countFailed is a planted fault, for tests of the checks: when a
	// Txn's compares fail, the pod writes of its success branch are
	// reported as if they had happened, though the store does not take
	// them.
	countFailed bool
}

func newMVCCApplier() *mvccApplier {
	return &mvccApplier{
		keys:       map[string]*kv{},
		rev:        1,
		compactRev: -1,
		leases:     map[int64]map[string]struct{}{},
		alarms:     map[pb.AlarmType]map[uint64]bool{},
	}
}

// apply applies one committed entry to the v3 store and returns the pod
// events it made.
func (a *mvccApplier) apply(e raftpb.Entry) (events []Event, err error) {
	defer func() {
		if p := recover(); p != nil {
			events, err = nil, fmt.Errorf("walpods: entry %d could not be applied to the v3 store: %v", e.Index, p)
		}
	}()
	switch e.Type {
	case raftpb.EntryNormal:
	case raftpb.EntryConfChange:
		// Membership changes touch the v2 store and the backend's member
		// buckets, no key.
		return nil, nil
	default:
		return nil, fmt.Errorf("walpods: entry %d is of type %v, which etcd 3.5 does not write", e.Index, e.Type)
	}
	if len(e.Data) == 0 {
		return nil, nil
	}
	var r pb.InternalRaftRequest
	if !pbutil.MaybeUnmarshal(&r, e.Data) {
		// A v2 request, as etcdserver's applyEntryNormal decodes it: it
		// touches the v2 store only.
		var v2 pb.Request
		if err := v2.Unmarshal(e.Data); err != nil {
			return nil, fmt.Errorf("walpods: entry %d is neither an InternalRaftRequest nor a v2 Request: %v", e.Index, err)
		}
		return nil, nil
	}
	w := &wtxn{a: a, index: e.Index}
	switch {
	case r.V2 != nil, r.ClusterVersionSet != nil, r.ClusterMemberAttrSet != nil, r.DowngradeInfoSet != nil:
		// The v2 store and the cluster's attributes: no key.
		return nil, nil
	case r.Range != nil:
		return nil, nil
	case r.Put != nil:
		if a.mode != modeNormal || !a.putAllowed(r.Put) {
			return nil, nil
		}
		w.put(r.Put)
	case r.DeleteRange != nil:
		if a.mode == modeCorrupt {
			return nil, nil
		}
		w.deleteRange(r.DeleteRange.Key, r.DeleteRange.RangeEnd)
	case r.Txn != nil:
		if err := a.txn(w, r.Txn); err != nil {
			return nil, fmt.Errorf("walpods: entry %d: %v", e.Index, err)
		}
	case r.Compaction != nil:
		if a.mode == modeCorrupt {
			return nil, nil
		}
		if rev := r.Compaction.Revision; rev > a.compactRev && rev <= a.rev {
			a.compactRev = rev
		}
		return nil, nil
	case r.LeaseGrant != nil:
		id := r.LeaseGrant.ID
		const maxLeaseTTL = 9000000000 // lease.MaxLeaseTTL
		if a.mode != modeNormal || id == 0 || r.LeaseGrant.TTL > maxLeaseTTL {
			return nil, nil
		}
		if _, ok := a.leases[id]; !ok {
			a.leases[id] = map[string]struct{}{}
		}
		return nil, nil
	case r.LeaseRevoke != nil:
		if a.mode == modeCorrupt {
			return nil, nil
		}
		attached, ok := a.leases[r.LeaseRevoke.ID]
		if !ok {
			return nil, nil
		}
		keys := make([]string, 0, len(attached))
		for k := range attached {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			w.deleteRange([]byte(k), nil)
		}
		delete(a.leases, r.LeaseRevoke.ID)
	case r.LeaseCheckpoint != nil:
		// Remaining TTLs only.
		return nil, nil
	case r.Alarm != nil:
		a.alarm(r.Alarm)
		return nil, nil
	case r.AuthEnable != nil:
		return nil, fmt.Errorf("walpods: entry %d turns auth on, which the reader does not model", e.Index)
	case r.Authenticate != nil, r.AuthDisable != nil, r.AuthStatus != nil,
		r.AuthUserAdd != nil, r.AuthUserDelete != nil, r.AuthUserChangePassword != nil,
		r.AuthUserGrantRole != nil, r.AuthUserGet != nil, r.AuthUserRevokeRole != nil,
		r.AuthRoleAdd != nil, r.AuthRoleGrantPermission != nil, r.AuthRoleGet != nil,
		r.AuthRoleRevokePermission != nil, r.AuthRoleDelete != nil,
		r.AuthUserList != nil, r.AuthRoleList != nil:
		// The auth store only.
		return nil, nil
	default:
		// The member panics ("not implemented apply").
		return nil, fmt.Errorf("walpods: entry %d is an InternalRaftRequest etcd 3.5 cannot apply: %v", e.Index, r.String())
	}
	return w.end(), nil
}

// putAllowed is the member's check of a Put before it writes: its key must
// exist for ignore_value or ignore_lease, and its lease must.
func (a *mvccApplier) putAllowed(p *pb.PutRequest) bool {
	if (p.IgnoreValue || p.IgnoreLease) && a.keys[string(p.Key)] == nil {
		return false
	}
	if p.Lease != 0 {
		if _, ok := a.leases[p.Lease]; !ok {
			return false
		}
	}
	return true
}

// alarm raises or disarms an alarm, and switches the applier as the
// member's applierV3backend.Alarm does.
func (a *mvccApplier) alarm(r *pb.AlarmRequest) {
	old := len(a.alarms[r.Alarm])
	switch r.Action {
	case pb.AlarmRequest_ACTIVATE:
		if r.Alarm == pb.AlarmType_NONE {
			return
		}
		if a.alarms[r.Alarm] == nil {
			a.alarms[r.Alarm] = map[uint64]bool{}
		}
		if a.alarms[r.Alarm][r.MemberID] {
			return
		}
		a.alarms[r.Alarm][r.MemberID] = true
		if old == 0 {
			switch r.Alarm {
			case pb.AlarmType_NOSPACE:
				a.mode = modeCapped
			case pb.AlarmType_CORRUPT:
				a.mode = modeCorrupt
			}
		}
	case pb.AlarmRequest_DEACTIVATE:
		if !a.alarms[r.Alarm][r.MemberID] {
			return
		}
		delete(a.alarms[r.Alarm], r.MemberID)
		if old > 0 && len(a.alarms[r.Alarm]) == 0 && (r.Alarm == pb.AlarmType_NOSPACE || r.Alarm == pb.AlarmType_CORRUPT) {
			a.mode = modeNormal
		}
	}
}

// txn applies a Txn as applierV3backend.Txn does.
func (a *mvccApplier) txn(w *wtxn, rt *pb.TxnRequest) error {
	switch a.mode {
	case modeCorrupt:
		return nil
	case modeCapped:
		// applierV3Capped refuses a Txn whose quota cost is not zero:
		// one with a Put in either branch.
		if txnHasPut(rt) {
			return nil
		}
	}
	path := a.compareToPath(rt)
	isWrite := !txnReadOnly(rt)
	if isWrite && !a.checkTxn(rt, path, a.putAllowedOp) {
		return nil
	}
	if !a.checkTxn(rt, path, a.rangeAllowedOp) {
		return nil
	}
	if a.countFailed && !path[0] {
		w.planted = append(w.planted, a.plantedEvents(rt)...)
	}
	if _, err := w.applyTxn(rt, path); err != nil {
		return err
	}
	return nil
}

// compareToPath decides every Txn's branch, the outer one first and then
// the nested ones of the chosen branches in order, on the store as it is.
func (a *mvccApplier) compareToPath(rt *pb.TxnRequest) []bool {
	ok := true
	for _, c := range rt.Compare {
		if !a.compare(c) {
			ok = false
			break
		}
	}
	path := []bool{ok}
	ops := rt.Success
	if !ok {
		ops = rt.Failure
	}
	for _, op := range ops {
		if t, isTxn := op.Request.(*pb.RequestOp_RequestTxn); isTxn && t.RequestTxn != nil {
			path = append(path, a.compareToPath(t.RequestTxn)...)
		}
	}
	return path
}

// compare evaluates one compare as applyCompare does: over every key in
// its range, or on the zero key when there is none (VALUE then fails).
func (a *mvccApplier) compare(c *pb.Compare) bool {
	keys := a.rangeKeys(c.Key, gteRange(c.RangeEnd))
	if len(keys) == 0 {
		if c.Target == pb.Compare_VALUE {
			return false
		}
		return compareKV(c, &kv{})
	}
	for _, k := range keys {
		if !compareKV(c, a.keys[k]) {
			return false
		}
	}
	return true
}

// compareKV is etcd's compareKV over what the store keeps of a key.
func compareKV(c *pb.Compare, k *kv) bool {
	var result int
	var rev int64
	switch c.Target {
	case pb.Compare_VALUE:
		v := []byte{}
		if tv, _ := c.TargetUnion.(*pb.Compare_Value); tv != nil {
			v = tv.Value
		}
		result = bytes.Compare(k.value, v)
	case pb.Compare_CREATE:
		if tv, _ := c.TargetUnion.(*pb.Compare_CreateRevision); tv != nil {
			rev = tv.CreateRevision
		}
		result = cmpInt64(k.create, rev)
	case pb.Compare_MOD:
		if tv, _ := c.TargetUnion.(*pb.Compare_ModRevision); tv != nil {
			rev = tv.ModRevision
		}
		result = cmpInt64(k.mod, rev)
	case pb.Compare_VERSION:
		if tv, _ := c.TargetUnion.(*pb.Compare_Version); tv != nil {
			rev = tv.Version
		}
		result = cmpInt64(k.version, rev)
	case pb.Compare_LEASE:
		if tv, _ := c.TargetUnion.(*pb.Compare_Lease); tv != nil {
			rev = tv.Lease
		}
		result = cmpInt64(k.lease, rev)
	}
	switch c.Result {
	case pb.Compare_EQUAL:
		return result == 0
	case pb.Compare_NOT_EQUAL:
		return result != 0
	case pb.Compare_GREATER:
		return result > 0
	case pb.Compare_LESS:
		return result < 0
	}
	return true
}

func cmpInt64(x, y int64) int {
	switch {
	case x < y:
		return -1
	case x > y:
		return 1
	}
	return 0
}

// checkTxn runs check over the operations of the chosen branches, nested
// Txns included, as etcd's checkRequests does; false if one fails.
func (a *mvccApplier) checkTxn(rt *pb.TxnRequest, path []bool, check func(*pb.RequestOp) bool) bool {
	var walk func(rt *pb.TxnRequest, path []bool) (int, bool)
	walk = func(rt *pb.TxnRequest, path []bool) (int, bool) {
		n := 0
		ops := rt.Success
		if !path[0] {
			ops = rt.Failure
		}
		for _, op := range ops {
			if t, ok := op.Request.(*pb.RequestOp_RequestTxn); ok && t.RequestTxn != nil {
				txns, ok := walk(t.RequestTxn, path[1:])
				if !ok {
					return 0, false
				}
				n += txns + 1
				path = path[txns+1:]
				continue
			}
			if !check(op) {
				return 0, false
			}
		}
		return n, true
	}
	_, ok := walk(rt, path)
	return ok
}

// putAllowedOp is checkRequestPut.
func (a *mvccApplier) putAllowedOp(op *pb.RequestOp) bool {
	p := op.GetRequestPut()
	return p == nil || a.putAllowed(p)
}

// rangeAllowedOp is checkRequestRange: a Range at a revision needs the
// store to have it, neither future nor compacted.
func (a *mvccApplier) rangeAllowedOp(op *pb.RequestOp) bool {
	r := op.GetRequestRange()
	if r == nil || r.Revision == 0 {
		return true
	}
	return r.Revision <= a.rev && r.Revision >= a.compactRev
}

// txnReadOnly is etcd's isTxnReadonly: nothing but Ranges in either
// branch (a nested Txn counts as a write).
func txnReadOnly(rt *pb.TxnRequest) bool {
	for _, ops := range [][]*pb.RequestOp{rt.Success, rt.Failure} {
		for _, op := range ops {
			if op.GetRequestRange() == nil {
				return false
			}
		}
	}
	return true
}

// txnHasPut says whether a Txn has a Put in either branch, nested Txns
// included: whether its quota cost is above zero.
func txnHasPut(rt *pb.TxnRequest) bool {
	for _, ops := range [][]*pb.RequestOp{rt.Success, rt.Failure} {
		for _, op := range ops {
			if op.GetRequestPut() != nil {
				return true
			}
			if t := op.GetRequestTxn(); t != nil && txnHasPut(t) {
				return true
			}
		}
	}
	return false
}

// plantedEvents are the pod events of a refused Txn's success branch, as
// the planted fault countFailed reports them: Puts and single-key deletes
// of pods, at the next revision, on the store as it is.
func (a *mvccApplier) plantedEvents(rt *pb.TxnRequest) []Event {
	var out []Event
	for _, op := range rt.Success {
		switch {
		case op.GetRequestPut() != nil:
			p := op.GetRequestPut()
			key := string(p.Key)
			if !isPodKey(key) {
				continue
			}
			typ := Created
			if a.keys[key] != nil {
				typ = Updated
			}
			out = append(out, podEventV3(typ, key, p.Value, a.rev+1))
		case op.GetRequestDeleteRange() != nil:
			d := op.GetRequestDeleteRange()
			key := string(d.Key)
			if k := a.keys[key]; k != nil && isPodKey(key) && d.RangeEnd == nil {
				out = append(out, podEventV3(Deleted, key, k.value, a.rev+1))
			}
		}
	}
	return out
}

// gteRange is etcd's mkGteRange: a range end of one zero byte means every
// key from the start on, which the store's ranges take as an empty end.
func gteRange(end []byte) []byte {
	if len(end) == 1 && end[0] == 0 {
		return []byte{}
	}
	return end
}

// rangeKeys lists the live keys in [key, end) in order: key alone if end
// is nil, every key from key on if end is empty.
func (a *mvccApplier) rangeKeys(key, end []byte) []string {
	if end == nil {
		if a.keys[string(key)] != nil {
			return []string{string(key)}
		}
		return nil
	}
	from, to := string(key), string(end)
	var out []string
	for k := range a.keys {
		if k >= from && (len(end) == 0 || k < to) {
			out = append(out, k)
		}
	}
	sort.Strings(out)
	return out
}

// wtxn is one write transaction on the store, as mvcc's storeTxnWrite:
// every change it makes has the revision after the store's, which the
// store moves to at its end if it changed anything.
type wtxn struct {
	a     *mvccApplier
	index uint64
	// changes is how many keys it changed; events the pod events among
	// them.
	changes int
	events  []Event
	// planted are the events of the planted fault.
	planted []Event
}

// applyTxn runs the chosen branches, as applierV3backend.applyTxn does,
// and returns how many nested Txns it went through.
func (w *wtxn) applyTxn(rt *pb.TxnRequest, path []bool) (int, error) {
	ops := rt.Success
	if !path[0] {
		ops = rt.Failure
	}
	txns := 0
	for _, op := range ops {
		switch {
		case op.GetRequestPut() != nil:
			p := op.GetRequestPut()
			if (p.IgnoreValue || p.IgnoreLease) && w.a.keys[string(p.Key)] == nil {
				// The member panics: a write Txn failed half way.
				return 0, fmt.Errorf("a Put of %q with ignore_value or ignore_lease after its key was deleted in the same Txn", p.Key)
			}
			w.put(p)
		case op.GetRequestDeleteRange() != nil:
			d := op.GetRequestDeleteRange()
			w.deleteRange(d.Key, d.RangeEnd)
		case op.GetRequestTxn() != nil:
			n, err := w.applyTxn(op.GetRequestTxn(), path[1:])
			if err != nil {
				return 0, err
			}
			txns += n + 1
			path = path[n+1:]
		}
		// A Range reads, and writes nothing.
	}
	return txns, nil
}

// put writes a key as mvcc's put does, its lease as the lessor attaches it.
func (w *wtxn) put(p *pb.PutRequest) {
	a := w.a
	key := string(p.Key)
	rev := a.rev + 1
	old := a.keys[key]
	value, lease := p.Value, p.Lease
	if p.IgnoreValue {
		value = old.value
	}
	if p.IgnoreLease {
		lease = old.lease
	}
	k := &kv{create: rev, mod: rev, version: 1, lease: lease, value: value}
	if old != nil {
		k.create, k.version = old.create, old.version+1
		if old.lease != 0 {
			delete(a.leases[old.lease], key)
		}
	}
	if lease != 0 {
		a.leases[lease][key] = struct{}{}
	}
	a.keys[key] = k
	w.changes++
	if isPodKey(key) {
		typ := Updated
		if k.version == 1 {
			typ = Created
		}
		w.events = append(w.events, podEventV3(typ, key, value, rev))
	}
}

// deleteRange deletes the live keys in a range, in key order, as mvcc's
// deleteRange does.
func (w *wtxn) deleteRange(key, end []byte) {
	a := w.a
	for _, k := range a.rangeKeys(key, gteRange(end)) {
		old := a.keys[k]
		delete(a.keys, k)
		if old.lease != 0 {
			delete(a.leases[old.lease], k)
		}
		w.changes++
		if isPodKey(k) {
			w.events = append(w.events, podEventV3(Deleted, k, old.value, a.rev+1))
		}
	}
}

// end ends the write: the store's revision moves if it changed a key. It
// returns the pod events, with the raft index.
func (w *wtxn) end() []Event {
	if w.changes > 0 {
		w.a.rev++
	}
	evs := append(w.planted, w.events...)
	for i := range evs {
		evs[i].RaftIndex = w.index
	}
	return evs
}

// isPodKey says whether a v3 key is a pod's: under Prefix, with a name.
func isPodKey(key string) bool {
	return len(key) > len(Prefix) && strings.HasPrefix(key, Prefix)
}
