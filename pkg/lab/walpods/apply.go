package walpods

import (
	"encoding/json"
	"fmt"
	"net/http"
	"path"
	"strings"

	"github.com/coreos/go-semver/semver"
	pb "go.etcd.io/etcd/api/v3/etcdserverpb"
	"go.etcd.io/etcd/client/pkg/v3/types"
	"go.etcd.io/etcd/pkg/v3/pbutil"
	"go.etcd.io/etcd/raft/v3/raftpb"
	"go.etcd.io/etcd/server/v3/etcdserver"
	"go.etcd.io/etcd/server/v3/etcdserver/api/membership"
	"go.etcd.io/etcd/server/v3/etcdserver/api/v2store"
	"go.uber.org/zap"
	"go.uber.org/zap/zapcore"
	corev1 "k8s.io/api/core/v1"
)

// Prefix is where the apiserver keeps pods: as a key of etcd's v2 API,
// the 2014 layout of pkg/registry/etcd, /registry/pods/<id>; as a key of
// the v3 store, today's, /registry/pods/<namespace>/<name>.
const Prefix = "/registry/pods/"

// EventType says what a write did to a pod.
type EventType string

// The types of pod events, as a v2 watch tells them apart (see
// etcdpods' deliver): a create, or a set of a key that was not there, is
// Created; any other set, update or compare-and-swap is Updated; a
// delete or compare-and-delete is Deleted.
const (
	Created EventType = "created"
	Updated EventType = "updated"
	Deleted EventType = "deleted"
)

// Event is one successful write of a pod's key.
//
// In the v3 store (NewReaderV3) a write is Created when it makes the key
// (its version is 1), Updated when the key was there, Deleted when a
// DeleteRange, in a Txn or not, or the revoke of a lease removed it, as a
// v3 watch with prev_kv tells them apart.
type Event struct {
	Type EventType
	// Key is the pod's key: in the v2 API, such as /registry/pods/p1; in
	// the v3 store, such as /registry/pods/default/p1.
	Key string
	// Value is what was written, or for Deleted what the key held until
	// then: the pod's JSON in the v2 store; in the v3 store, the bytes
	// kube-apiserver stored (Kubernetes protobuf, "k8s\x00" first).
	Value string
	// RaftIndex is the index of the raft entry that wrote it.
	RaftIndex uint64
	// StoreIndex is the store's index of the write. In the v2 store, the
	// node's ModifiedIndex: what a v2 watch reports, and the pod's
	// resourceVersion. In the v3 store, the mod revision the member gave
	// the write (for Deleted, the revision of the delete): what a v3 watch
	// reports as the event's kv.mod_revision, and the pod's
	// resourceVersion. Both count successful writes only (the v3 one each
	// write transaction once, however many keys it changed), so they run
	// behind RaftIndex.
	StoreIndex uint64

	// What Value says of the pod, decoded with k8s.io/api's core/v1 by
	// apimachinery's protobuf serializer; the v3 store only (empty for
	// v2 events).
	Namespace, Name, NodeName string
	Phase                     corev1.PodPhase
	// DecodeError is why a v3 value did not decode as a pod (empty when
	// it did): the write happened all the same.
	DecodeError string
	// V2 is the v2 store's own event of the write, as a v2 watch of the
	// member delivers it (keys below the store's keys prefix); nil for
	// the v3 store.
	V2 *v2store.Event
	// pod is the v3 value decoded, which Pod returns.
	pod *corev1.Pod
}

// String names the event for logs: its type, key and indexes.
func (e Event) String() string {
	return fmt.Sprintf("%s %s at raft index %d (store index %d)", e.Type, e.Key, e.RaftIndex, e.StoreIndex)
}

