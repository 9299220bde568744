package demo

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/kube-rewind/kube-rewind/pkg/lab/scenario"
)

// Row is one result of the scenario for both designs, formatted.
type Row struct {
	Name string `json:"name"`
	// Process names the process the figure measures, as the benchmark's
	// report does (apiserver, controller-manager, hollow-node, ...); empty
	// for the cluster as a whole.
	Process string `json:"process,omitempty"`
	// Note says what the figure includes that a reader might not expect.
	Note   string `json:"note,omitempty"`
	Unit   string `json:"unit"`
	Legacy string `json:"legacy"`
	Modern string `json:"modern"`
	// Better is the design with the better figure, when the result says
	// which way is better and the two differ.
	Better string `json:"better,omitempty"`
	// Diff says the difference in a few words.
	Diff string `json:"diff"`
	// Missing, when set, stands in the left cell for its value: the left
	// design has no such thing as the row counts (MarkMissing), so its
	// zero is no achievement and neither side is marked better.
	Missing string `json:"missing,omitempty"`
}

// compare lines up the results of the two designs, in the legacy order.
func compare(legacy, modern []scenario.Result) []Row {
	return CompareAs([2]string{Designs[0].Short, Designs[1].Short}, legacy, modern)
}

// CompareAs is compare with the sides named by labels, left first.
func CompareAs(labels [2]string, legacy, modern []scenario.Result) []Row {
	m := map[string]scenario.Result{}
	for _, r := range modern {
		m[r.Name] = r
	}
	var rows []Row
	for _, l := range legacy {
		r, ok := m[l.Name]
		row := Row{Name: strings.ReplaceAll(l.Name, "_", " "), Process: l.Process, Note: managerNote[l.Name], Unit: l.Unit, Legacy: formatValue(l.Value), Modern: "–"}
		if ok {
			row.Modern = formatValue(r.Value)
			row.Better, row.Diff = difference(labels, l.Value, r.Value, l.LowerIsBetter)
		}
		rows = append(rows, row)
	}
	return rows
}

// managerNote says, for the figures that count every request of the
// controller-manager process, that its lease renewals are among them.
var managerNote = map[string]string{
	"requests_per_min": "every request of the controller-manager process, measured at the apiserver, lease renewals included",
	"manager_requests": "every request of the controller-manager process, measured at the apiserver, lease renewals included",
	"bytes_per_min":    "the bodies of every request of the controller-manager process, both ways, measured at the apiserver, lease renewals included",
	"manager_bytes":    "the bodies of every request of the controller-manager process, both ways, measured at the apiserver, lease renewals included",
}

// featureOf names, for a result that counts what one of today's
// features does, the changes of pkg/history that brought it: the 2014
// manager has no such thing, and sends none of its requests.
var featureOf = map[string]string{
	"election requests per min": "leader-election",
	"status writes per min":     "status-writes",
	"status writes":             "status-writes",
	// Recordings made before the status writes were counted apart name
	// the manager's PUTs: its status writes and its lease renewals.
	"manager puts": "status-writes, leader-election",
}

// noSuchThing is what the left cell of such a row says.
const noSuchThing = "no such thing in 2014"

// MarkMissing marks, when the left side is the 2014 design, the rows of
// rows that count a feature it lacks: the cell says so instead of its 0,
// neither side is marked better, and the difference cites the change.
func MarkMissing(rows []Row, left Design) {
	if left.Variant.Design != "legacy" && !strings.HasPrefix(left.Heading, "2014") {
		return
	}
	for i, r := range rows {
		if names, ok := featureOf[r.Name]; ok && r.Legacy == "0" {
			rows[i].Missing, rows[i].Better, rows[i].Diff = noSuchThing, "", "(history: "+names+")"
		}
	}
}

// Label is the row's name with the process it measures.
func (r Row) Label() string {
	if r.Process == "" {
		return r.Name
	}
	return r.Name + " (" + r.Process + ")"
}

// formatValue prints whole numbers whole and others with up to two
// decimals; a negative figure means "not measured".
func formatValue(v float64) string {
	switch {
	case v < 0:
		return "–"
	case v == math.Trunc(v) && v < 1e15:
		return Thousands(int(v))
	case v < 10:
		return strconv.FormatFloat(v, 'f', 2, 64)
	case v < 100:
		return strconv.FormatFloat(v, 'f', 1, 64)
	}
	return Thousands(int(math.Round(v)))
}

// difference names the better design and how much better, for results
// where lower is better; for the others it only says whether they differ.
func difference(labels [2]string, legacy, modern float64, lowerIsBetter bool) (better, diff string) {
	if legacy < 0 || modern < 0 {
		return "", ""
	}
	if formatValue(legacy) == formatValue(modern) {
		return "", "same"
	}
	if !lowerIsBetter {
		return "", ""
	}
	better, lo, hi := "modern", modern, legacy
	who := labels[1]
	if legacy < modern {
		better, lo, hi = "legacy", legacy, modern
		who = labels[0]
	}
	switch {
	case lo == 0:
		return better, who + ": none"
	case hi/lo >= 1.95:
		return better, fmt.Sprintf("%s %.0f× lower", who, hi/lo)
	}
	return better, fmt.Sprintf("%s %.0f %% lower", who, 100*(hi-lo)/hi)
}

// Verdict says whether a design showed, this time, what the scenario
// expects of its design.
type Verdict struct {
	Design string `json:"design"`
	OK     bool   `json:"ok"`
	Why    string `json:"why,omitempty"`
}

// Verdicts checks both designs' results against the scenario's
// expectations.
func Verdicts(sc *scenario.Scenario, sz scenario.Size, designs []Design, legacy, modern []scenario.Result) []Verdict {
	var out []Verdict
	for i, r := range [][]scenario.Result{legacy, modern} {
		if !designs[i].Checked {
			continue
		}
		v := Verdict{Design: designs[i].Short, OK: true}
		if err := sc.Script.Expect(designs[i].Variant, sz, scenario.ResultMap(r)); err != nil {
			v.OK, v.Why = false, err.Error()
		}
		out = append(out, v)
	}
	return out
}
