package walpods

import (
	"fmt"
	"testing"

	pb "go.etcd.io/etcd/api/v3/etcdserverpb"
	"go.etcd.io/etcd/raft/v3/raftpb"
)

// TestMVCCApplier applies hand-made requests to the v3 store and checks
// the revisions and the events: the cases the member runs exercise
// seldom (compares over ranges, a delete of every key from one on, a
// CORRUPT alarm, an entry the member cannot apply).
func TestMVCCApplier(t *testing.T) {
	a := newMVCCApplier()
	index := uint64(0)
	apply := func(r *pb.InternalRaftRequest) []Event {
		t.Helper()
		index++
		data, err := r.Marshal()
		if err != nil {
			t.Fatal(err)
		}
		evs, err := a.apply(raftpb.Entry{Index: index, Type: raftpb.EntryNormal, Data: data})
		if err != nil {
			t.Fatal(err)
		}
		return evs
	}
	put := func(key, value string) *pb.RequestOp {
		return &pb.RequestOp{Request: &pb.RequestOp_RequestPut{RequestPut: &pb.PutRequest{Key: []byte(key), Value: []byte(value)}}}
	}
	del := func(key, end string) *pb.RequestOp {
		d := &pb.DeleteRangeRequest{Key: []byte(key)}
		if end != "" {
			d.RangeEnd = []byte(end)
		}
		return &pb.RequestOp{Request: &pb.RequestOp_RequestDeleteRange{RequestDeleteRange: d}}
	}
	txn := func(cmps []*pb.Compare, then, els []*pb.RequestOp) *pb.InternalRaftRequest {
		return &pb.InternalRaftRequest{Txn: &pb.TxnRequest{Compare: cmps, Success: then, Failure: els}}
	}
	mod := func(key, end string, result pb.Compare_CompareResult, rev int64) *pb.Compare {
		c := &pb.Compare{Key: []byte(key), Target: pb.Compare_MOD, Result: result, TargetUnion: &pb.Compare_ModRevision{ModRevision: rev}}
		if end != "" {
			c.RangeEnd = []byte(end)
		}
		return c
	}
	value := func(key string, result pb.Compare_CompareResult, v string) *pb.Compare {
		return &pb.Compare{Key: []byte(key), Target: pb.Compare_VALUE, Result: result, TargetUnion: &pb.Compare_Value{Value: []byte(v)}}
	}
	say := func(evs []Event) string {
		s := ""
		for _, e := range evs {
			s += fmt.Sprintf("%s %s %q @%d; ", e.Type, e.Key, e.Value, e.StoreIndex)
		}
		return s
	}
	check := func(what string, evs []Event, rev int64, want string) {
		t.Helper()
		if got := say(evs); got != want || a.rev != rev {
			t.Errorf("%s: %s at revision %d, want %s at %d", what, got, a.rev, want, rev)
		}
	}
	p := func(name string) string { return Prefix + "ns/" + name }

	check("a create", apply(txn([]*pb.Compare{mod(p("a"), "", pb.Compare_EQUAL, 0)}, []*pb.RequestOp{put(p("a"), "a1")}, nil)), 2, `created /registry/pods/ns/a "a1" @2; `)
	check("a create of a key that exists, then a Get", apply(txn([]*pb.Compare{mod(p("a"), "", pb.Compare_EQUAL, 0)}, []*pb.RequestOp{put(p("a"), "a2")},
		[]*pb.RequestOp{{Request: &pb.RequestOp_RequestRange{RequestRange: &pb.RangeRequest{Key: []byte(p("a"))}}}})), 2, "")
	check("two creates in a Txn", apply(txn(nil, []*pb.RequestOp{put(p("b"), "b1"), put(p("c"), "c1")}, nil)), 3,
		`created /registry/pods/ns/b "b1" @3; created /registry/pods/ns/c "c1" @3; `)
	// Over the range [a, c): a at 2, b at 3.
	check("mod > 2 over a range", apply(txn([]*pb.Compare{mod(p("a"), p("c"), pb.Compare_GREATER, 2)}, []*pb.RequestOp{put(p("a"), "no")}, nil)), 3, "")
	check("mod < 4 over a range", apply(txn([]*pb.Compare{mod(p("a"), p("c"), pb.Compare_LESS, 4)}, []*pb.RequestOp{put(p("a"), "a2")}, nil)), 4, `updated /registry/pods/ns/a "a2" @4; `)
	check("a value compare on a missing key fails, even !=", apply(txn([]*pb.Compare{value(p("x"), pb.Compare_NOT_EQUAL, "v")}, nil, []*pb.RequestOp{put(p("x"), "x1")})), 5,
		`created /registry/pods/ns/x "x1" @5; `)
	check("value > prefix", apply(txn([]*pb.Compare{value(p("x"), pb.Compare_GREATER, "x")}, []*pb.RequestOp{put(p("x"), "x2")}, nil)), 6, `updated /registry/pods/ns/x "x2" @6; `)
	check("a delete of a missing key writes nothing", apply(&pb.InternalRaftRequest{DeleteRange: &pb.DeleteRangeRequest{Key: []byte(p("none"))}}), 6, "")
	check("a delete and a create of the same key", apply(txn(nil, []*pb.RequestOp{del(p("x"), ""), put(p("x"), "x3")}, nil)), 7,
		`deleted /registry/pods/ns/x "x2" @7; created /registry/pods/ns/x "x3" @7; `)
	apply(&pb.InternalRaftRequest{Put: &pb.PutRequest{Key: []byte("/registry/configmaps/t"), Value: []byte("t")}})
	check("every key from b on, in key order", apply(&pb.InternalRaftRequest{DeleteRange: &pb.DeleteRangeRequest{Key: []byte(p("b")), RangeEnd: []byte{0}}}), 9,
		`deleted /registry/pods/ns/b "b1" @9; deleted /registry/pods/ns/c "c1" @9; deleted /registry/pods/ns/x "x3" @9; `)
	if a.keys["/registry/configmaps/t"] == nil || a.keys[p("a")] == nil {
		t.Errorf("the delete from %s on took keys before it", p("b"))
	}
	apply(&pb.InternalRaftRequest{Alarm: &pb.AlarmRequest{Action: pb.AlarmRequest_ACTIVATE, MemberID: 1, Alarm: pb.AlarmType_CORRUPT}})
	check("a delete under a CORRUPT alarm", apply(&pb.InternalRaftRequest{DeleteRange: &pb.DeleteRangeRequest{Key: []byte(p("a"))}}), 9, "")
	apply(&pb.InternalRaftRequest{Alarm: &pb.AlarmRequest{Action: pb.AlarmRequest_DEACTIVATE, MemberID: 1, Alarm: pb.AlarmType_CORRUPT}})
	check("a delete after it", apply(&pb.InternalRaftRequest{DeleteRange: &pb.DeleteRangeRequest{Key: []byte(p("a"))}}), 10, `deleted /registry/pods/ns/a "a2" @10; `)

	index++
	if _, err := a.apply(raftpb.Entry{Index: index, Type: raftpb.EntryNormal, Data: mustMarshal(t, &pb.InternalRaftRequest{AuthEnable: &pb.AuthEnableRequest{}})}); err == nil {
		t.Errorf("an AuthEnable applied without error")
	}
}

func mustMarshal(t *testing.T, r *pb.InternalRaftRequest) []byte {
	t.Helper()
	b, err := r.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	return b
}
