package findings

import (
	"fmt"
	"strings"

	"github.com/kube-rewind/kube-rewind/pkg/lab/bench/results"
)

// withoutStatusWrites ends the name of the control run of the sweep's
// scale-up gap: today's design with its status writes switched off
// (history: status-writes).
const withoutStatusWrites = "-without-status-writes"

// statusWritesFinding holds the cause the sweep gives today's slower
// scale-up on our apiserver to its control run: each variant beside
// "<variant>-without-status-writes" at the same size. Our v0.4 apiserver
// counts a controller's pods on every read and watch event of the
// controller (REST.fillCurrentState in pkg/registry/controller), so every
// status write costs a LIST of its pods; without the writes the
// apiserver's CPU should fall by statusWriteCPU's factor, 1.2 to 3. The
// times to all running are shown beside it and not judged: at 10 000 pods
// they spread widely over two runs (the status-writes page shows it).
var statusWriteSides = results.Sides{Theirs: "the apiserver's CPU with status writes", Ours: "without"}

func statusWritesFinding(sum *results.Summary) (results.Finding, bool) {
	f := results.Finding{Topic: "the status writes' cost on our apiserver",
		Expect: "today's design writes its controllers' status, and our v0.4 apiserver counts a controller's pods on every read and " +
			"watch event of the controller, so each write costs a LIST of its pods: against the same run without its status writes " +
			"(`<variant>" + withoutStatusWrites + "`, history: status-writes): " + statusWriteCPU.Text(statusWriteSides) + "."}
	var c checks
	var parts, verdicts []string
	for _, pair := range controlPairs(sum, withoutStatusWrites) {
		v, control, where := pair.variant, pair.control, pair.where()
		with, ok1 := v.Figure("apiserver_cpu")
		without, ok2 := control.Figure("apiserver_cpu")
		if !ok1 || !ok2 || without.Median <= 0 {
			continue
		}
		writes, _ := v.Figure("status_writes")
		part := fmt.Sprintf("%s: %s status writes, apiserver CPU %s with them against %s without (%.2f ×)", where,
			RangeText(writes), RangeText(with), RangeText(without), with.Median/without.Median)
		if t1, ok := v.Figure("time_to_running"); ok {
			if t2, ok := control.Figure("time_to_running"); ok {
				part += fmt.Sprintf("; time to all running %s s against %s s", RangeText(t1), RangeText(t2))
				if l, ok := pair.size.Variant("legacy"); ok {
					if t3, ok := l.Figure("time_to_running"); ok {
						part += fmt.Sprintf(" (legacy %s s)", RangeText(t3))
					}
				}
			}
		}
		parts = append(parts, part)
		j := statusWriteCPU.Judge(statusWriteSides, with.Unit, without.Median, with.Median)
		c.check(j.Holds, "at %s, predicted %s; measured %s", where, j.Predicted, j.Measured)
		verdicts = append(verdicts, fmt.Sprintf("%s %.2f ×", where, with.Median/without.Median))
	}
	if len(parts) == 0 {
		return results.Finding{}, false
	}
	f.Measured = strings.Join(parts, "; ") + "."
	c.settle(&f, strings.Join(verdicts, ", ")+", the apiserver's CPU with status writes against without", "")
	return f, true
}
