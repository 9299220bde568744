package findings

import (
	"fmt"
	"strings"
	"testing"

	"github.com/kube-rewind/kube-rewind/pkg/lab/bench/results"
)

// The checks below compare modern's apiserver CPU with legacy's 4 CPU s,
// and blame a gap on status writes, which predict modern 1 to 2 CPU s
// higher, both edges included.
var (
	settleSides  = results.Sides{Theirs: "modern", Ours: "legacy"}
	statusWrites = reason{
		why:     "modern writes each controller's status.",
		predict: results.Difference("CPU s", 1, 2).Testing("-without=status-writes"),
	}
	watchCache = reason{
		why:     "the watch cache serves modern's lists.",
		predict: results.Difference("CPU s", -1, 0),
	}
)

const (
	settleSummary = "modern's apiserver CPU within a second of legacy's"
	settleNote    = "A gap without a reason points at a second LIST per sync."
)

// cpuFailed is the failed check of a modern apiserver at modern CPU s.
func cpuFailed(modern float64) string {
	return fmt.Sprintf("modern's apiserver used %.2f CPU s against legacy's 4.00", modern)
}

// cpuCheck fails the CPU check with modern at modern CPU s, in unit, and
// gives status writes as the reason.
func cpuCheck(modern float64, unit string) func(*checks) {
	return func(c *checks) {
		c.checkBecause(false, statusWrites, settleSides, unit, 4, modern, "%s", cpuFailed(modern))
	}
}

func showBool(b *bool) string {
	if b == nil {
		return "unset"
	}
	return fmt.Sprint(*b)
}

