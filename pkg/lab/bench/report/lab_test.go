package report

import (
	"bytes"
	"strings"
	"testing"

	"github.com/kube-rewind/kube-rewind/pkg/lab/bench/results"
)

func TestTheLaboratorysShareNamesTheLearnersCostAndWhatIncludesIt(t *testing.T) {
	learner := results.LabRun{Scenario: "scale-up", Size: "N=1000", Variant: "legacy", Run: 1,
		LabShare: results.LabShare{Reader: results.ReaderLearner, LearnerCPU: 3, LearnerBusy: 0.1, AllCPU: 60}}
	members := results.LabRun{Scenario: "scale-up", Size: "N=1000", Variant: "legacy", Run: 2,
		LabShare: results.LabShare{Reader: results.ReaderMembers, AllCPU: 55}}
	d := &document{title: "lab"}
	labSection(d, []results.LabRun{learner, members})
	var md bytes.Buffer
	if err := writeMarkdown(&md, d); err != nil {
		t.Fatal(err)
	}
	page := md.String()
	for _, want := range []string{
		"reader CPU, learner or log (share of the run)",
		"3 CPU s (10 % busy), 5.0 % of all",
		"none: read the members",
		"1 of 2 runs here read pods through the laboratory's etcd learner",
		"every apiserver CPU and every time on this page from those runs includes the learner's share",
		"apiserver+learner level",
		"<variant>-reading-members",
	} {
		if !strings.Contains(page, want) {
			t.Errorf("the laboratory's share does not say %q:\n%s", want, page)
		}
	}

	d = &document{title: "lab"}
	labSection(d, []results.LabRun{members})
	md.Reset()
	writeMarkdown(&md, d)
	if !strings.Contains(md.String(), "No run here read pods through a reader of the laboratory's own") {
		t.Errorf("a page without the learner does not say so:\n%s", md.String())
	}

	// The default reader, the member's log, is named with its CPU and lag.
	wal := results.LabRun{Scenario: "scale-up", Size: "N=1000", Variant: "legacy", Run: 3,
		LabShare: results.LabShare{Reader: results.ReaderWAL, LearnerCPU: 0.5, AllCPU: 50, ReaderLag: 0.02}}
	d = &document{title: "lab"}
	labSection(d, []results.LabRun{wal})
	md.Reset()
	writeMarkdown(&md, d)
	for _, want := range []string{"1 of 1 runs here read pods through the laboratory's reader of the embedded member's write-ahead log",
		"0.50 CPU s", "at most 0.02 s behind the member"} {
		if !strings.Contains(md.String(), want) {
			t.Errorf("a page read through the log does not say %q:\n%s", want, md.String())
		}
	}
	if strings.Contains(md.String(), "No run here read pods through") {
		t.Errorf("a page read through the log says no reader of the laboratory's read it:\n%s", md.String())
	}
}

// The calibration prices the learner where every page shows the ceiling:
// the bare apiserver with and without one, at the same client count.
func TestTheCeilingPricesTheLearner(t *testing.T) {
	cal := &results.Calibration{Levels: []results.Level{
		{Target: results.TargetLearner, Clients: results.FloorClients, PerSecond: 3500},
		{Target: results.TargetAPIServer, Clients: results.FloorClients, PerSecond: 4800},
		{Target: results.TargetEtcd, Clients: results.FloorClients, PerSecond: 9600},
	}}
	d := &document{title: "ceiling"}
	ceilingResults(d, cal)
	var md bytes.Buffer
	if err := writeMarkdown(&md, d); err != nil {
		t.Fatal(err)
	}
	page := md.String()
	for _, want := range []string{
		"the laboratory's learner joined",
		"The laboratory's learner costs the bare apiserver 27 % of its creates at 64 clients (3500 pods/s with it, 4800 without)",
		"At 64 clients the apiserver writes 50 % as fast as raw etcd",
	} {
		if !strings.Contains(page, want) {
			t.Errorf("the ceiling does not say %q:\n%s", want, page)
		}
	}
	if strings.Index(page, "raw etcd creates") > strings.Index(page, "learner joined") {
		t.Errorf("the learner's level is not last:\n%s", page)
	}
}

