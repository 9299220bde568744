package walpods

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"os"
	"path/filepath"

	"go.etcd.io/etcd/pkg/v3/crc"
	"go.etcd.io/etcd/raft/v3/raftpb"
	"go.etcd.io/etcd/server/v3/wal/walpb"
)

// A read that goes on where the last one ended.
//
// etcd 3.5's WAL package reads a log only from the start of a segment
// (wal.OpenForRead, then ReadAll): its decoder, which could go on from an
// offset, is unexported. etcd 3.6 exports it (wal.NewDecoder, with
// LastOffset and UpdateCRC, for the same use), but the laboratory's
// members and this package are etcd 3.5, for the v2 API. A poll that
// decodes its segment from the start costs as much as the segment holds,
// at every look; the reader's profile at 10 000 pods put a third of its
// CPU there. So the reader keeps where it stopped (the segment, the
// offset after the last whole record, and the CRC chain's value there)
// and reads only what was appended since.
//
// What it does itself is the frame: the 8-byte little-endian length word
// before each record (its low 56 bits the record's length, its top byte
// the padding to 8 bytes), as etcd's encoder writes it. The record is
// etcd's (walpb.Record's Unmarshal and Validate), its CRC etcd's (the
// crc package, Castagnoli, chained from one record to the next and
// carried across segments by each segment's first record), and the
// entries and hard states raft's. The first read decodes from the start
// of the segment etcd's OpenForRead would pick, as does the first read
// after a fallback. etcd's ReadAll stays the authority where the log is
// not as expected: a read that meets a record that does not decode, or
// fails its CRC, anywhere but at the end of the newest segment, a segment
// gone or one missing in the sequence, or an entry that leaves a gap,
// reads with ReadAll instead, as every read did before, and the next
// read starts again from a segment's start. ReadAll's checks of the
// metadata records and of the snapshot record it was opened at run only
// then: the reader opens at no snapshot, and the metadata names the
// member, which the reader does not use.
//
// A record at the end of the newest segment that does not decode is
// taken for one the member is still writing: the read stops before it,
// and the next one looks again. If the next one stops at the same record,
// ReadAll decides: a torn tail (the member crashed while writing it) is
// no error to it either, and anything else it reports.

// The WAL's record types, as etcd's wal package numbers them (it does
// not export them).
const (
	metadataRecord int64 = iota + 1
	entryRecord
	stateRecord
	crcRecord
	snapshotRecord
)

// crcTable is the CRC's polynomial, as etcd's wal package uses it.
var crcTable = crc32.MakeTable(crc32.Castagnoli)

// position is where the last read stopped.
type position struct {
	seg segment
	// off is the offset in seg after the last whole record read.
	off int64
	// crc is the CRC chain's value after that record; chained says it
	// has been read from the log (at a crc record), not yet when a read
	// starts at a segment's start.
	crc     uint32
	chained bool
	// pending holds the entries read after the last one passed on, not
	// yet committed; commit is the commit index of the last hard state
	// read.
	pending []raftpb.Entry
	commit  uint64
	// stuck says the last read stopped at a record it could not decode,
	// at off in the newest segment.
	stuck bool
	// waiting is the first pending entry at the end of the last read;
	// answer the member's last answer since it was (askCommit).
	waiting uint64
	answer  memberAnswer
}

// errAnomaly is a record that makes a read go back to etcd's ReadAll
// even at the end of the newest segment.
var errAnomaly = errors.New("walpods: the log is not as a read that goes on expects it")