func TestSettleExplainsAFailedCheckOnlyWhenEveryReasonsPredictionHolds(t *testing.T) {
	var unset *bool
	yes, no := truth(true), truth(false)
	failed := func(checks ...string) string {
		return strings.Join(checks, "; ") + " (" + settleSummary + ")"
	}
	for _, tc := range []struct {
		// name is the finding's topic, with the value measured.
		name   string
		record func(*checks)
		// note is settle's unexplained argument.
		note       string
		holds      *bool
		explained  *bool
		verdict    string
		why        []string
		notWhy     []string
		judgements []bool
	}{{
		name:    "no check ran",
		record:  func(*checks) {},
		note:    settleNote,
		holds:   unset,
		verdict: settleSummary,
	}, {
		name: "every check passed, modern at 4.50 CPU s",
		record: func(c *checks) {
			c.check(true, "modern lists once per sync")
			c.checkBecause(true, statusWrites, settleSides, "CPU s", 4, 4.5, "%s", cpuFailed(4.5))
		},
		note:    settleNote,
		holds:   yes,
		verdict: settleSummary,
	}, {
		name:      "modern at 5.50 CPU s, inside the prediction",
		record:    cpuCheck(5.5, "CPU s"),
		note:      settleNote,
		holds:     no,
		explained: yes,
		verdict:   failed(cpuFailed(5.5)),
		why: []string{
			cpuFailed(5.5) + ": modern writes each controller's status. Predicted: ",
			"Control run: -without=status-writes.",
		},
		notWhy:     []string{"NOT EXPLAINED", settleNote, "status.."},
		judgements: []bool{true},
	}, {
		name:       "modern at 5.00 CPU s, on the prediction's low edge",
		record:     cpuCheck(5, "CPU s"),
		note:       settleNote,
		holds:      no,
		explained:  yes,
		verdict:    failed(cpuFailed(5)),
		notWhy:     []string{"NOT EXPLAINED", settleNote},
		judgements: []bool{true},
	}, {
		name:       "modern at 6.00 CPU s, on the prediction's high edge",
		record:     cpuCheck(6, "CPU s"),
		note:       settleNote,
		holds:      no,
		explained:  yes,
		verdict:    failed(cpuFailed(6)),
		notWhy:     []string{"NOT EXPLAINED", settleNote},
		judgements: []bool{true},
	}, {
		name:      "modern at 4.50 CPU s, below the prediction",
		record:    cpuCheck(4.5, "CPU s"),
		note:      settleNote,
		holds:     no,
		explained: no,
		verdict:   failed(cpuFailed(4.5)),
		why: []string{
			"**NOT EXPLAINED**: " + cpuFailed(4.5) + ": its reason predicts ",
			"The reason given: modern writes each controller's status. Control run: -without=status-writes.",
			settleNote,
		},
		judgements: []bool{false},
	}, {
		name:       "modern at 6.50 CPU s, above the prediction",
		record:     cpuCheck(6.5, "CPU s"),
		note:       settleNote,
		holds:      no,
		explained:  no,
		verdict:    failed(cpuFailed(6.5)),
		why:        []string{"**NOT EXPLAINED**: " + cpuFailed(6.5), settleNote},
		judgements: []bool{false},
	}, {
		name:       "modern at 3.00 CPU s, the other way from the prediction",
		record:     cpuCheck(3, "CPU s"),
		note:       settleNote,
		holds:      no,
		explained:  no,
		verdict:    failed(cpuFailed(3)),
		why:        []string{"**NOT EXPLAINED**: " + cpuFailed(3), settleNote},
		judgements: []bool{false},
	}, {
		name:       "modern at 5.50 s, a figure the reason does not speak of",
		record:     cpuCheck(5.5, "s"),
		note:       settleNote,
		holds:      no,
		explained:  no,
		verdict:    failed(cpuFailed(5.5)),
		why:        []string{"**NOT EXPLAINED**: " + cpuFailed(5.5), "another figure's reason", settleNote},
		judgements: []bool{false},
	}, {
		name:       "modern at 6.50 CPU s, with no note",
		record:     cpuCheck(6.5, "CPU s"),
		holds:      no,
		explained:  no,
		verdict:    failed(cpuFailed(6.5)),
		why:        []string{"**NOT EXPLAINED**: " + cpuFailed(6.5)},
		notWhy:     []string{settleNote},
		judgements: []bool{false},
	}, {
		name:      "modern lists 3 times per sync, with no reason",
		record:    func(c *checks) { c.check(false, "modern lists %d times per sync", 3) },
		note:      settleNote,
		holds:     no,
		explained: no,
		verdict:   failed("modern lists 3 times per sync"),
		why:       []string{"**NOT EXPLAINED**: modern lists 3 times per sync: no known reason. " + settleNote},
	}, {
		name: "modern at 5.50 CPU s and listing 3 times, one reason for two failed checks",
		record: func(c *checks) {
			c.check(true, "modern's pods all run")
			cpuCheck(5.5, "CPU s")(c)
			c.check(false, "modern lists %d times per sync", 3)
		},
		note:       settleNote,
		holds:      no,
		explained:  no,
		verdict:    failed(cpuFailed(5.5), "modern lists 3 times per sync"),
		why:        []string{cpuFailed(5.5) + ": modern writes", "**NOT EXPLAINED**: modern lists 3 times per sync: no known reason.", settleNote},
		notWhy:     []string{"modern's pods all run"},
		judgements: []bool{true},
	}, {
		name: "modern at 5.50 CPU s, with a second reason that holds too",
		record: func(c *checks) {
			cpuCheck(5.5, "CPU s")(c)
			c.alsoBecause(watchCache, settleSides, "CPU s", 4, 3.5, "legacy's lists")
		},
		note:       settleNote,
		holds:      no,
		explained:  yes,
		verdict:    failed(cpuFailed(5.5)),
		why:        []string{"legacy's lists: the watch cache serves modern's lists. Predicted: "},
		notWhy:     []string{"NOT EXPLAINED", settleNote},
		judgements: []bool{true, true},
	}, {
		name: "modern at 5.50 CPU s, with a second reason that misses",
		record: func(c *checks) {
			cpuCheck(5.5, "CPU s")(c)
			c.alsoBecause(watchCache, settleSides, "CPU s", 4, 5.5, "legacy's lists")
		},
		note:       settleNote,
		holds:      no,
		explained:  no,
		verdict:    failed(cpuFailed(5.5)),
		why:        []string{cpuFailed(5.5) + ": modern writes", "**NOT EXPLAINED**: legacy's lists: its reason predicts ", settleNote},
		judgements: []bool{true, false},
	}} {
		t.Run(tc.name, func(t *testing.T) {
			var c checks
			tc.record(&c)
			f := results.Finding{Topic: tc.name}
			c.settle(&f, settleSummary, tc.note)
			if showBool(f.Holds) != showBool(tc.holds) {
				t.Errorf("%s: Holds = %s, want %s", f.Topic, showBool(f.Holds), showBool(tc.holds))
			}
			if showBool(f.Explained) != showBool(tc.explained) {
				t.Errorf("%s: Explained = %s, want %s; why: %s", f.Topic, showBool(f.Explained), showBool(tc.explained), f.Why)
			}
			if f.Verdict != tc.verdict {
				t.Errorf("%s: verdict %q, want %q", f.Topic, f.Verdict, tc.verdict)
			}
			if tc.explained == nil && f.Why != "" {
				t.Errorf("%s: a finding with no failed check says why: %s", f.Topic, f.Why)
			}
			for _, want := range tc.why {
				if !strings.Contains(f.Why, want) {
					t.Errorf("%s: why lacks %q: %s", f.Topic, want, f.Why)
				}
			}
			for _, not := range tc.notWhy {
				if strings.Contains(f.Why, not) {
					t.Errorf("%s: why has %q: %s", f.Topic, not, f.Why)
				}
			}
			if len(f.Judgements) != len(tc.judgements) {
				t.Fatalf("%s: %d judgements, want %d: %+v", f.Topic, len(f.Judgements), len(tc.judgements), f.Judgements)
			}
			for i, j := range f.Judgements {
				if j.Holds != tc.judgements[i] {
					t.Errorf("%s: judgement %d holds = %v, want %v (predicted %s; measured %s)", f.Topic, i, j.Holds, tc.judgements[i], j.Predicted, j.Measured)
				}
				if !strings.Contains(f.Why, j.Predicted) || !strings.Contains(f.Why, j.Measured) {
					t.Errorf("%s: why does not give judgement %d's prediction %q and measurement %q: %s", f.Topic, i, j.Predicted, j.Measured, f.Why)
				}
			}
		})
	}
}