// applier keeps a v2 store in step with the member's by applying every
// committed entry as the member does, with etcd's own packages: the v2
// requests through etcdserver's ApplierV2, the membership changes through
// a membership.RaftCluster. The membership writes matter: they move the
// store's index, and the apiserver's compare-and-swaps name the index a
// pod was written at.
type applier struct {
	store   v2store.Store
	cluster *membership.RaftCluster
	v2      etcdserver.ApplierV2
	// countFailed is a planted fault, for tests of the checks: a
	// compare-and-swap of a pod is reported as a write even when the
	// store refused it.
	countFailed bool
}

func newApplier() *applier {
	// etcd's membership code logs at Panic and Fatal level when the WAL
	// holds what it cannot apply; Fatal would end the process, so both
	// panic, and apply recovers.
	lg := zap.NewNop().WithOptions(zap.OnFatal(zapcore.WriteThenPanic))
	st := v2store.New(etcdserver.StoreClusterPrefix, etcdserver.StoreKeysPrefix)
	cl := membership.NewCluster(lg)
	cl.SetStore(st)
	return &applier{store: st, cluster: cl, v2: etcdserver.NewApplierV2(lg, st, cl)}
}

// apply applies one committed entry and returns the pod events it made.
func (a *applier) apply(e raftpb.Entry) (events []Event, err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("walpods: etcd could not apply entry %d: %v", e.Index, p)
		}
	}()
	switch e.Type {
	case raftpb.EntryNormal:
		return a.applyNormal(e)
	case raftpb.EntryConfChange:
		var cc raftpb.ConfChange
		if err := cc.Unmarshal(e.Data); err != nil {
			return nil, fmt.Errorf("walpods: entry %d: %v", e.Index, err)
		}
		return nil, a.applyConfChange(cc)
	default:
		// etcd 3.5 proposes no ConfChangeV2.
		return nil, fmt.Errorf("walpods: entry %d is of type %v, which etcd 3.5 does not write", e.Index, e.Type)
	}
}

// applyNormal decodes a normal entry as etcdserver's applyEntryNormal
// does: an InternalRaftRequest if it decodes as one, else a v2 Request.
func (a *applier) applyNormal(e raftpb.Entry) ([]Event, error) {
	if len(e.Data) == 0 {
		// The empty entry a new leader commits.
		return nil, nil
	}
	var raftReq pb.InternalRaftRequest
	if !pbutil.MaybeUnmarshal(&raftReq, e.Data) {
		var r pb.Request
		if err := r.Unmarshal(e.Data); err != nil {
			return nil, fmt.Errorf("walpods: entry %d is neither an InternalRaftRequest nor a v2 Request: %v", e.Index, err)
		}
		return a.applyV2(e, &r), nil
	}
	switch {
	case raftReq.V2 != nil:
		return a.applyV2(e, raftReq.V2), nil
	// The v3 requests that write to the v2 store: the member's
	// attributes and the cluster's version (applierV3backend).
	case raftReq.ClusterMemberAttrSet != nil:
		r := raftReq.ClusterMemberAttrSet
		a.cluster.UpdateAttributes(types.ID(r.Member_ID), membership.Attributes{
			Name:       r.MemberAttributes.Name,
			ClientURLs: r.MemberAttributes.ClientUrls,
		}, membership.ApplyV2storeOnly)
	case raftReq.ClusterVersionSet != nil:
		v, err := semver.NewVersion(raftReq.ClusterVersionSet.Ver)
		if err != nil {
			return nil, fmt.Errorf("walpods: entry %d sets cluster version %q: %v", e.Index, raftReq.ClusterVersionSet.Ver, err)
		}
		// The member also updates its API's capabilities; that is no
		// business of a reader.
		a.cluster.SetVersion(v, func(*zap.Logger, *semver.Version) {}, membership.ApplyV2storeOnly)
	}
	// Every other v3 request touches the v3 store only.
	return nil, nil
}