// readOn reads what the log committed after the last entry passed on,
// from where the last read stopped. An error means it met what it does
// not expect and passed nothing on: the caller reads with etcd's ReadAll
// instead, and the error says why.
func (r *walReader) readOn(cost *Cost) ([]raftpb.Entry, error) {
	segs, err := segmentNames(r.dir)
	if err != nil {
		return nil, err
	}
	p := r.at
	r.at = nil
	i := -1
	if p == nil {
		// Where etcd's OpenForRead would start: the last segment whose
		// first entry is at most the last one passed on.
		for j := len(segs) - 1; j >= 0; j-- {
			if segs[j].first <= r.index {
				i = j
				break
			}
		}
		if i < 0 {
			return nil, fmt.Errorf("no segment holds entry %d", r.index+1)
		}
		p = &position{seg: segs[i]}
		cost.FromStarts = 1
	} else {
		for j, s := range segs {
			if s.name == p.seg.name {
				i = j
				break
			}
		}
		if i < 0 {
			return nil, fmt.Errorf("segment %s is gone", p.seg.name)
		}
	}
	for {
		newest := i == len(segs)-1
		at := p.off
		n, err := r.decodeSegment(p)
		cost.Segments++
		cost.Entries += n
		if err != nil {
			switch {
			case errors.Is(err, ErrReplaced):
				return nil, err
			case !newest:
				return nil, fmt.Errorf("%s, not the newest segment, at byte %d: %w", p.seg.name, p.off, err)
			case p.stuck && p.off == at:
				return nil, fmt.Errorf("%s stops twice at byte %d: %w", p.seg.name, p.off, err)
			case errors.Is(err, errAnomaly):
				return nil, err
			}
			// A record the member is still writing, perhaps: the
			// next read looks again.
			p.stuck = true
			break
		}
		p.stuck = false
		if newest {
			break
		}
		// The segment is whole (the member cuts a new one only after
		// it has written the last record of this one); the next goes
		// on the chain.
		next := segs[i+1]
		if next.seq != p.seg.seq+1 {
			return nil, fmt.Errorf("segment %s follows %s", next.name, p.seg.name)
		}
		i++
		p.seg, p.off = next, 0
	}
	r.askCommit(p)
	// Pass on the entries committed: by the last hard state, or by the
	// member's answer (askCommit).
	var out []raftpb.Entry
	k := 0
	for ; k < len(p.pending) && p.pending[k].Index <= p.commit; k++ {
		e := p.pending[k]
		if !(r.plantSkip && k == 0) {
			out = append(out, e)
		}
		r.pass(e)
	}
	p.pending = append(p.pending[:0], p.pending[k:]...)
	r.at = p
	return out, nil
}

// decodeSegment decodes seg's records from p.off to the end of what is
// written (a zero length word, which is the segment's preallocated space,
// or the end of the file), moving p past each whole record, and returns
// how many entries it decoded. An error is a record that did not decode
// whole (which may be one still being written), or errAnomaly.
func (r *walReader) decodeSegment(p *position) (int, error) {
	f, err := os.Open(filepath.Join(r.dir, p.seg.name))
	if err != nil {
		return 0, fmt.Errorf("%w: %v", errAnomaly, err)
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return 0, fmt.Errorf("%w: %v", errAnomaly, err)
	}
	size := info.Size()
	if p.off > size {
		// The segment was cut shorter than where the last read
		// stopped.
		return 0, fmt.Errorf("%w: %s is %d bytes, shorter than the %d read", errAnomaly, p.seg.name, size, p.off)
	}
	br := bufio.NewReaderSize(io.NewSectionReader(f, p.off, size-p.off), 32<<10)
	entries := 0
	var word [8]byte
	var rec walpb.Record
	for {
		if _, err := io.ReadFull(br, word[:]); err != nil {
			if err == io.EOF {
				return entries, nil
			}
			return entries, err
		}
		length := binary.LittleEndian.Uint64(word[:])
		if length == 0 {
			return entries, nil
		}
		recBytes := int64(length &^ (0xff << 56))
		var padBytes int64
		if length&(1<<63) != 0 {
			padBytes = int64(length>>56) & 0x7
		}
		if recBytes+padBytes > size-p.off-int64(len(word)) {
			return entries, io.ErrUnexpectedEOF
		}
		data := make([]byte, recBytes+padBytes)
		if _, err := io.ReadFull(br, data); err != nil {
			return entries, io.ErrUnexpectedEOF
		}
		rec.Reset()
		if err := rec.Unmarshal(data[:recBytes]); err != nil {
			return entries, err
		}
		sum := p.crc
		if rec.Type == crcRecord {
			// A segment's first record carries the chain's value at
			// the end of the one before.
			if begins := rec.Crc; p.chained && rec.Validate(p.crc) != nil {
				return entries, fmt.Errorf("%w: %s begins with CRC %x, the segment before ended at %x", errAnomaly, p.seg.name, begins, p.crc)
			}
			sum = rec.Crc
		} else {
			h := crc.New(p.crc, crcTable)
			h.Write(rec.Data)
			sum = h.Sum32()
			if err := rec.Validate(sum); err != nil {
				return entries, err
			}
		}
		switch rec.Type {
		case entryRecord:
			var e raftpb.Entry
			if err := e.Unmarshal(rec.Data); err != nil {
				return entries, fmt.Errorf("%w: an entry that does not decode: %v", errAnomaly, err)
			}
			if err := r.take(p, e); err != nil {
				return entries, err
			}
			entries++
		case stateRecord:
			var st raftpb.HardState
			if err := st.Unmarshal(rec.Data); err != nil {
				return entries, fmt.Errorf("%w: a hard state that does not decode: %v", errAnomaly, err)
			}
			p.commit = st.Commit
		case metadataRecord, crcRecord, snapshotRecord:
		default:
			return entries, fmt.Errorf("%w: a record of type %d", errAnomaly, rec.Type)
		}
		p.off += int64(len(word)) + recBytes + padBytes
		p.crc, p.chained = sum, true
	}
}