// The reader of the write-ahead log is priced by its pairs: the median
// share of creates it keeps, held to the share it must keep by an
// interval that holds the true median: the pairs' range where there are
// few, the k-th lowest to the k-th highest where there are enough.
func TestTheCeilingPricesTheWriteAheadLogsReaderByItsPairs(t *testing.T) {
	pair := func(without, with float64) results.Pair {
		return results.Pair{Without: results.Level{PerSecond: without}, With: results.Level{PerSecond: with}}
	}
	page := func(pairs ...results.Pair) string { return ceilingOfPairs(t, pairs) }
	kept := page(pair(4000, 3960), pair(4000, 3880), pair(4000, 4000))
	if want := "keeps 99 % of the bare apiserver's creates at 64 clients (the median of 3 alternating pairs, from 97 % to 100 %): at least the 95 % it must keep: the pairs' range, which holds the true median with 75 % confidence, lies above it"; !strings.Contains(kept, want) {
		t.Errorf("the ceiling does not say %q:\n%s", want, kept)
	}
	if short := page(pair(4000, 3760), pair(4000, 3600), pair(4000, 3000)); !strings.Contains(short, "**less than** the 95 % it must keep: the pairs' range, which holds the true median with 75 % confidence, lies below it") {
		t.Errorf("pairs at 94, 90 and 75 %% do not say they keep less than 95 %%:\n%s", short)
	}
	// One pair either side of the bar: the range spans it, and the page
	// claims neither.
	if want := "**not told apart from** the 95 % it must keep: the pairs' range, which holds the true median with 75 % confidence, spans it"; !strings.Contains(page(pair(4000, 3960), pair(4000, 3600), pair(4000, 4000)), want) {
		t.Errorf("pairs at 99, 90 and 100 %% do not say %q", want)
	}
	// Fifteen pairs, three of them far on either side: the range spans
	// the bar, and the 4th lowest to the 4th highest, at 96 % confidence,
	// lies below it.
	var fifteen []results.Pair
	for _, with := range []float64{3200, 4400, 3400, 4600, 3500, 4800, 3520, 3540, 3560, 3580, 3600, 3620, 3640, 3660, 3680} {
		fifteen = append(fifteen, pair(4000, with))
	}
	if want := "(the median of 15 alternating pairs, from 80 % to 120 %): **less than** the 95 % it must keep: the interval from the 4th lowest pair to the 4th highest, 88 % to 92 %, which holds the true median with 96 % confidence, lies below it"; !strings.Contains(page(fifteen...), want) {
		t.Errorf("fifteen pairs do not say %q:\n%s", want, page(fifteen...))
	}
}

// Pairs measured inside one apiserver's life say so, and say what the
// reader's stopped process used over the levels without it: a reader that
// went on reading there shows.
func TestTheCeilingSaysItsPairsSharedOneApiserverAndTheReaderStood(t *testing.T) {
	pairs := []results.Pair{
		{Without: results.Level{PerSecond: 4000}, With: results.Level{PerSecond: 3900}},
		{Without: results.Level{PerSecond: 4000}, With: results.Level{PerSecond: 3950}, WithFirst: true, ReaderCPUWithout: 0.004},
	}
	d := &document{title: "ceiling"}
	ceilingResults(d, &results.Calibration{WALPairs: pairs, WALPairsInOneLife: true})
	var md bytes.Buffer
	if err := writeMarkdown(&md, d); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"(the median of 2 pairs inside one apiserver's life, in alternating order, from 98 % to 99 %)",
		"Stopped for the levels without it, the reader's process used at most 0.00 CPU s over one of them.",
	} {
		if !strings.Contains(md.String(), want) {
			t.Errorf("the ceiling does not say %q:\n%s", want, md.String())
		}
	}
}

// The pairs also say what the reader of the log did over each load with
// it: its CPU as a share of a core, the latest it caught up, and, loudly,
// any load after which it never held the last pod.
func TestTheCeilingSaysWhatTheReaderDidInItsPairs(t *testing.T) {
	pair := func(cpu, catchUp float64, caughtUp bool) results.Pair {
		return results.Pair{
			Without: results.Level{PerSecond: 4000},
			With:    results.Level{PerSecond: 3900, Reader: &results.ReaderCost{CPU: cpu, Seconds: 2.5, CaughtUp: caughtUp, CatchUp: catchUp, ReadCPU: cpu / 4, ApplyCPU: cpu / 2}},
		}
	}
	page := func(pairs ...results.Pair) string { return ceilingOfPairs(t, pairs) }
	kept := page(pair(0.25, 0.02, true), pair(0.5, 0.08, true), pair(0.3, 0.01, true))
	if want := "the reader used a median 12 % of one core (its process's CPU): 25 % of that reading the log (its system calls and decoding), 50 % applying it to its own store, and 25 % the rest (serving, garbage collection, the runtime); it held the last pod created at most 80 ms after each load ended"; !strings.Contains(kept, want) {
		t.Errorf("the ceiling does not say %q:\n%s", want, kept)
	}
	behind := page(pair(0.25, 0.02, true), pair(0.5, 0, false))
	if want := "**did not hold the last pod created 10s after 1 of its 2 loads**"; !strings.Contains(behind, want) {
		t.Errorf("the ceiling does not say %q:\n%s", want, behind)
	}
}

// ceilingOfPairs is the ceiling's Markdown for a calibration of the
// reader's pairs alone.
func ceilingOfPairs(t *testing.T, pairs []results.Pair) string {
	t.Helper()
	d := &document{title: "ceiling"}
	ceilingResults(d, &results.Calibration{WALPairs: pairs})
	var md bytes.Buffer
	if err := writeMarkdown(&md, d); err != nil {
		t.Fatal(err)
	}
	return md.String()
}