// applyConfChange applies a membership change as etcdserver's
// applyConfChange does to the v2 store.
func (a *applier) applyConfChange(cc raftpb.ConfChange) error {
	if a.cluster.ValidateConfigurationChange(cc) != nil {
		// The member refuses it too, and writes nothing.
		return nil
	}
	switch cc.Type {
	case raftpb.ConfChangeAddNode, raftpb.ConfChangeAddLearnerNode:
		ctx := new(membership.ConfigChangeContext)
		if err := json.Unmarshal(cc.Context, ctx); err != nil {
			return fmt.Errorf("walpods: a membership change: %v", err)
		}
		if ctx.IsPromote {
			a.cluster.PromoteMember(ctx.Member.ID, membership.ApplyV2storeOnly)
		} else {
			a.cluster.AddMember(&ctx.Member, membership.ApplyV2storeOnly)
		}
	case raftpb.ConfChangeRemoveNode:
		a.cluster.RemoveMember(types.ID(cc.NodeID), membership.ApplyV2storeOnly)
	case raftpb.ConfChangeUpdateNode:
		m := new(membership.Member)
		if err := json.Unmarshal(cc.Context, m); err != nil {
			return fmt.Errorf("walpods: a membership change: %v", err)
		}
		a.cluster.UpdateRaftAttributes(m.ID, m.RaftAttributes, membership.ApplyV2storeOnly)
	}
	return nil
}

// applyV2 applies a v2 request with etcdserver's own ApplierV2, method by
// method as the member's applyV2Request, and returns the pod event of a
// successful write.
func (a *applier) applyV2(e raftpb.Entry, r *pb.Request) []Event {
	req := (*etcdserver.RequestV2)(r)
	var resp etcdserver.Response
	switch r.Method {
	case http.MethodPost:
		resp = a.v2.Post(req)
	case http.MethodPut:
		resp = a.v2.Put(req, membership.ApplyV2storeOnly)
	case http.MethodDelete:
		resp = a.v2.Delete(req)
	case "QGET":
		resp = a.v2.QGet(req)
	case "SYNC":
		// Expires keys with a TTL, at the time the leader proposed. The
		// expired keys move the index; their events go to the store's
		// watchers, not here (the apiserver gives pods no TTL).
		resp = a.v2.Sync(req)
	default:
		return nil
	}
	if resp.Err != nil || resp.Event == nil {
		if resp.Err != nil && a.countFailed && r.Method == http.MethodPut && (r.PrevIndex > 0 || r.PrevValue != "") {
			if key, ok := podKey(path.Clean(r.Path)); ok {
				return []Event{{Type: Updated, Key: key, Value: r.Val, RaftIndex: e.Index}}
			}
		}
		return nil
	}
	if ev := podEvent(resp.Event); ev != nil {
		ev.RaftIndex, ev.V2 = e.Index, resp.Event
		return []Event{*ev}
	}
	return nil
}

// podEvent is the pod event of a store's event, or nil if it is not one.
func podEvent(se *v2store.Event) *Event {
	if se.Node == nil || se.Node.Dir {
		return nil
	}
	key, ok := podKey(se.Node.Key)
	if !ok {
		return nil
	}
	ev := &Event{Key: key, StoreIndex: se.Node.ModifiedIndex}
	var value *string
	switch se.Action {
	case v2store.Get:
		return nil
	case v2store.Delete, v2store.CompareAndDelete, v2store.Expire:
		if se.PrevNode == nil {
			return nil
		}
		ev.Type, value = Deleted, se.PrevNode.Value
	case v2store.Create:
		ev.Type, value = Created, se.Node.Value
	default:
		ev.Type, value = Updated, se.Node.Value
		if se.PrevNode == nil {
			ev.Type = Created
		}
	}
	if value == nil {
		return nil
	}
	ev.Value = *value
	return ev
}

// podKey is the v2 key of a store path under Prefix.
func podKey(storePath string) (string, bool) {
	key := strings.TrimPrefix(storePath, etcdserver.StoreKeysPrefix)
	if len(key) == len(storePath) || !strings.HasPrefix(key, Prefix) || len(key) == len(Prefix) {
		return "", false
	}
	return key, true
}