// take adds e to the entries pending, as ReadAll adds an entry to those
// it returns: an entry at or before the last one passed on is one read
// again, or a stale one, unless it replaces an entry passed on
// (checkPassed); one at or before the last pending replaces it and those after
// it (the leader's log overwrote entries not yet committed); one after
// the next leaves a gap.
func (r *walReader) take(p *position, e raftpb.Entry) error {
	if e.Index <= r.index {
		return r.checkPassed(e)
	}
	up := e.Index - r.index - 1
	if up > uint64(len(p.pending)) {
		return fmt.Errorf("%w: entry %d follows entry %d", errAnomaly, e.Index, r.index+uint64(len(p.pending)))
	}
	p.pending = append(p.pending[:up], e)
	return nil
}

// askCommit asks the member which entries it has applied where the log
// has not said that the entries pending are committed: the first of them
// was already pending at the last read.
//
// A member of a cluster of several learns that an entry is committed
// after it has logged it (the leader once a quorum has it, a follower
// from the leader's next message), and saves that commit in a hard state
// with no entries, which etcd's WAL does not flush to its file until its
// next write that needs syncing. So the last entries of a burst would
// wait for the cluster's next write, which may never come.
//
// The member says (commitOf, etcd's Status) its applied index and the
// term of the last entry it applied (the header's RaftTerm, which etcd
// sets as it applies each entry: not raft's current term). An applied
// entry is committed. If the reader holds an entry at that index with
// that term, it is the entry the member applied (two entries with the
// same index and term are the same, and so are the logs before them), so
// it and every entry before it are committed. The member's commit index
// is no use here: it runs ahead of the entries the member has logged,
// and its log may still hold an entry a new leader is replacing. etcd
// sets the applied index and the term one after the other, so one answer
// could pair an entry's index with the term of the one before it: only
// an answer the same as the one before it counts.
func (r *walReader) askCommit(p *position) {
	if r.commitOf == nil || len(p.pending) == 0 {
		return
	}
	first := p.pending[0].Index
	if first <= p.commit {
		return
	}
	if first != p.waiting {
		p.waiting, p.answer = first, memberAnswer{}
		return
	}
	applied, term, err := r.commitOf()
	if err != nil {
		return
	}
	answer := memberAnswer{applied: applied, term: term, ok: true}
	same := answer == p.answer
	p.answer = answer
	if !same && !r.plantTrustCommit {
		return
	}
	for _, e := range p.pending {
		if e.Index == applied && (e.Term == term || r.plantTrustCommit) && e.Index > p.commit {
			p.commit = e.Index
			r.commitsAsked++
			return
		}
	}
}

// memberAnswer is one answer of the member to askCommit.
type memberAnswer struct {
	applied, term uint64
	ok            bool
}
