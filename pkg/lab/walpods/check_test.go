package walpods

import (
	"fmt"
	"sort"
)

// identity is what tells a write apart from every other in a test: the
// writers write each value once, and a delete's value is the one it
// removed.
type identity struct {
	typ        EventType
	key, value string
}

func identityOf(e Event) identity { return identity{e.Type, e.Key, e.Value} }

// compareEvents checks got, the events a reader emitted, against want,
// the successful writes in the order of the store's index (their raft
// indexes unknown): every write once, in order, at its store index, and
// nothing else. It returns one line per problem, naming the indexes.
func compareEvents(want, got []Event) []string {
	var problems []string
	at := make(map[identity]int, len(want))
	for i, w := range want {
		at[identityOf(w)] = i
	}
	matched := make([]bool, len(want))
	last := -1
	for _, g := range got {
		i, ok := at[identityOf(g)]
		switch {
		case !ok:
			problems = append(problems, fmt.Sprintf("extra event at raft index %d: %s %s, which no acknowledged write made", g.RaftIndex, g.Type, g.Key))
			continue
		case matched[i]:
			problems = append(problems, fmt.Sprintf("event at raft index %d repeats the write at store index %d (%s %s)", g.RaftIndex, want[i].StoreIndex, g.Type, g.Key))
			continue
		}
		matched[i] = true
		if g.StoreIndex != want[i].StoreIndex {
			problems = append(problems, fmt.Sprintf("event at raft index %d (%s %s) has store index %d, the member acknowledged %d", g.RaftIndex, g.Type, g.Key, g.StoreIndex, want[i].StoreIndex))
		}
		if i < last {
			problems = append(problems, fmt.Sprintf("event at raft index %d (store index %d) comes after the one at store index %d", g.RaftIndex, want[i].StoreIndex, want[last].StoreIndex))
		}
		last = max(last, i)
	}
	// The raft indexes around a missing write: the events that have the
	// store indexes nearest it.
	byStore := append([]Event(nil), got...)
	sort.Slice(byStore, func(i, j int) bool { return byStore[i].StoreIndex < byStore[j].StoreIndex })
	for i, w := range want {
		if matched[i] {
			continue
		}
		k := sort.Search(len(byStore), func(k int) bool { return byStore[k].StoreIndex > w.StoreIndex })
		after, before := "the start", "the end"
		if k > 0 {
			after = fmt.Sprintf("raft index %d", byStore[k-1].RaftIndex)
		}
		if k < len(byStore) {
			before = fmt.Sprintf("raft index %d", byStore[k].RaftIndex)
		}
		problems = append(problems, fmt.Sprintf("missing the write at store index %d (%s %s), between %s and %s", w.StoreIndex, w.Type, w.Key, after, before))
	}
	return problems
}
