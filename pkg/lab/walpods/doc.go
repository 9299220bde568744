// Package walpods reads the pods the apiserver writes to etcd from an etcd
// member's write-ahead log (WAL), instead of asking the member.
//
// Ours: not part of 2014. It is the laboratory's, a first slice of a
// passive observer meant to replace the learner that etcdpods reads (see
// that package): the learner is a member of the cluster, and the leader
// pays for sending it every entry, which cost the apiserver a large share
// of its creates (the bench page measures it, as "The laboratory's
// learner costs the bare apiserver"). A reader of the WAL costs the member
// nothing: it opens the member's WAL files read-only, takes no lock,
// writes nothing, and is no member of raft. It costs only its own process.
//
// What it reads: the member's data directory (member/wal in it). Each
// poll goes on where the last one stopped: the segment, the offset after
// the last whole record, and the CRC chain's value there (resume.go). It
// reads the records appended since with etcd's record type and CRC and
// raft's entries and hard states, and frames them itself (the 8-byte
// length word before each record), since etcd 3.5 exports no decoder
// that goes on from an offset (3.6 does). The first poll decodes from
// the start of the segment etcd's OpenForRead would pick. A poll that
// meets what it does not expect reads instead as etcd's tools do:
// wal.OpenForRead at the last entry passed on (its index and term) and
// ReadAll, which reads the segment holding that entry from its start and
// every segment after it. A record the member has not finished writing
// ends a poll before it; the next poll looks again, and if it stops at
// the same record, ReadAll decides (a torn tail is no error to it). Only
// the entries up to the last hard state's commit index are passed on;
// the rest wait for the next poll. When to poll is the caller's: a look
// at the log's files (StateOf) says whether anything may have been
// appended, and only once the log has settled (Unchanged, LogSettle),
// since a file's time is set as a write begins. The poll's cost (segments opened,
// bytes read, time, whether it read from a segment's start or fell back
// to ReadAll) is returned with its events.
//
// What a pod event is: a committed entry is not yet a successful write. A
// compare-and-swap, which the apiserver sends for every update with the
// pod's resourceVersion as its index, is refused when the pod has been
// written since. So the reader applies every committed entry to a v2 store
// of its own as the member does, with etcd's v2store, its ApplierV2 and
// its membership package (the membership writes move the store's index,
// and the compare-and-swaps name that index), and emits an event only for
// a write the store took, under /registry/pods/: created, updated or
// deleted, with the key, the pod's JSON, the raft index, and the store's
// index, which is the member's (the resourceVersion a v2 watch reports).
//
// The v3 side (NewReaderV3), for today's stack: kube-apiserver keeps pods
// in etcd's v3 store, /registry/pods/<namespace>/<name>, in Kubernetes
// protobuf, and writes them as Txns that compare the key's mod revision
// (0 for a create, the revision it read for an update or a delete) and
// read the key in the failure branch. The same Poll reads the same WAL;
// the reader applies each Put, DeleteRange and Txn (and the leases,
// compactions and alarms, which decide whether later ones succeed and at
// which revision) to a v3 store of its own: per key its create and mod
// revision, version, lease and value, and the store's revision, which
// moves by one per request that changes a key. It evaluates the compares
// and the member's checks as the member does, runs the branch it would,
// and emits an event only for a pod write that happened: with the key,
// the value's bytes, the raft index, the mod revision the member gave it
// (a v3 watch's revision, the pod's resourceVersion), and the pod's
// namespace, name, node and phase, decoded with k8s.io/api's core/v1.
// mvcc.go says what it copies of the member and what not. Its tests
// compare its events with a v3 watch's, one by one, over thousands of
// writes from concurrent writers whose compares fail on each other's
// writes, and its keyspace with the member's, key by key.
//
// What it does not do yet:
//   - The v3 reader does not model auth (it stops at the first
//     AuthEnable), keeps every live key's value in memory, as large as
//     the member's keyspace, and scans every key for a range delete or a
//     compare over a range (the apiserver sends neither for pods). Of a
//     revoked lease it reports the pods deleted, not the lease.
//   - It starts from the WAL's first entry and an empty store. A member
//     that has purged its first segments (once a snapshot covers them,
//     beyond the segments it keeps), or that joined from a snapshot, needs the reader to
//     start from the snapshot in member/snap; it fails with ErrLost
//     instead. A reader that falls behind the member's purging fails the
//     same way.
//   - A restart of the member is tested, for both readers
//     (TestFollowsMemberRestart, TestFollowsMemberV3Restart), a member
//     alone only: the member is closed in the middle of the writes, its
//     WAL left as a crash in the middle of a write leaves it (an entry
//     written whole and not committed, then a torn record), and started
//     again on the same directory while the reader keeps polling. It
//     repairs the torn tail (it truncates the segment there and keeps a
//     .broken copy, which the reader does not read), commits the logged
//     entry with the first of its new term, and appends after it; the
//     reader's events are the member's writes of both lives, each once
//     and in order, and its store the member's. Not tested: a member
//     killed by the system (the tests close an embedded one, which
//     finishes the requests it has begun, and write the crash into its
//     log themselves), and a follower's WAL, where entries not yet
//     committed can be replaced, in a real cluster (the reader passes on
//     committed entries only, and reads again from the last of them; a
//     log that later replaces an entry it passed on ends it with
//     ErrReplaced, tested on logs written by hand).
//   - In a cluster of several members the leader commits an entry after
//     the followers have it, and a save that only moves the commit index
//     is not flushed to the file (etcd's WAL syncs for new entries, a new
//     vote or a new term): the last entries of a burst would reach the
//     reader with the member's next write. A reader given AskCommit asks
//     its member what it has applied (etcd's Status: its applied index
//     and the term of the entry there) when the first entry it holds has
//     waited one poll, and passes on the entries up to the one it holds
//     at that index with that term, once two answers in a row agree
//     (resume.go says why that entry is the one applied).
//     TestFollowsAMemberOfThree reads each member of three of Debian's
//     etcd 3.4; TestAskingTheMemberPassesOnOnlyWhatItApplied writes a
//     log whose entries a new leader replaces. A member alone, as the
//     other tests run it, saves the commit with the entries.
//   - The first poll, and one after a fallback to ReadAll, decodes the
//     segment it starts in from its beginning, so its cost grows with the
//     segment's fill. The laboratory's members write smaller segments
//     (stack.WALSegmentBytes) and keep more of them (pkg/etcd's
//     walKeptBytes), which every poll read again before polls went on
//     where the last one stopped.
//   - Keys expired by a TTL in the v2 store are applied (so the index
//     stays the member's) but not reported; the apiserver gives pods no
//     TTL. (In the v3 store an expired lease is revoked through the log,
//     and the pods it held are reported deleted.)
//   - The hollow-node binary serves it (-wal_of, and -wal_v3 for today's
//     stack, where it mirrors each pod as 2014's, etcdpods.V1Mirror) as a
//     learner's client listener is served, and the laboratory starts it
//     with -lab_reader=wal; each start reads the log from its beginning.
package walpods
