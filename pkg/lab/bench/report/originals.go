package report

import (
	"fmt"
	"math"

	"github.com/kube-rewind/kube-rewind/pkg/lab/bench/findings"
	"github.com/kube-rewind/kube-rewind/pkg/lab/bench/results"
	"github.com/kube-rewind/kube-rewind/pkg/lab/published"
	"github.com/kube-rewind/kube-rewind/pkg/lab/scenario"
)

// "Checked against the originals": each of our ports beside the original
// it follows, when both ran — the modern manager beside upstream's own
// replication manager of today, the 2014 manager beside v0.4's — headline
// figure by headline figure, with the ratio and, for every difference
// beyond the run-to-run spread, its reason: a departure marked Ours: in
// the code, or a property of the original's binary. A defect of a port has
// no line among the reasons: it is fixed in the port instead.

// OriginalCheck is one headline figure of a port beside its original.
type OriginalCheck struct {
	// Port and Original are the two variants' names.
	Port     string `json:"port"`
	Original string `json:"original"`
	Scenario string `json:"scenario"`
	Size     string `json:"size"`
	Figure   string `json:"figure"`
	// Label says what the figure is, as the headline table does.
	Label   string `json:"label"`
	Unit    string `json:"unit"`
	Process string `json:"process,omitempty"`
	// Ours and Theirs are the figure's stats over each variant's runs.
	Ours   results.Stats `json:"ours"`
	Theirs results.Stats `json:"theirs"`
	// Ratio is the original's median over the port's; nil where the
	// port's is 0 and the original's is not.
	Ratio *float64 `json:"ratio"`
	// Verdict is same, within the spread, differs, or not judged.
	Verdict string `json:"verdict"`
	// Why gives the reason of a difference (or of what a single run may
	// show), when one is known.
	Why string `json:"why,omitempty"`
	// Judgement holds the reason's prediction against the ratio or the
	// difference measured; a difference its reason does not predict is
	// not explained by it.
	Judgement *results.Judgement `json:"judgement,omitempty"`
}

// The verdicts of an OriginalCheck.
const (
	verdictSame      = "same"
	verdictWithin    = "within the spread"
	verdictDiffers   = "differs"
	verdictNotJudged = "not judged"
)

// loadFreeUnits are the units of figures a loaded machine does not move:
// requests and pods are counted, not timed.
var loadFreeUnits = map[string]bool{"requests": true, "pods": true, "req/min": true}

// departure is the known reason a figure of an original differs from its
// port's, and what it predicts the difference to be.
type departure struct {
	// original is the original variant's name; scenario and figure narrow
	// the reason to one figure.
	original, scenario, figure string
	why                        string
	// predict is the difference the reason accounts for, the original's
	// side against the port's, in the figure's unit: set from the last
	// published run (examples/bench/originals, -quick, N=100) and from
	// the mechanism the reason names.
	predict results.Prediction
}

// departures lists the reasons measured differences have. Each says where
// the difference comes from and cites the place marked Ours: when it is a
// departure of ours.
var departures = []departure{
	{original: "upstream", scenario: "scale-up", figure: "peak_rss", why: "the binary, not the manager: " +
		"controller-manager-upstream links k8s.io/kubernetes, whose packages' initialisation (API groups registered " +
		"in its schemes, feature gates) holds several MiB before it connects to anything (controller-manager-upstream " +
		"against controller-manager-modern, both started against no apiserver, measured once and not published); " +
		"the same MiB stand between the two at rest in idle",
		predict: results.Difference("MiB", 4, 10)},
	{original: "upstream", scenario: "scale-up", figure: "peak_goroutines", why: "upstream's event recorder keeps " +
		"goroutines of its own (1 or 2 more at rest in idle, in two quick runs); the rest of a peak's difference is the " +
		"number of connections open at its sample, two goroutines each, which moves with the timing of the " +
		"slow-start batches",
		predict: results.Difference("goroutines", 1, 12)},
	{original: "upstream", scenario: "scale-up", figure: "peak_sockets", why: "the connections open at the peak's " +
		"sample: both managers share one client and its pool of at most 100 connections (modernTransport in " +
		"cmd/controller-manager/run_modern.go, marked Ours:); how many a batch of creates holds at once moves with " +
		"the apiserver's answers",
		predict: results.Difference("sockets", -10, 10)},
	{original: "upstream", scenario: "scale-up", figure: "status_writes", why: statusReplicas,
		predict: results.Ratio("requests", 1, 4)},
	{original: "upstream", scenario: "scale-up", figure: "apiserver_cpu", why: "besides the machine's load: every " +
		"status write, and the watch event each sends, costs our apiserver a LIST of the controller's pods, so a " +
		"manager that writes status more often costs it more, and upstream's may: " + statusReplicas,
		predict: results.Ratio("CPU s", 1, 2)},
	{original: "upstream", scenario: "scale-up", figure: "time_to_running", why: "both create in the same slow-start " +
		"batches under the same client limit; upstream's events take no token of that limit here, as the adapter " +
		"drops them (Ours: at events in adapter.go), where in kube-controller-manager the first of them would wait " +
		"their turn among the creates",
		predict: results.Ratio("s", 0.9, 1.1)},
	{original: "upstream", scenario: "restart", figure: "time_to_running", why: "in both, the restarted manager " +
		"first waits out the killed one's 15 s lease and then a pod LIST the scenario makes 3 s slower; the rest " +
		"is where the kill falls in the scale-up",
		predict: results.Ratio("s", 0.8, 1.25)},
	{original: "legacy-original", scenario: "scale-up", figure: "peak_rss", why: v04ManagerMemory,
		predict: results.Ratio("MiB", 0.55, 0.85)},
	{original: "legacy-original", scenario: "scale-up", figure: "peak_sockets", why: v04Connections,
		predict: results.Ratio("sockets", 0.6, 1.02)},
	{original: "legacy-original", scenario: "scale-up", figure: "peak_goroutines", why: v04Connections,
		predict: results.Ratio("goroutines", 0.6, 1.02)},
	{original: "legacy-original", scenario: "scale-up", figure: "time_to_running", why: "the same apiserver and hollow " +
		"nodes bind and start the pods of both managers, which create them all at once; what differs is the client: v0.4's " +
		"keeps two idle connections where ours keeps 1 024 (Ours: at sharedTransport in pkg/client/helper.go), so most of its " +
		"concurrent creates open a connection of their own, and it reads every answer through a YAML parser (Ours: in " +
		"pkg/api/codec.go); on a loaded machine that moves the time by more than the runs' spread, on a quiet one by milliseconds",
		predict: results.Ratio("s", 1, 1.6)},
	{original: "legacy-original", scenario: "scale-up", figure: "apiserver_cpu", why: "the same apiserver serves both " +
		"managers, but v0.4's client opens a connection for most of its concurrent requests, each accepted and read by the " +
		"apiserver (Ours: at sharedTransport in pkg/client/helper.go, where our port keeps 1 024 idle)",
		predict: results.Ratio("CPU s", 1, 1.6)},
	{original: "stack-original", scenario: "scale-up", figure: "time_to_running", why: "v0.4's apiserver decodes every " +
		"object with a YAML parser twice and converts it by reflection, many times our codec's CPU a pod (measured once, not published; Ours: in " +
		"pkg/api/codec.go), reads each created pod back (Ours: in pkg/registry/pod/rest.go), reaches its etcd member, a " +
		"process of its own, over HTTP, and is reached through the meter (a loopback hop more, pkg/lab/stack). It says Running only " +
		"when a pod is read; the benchmark learns it from the pod's kubelet, as that apiserver did, at no cost to it " +
		"(pkg/lab/sampler, pods_read.go)",
		predict: results.Ratio("s", 1.5, 4)},
	{original: "stack-original", scenario: "scale-up", figure: "apiserver_cpu", why: "v0.4's apiserver spends most of its " +
		"CPU decoding: a YAML parse for each object's kind, a second to decode it, a reflective conversion, many times our " +
		"codec's CPU a stored pod (Ours: in pkg/api/codec.go; measured once, with a profile of it idle, and not published); it also reads each " +
		"created pod back (Ours: in pkg/registry/pod/rest.go), and its etcd member counts with it as our embedded one does; " +
		"the benchmark learns which pods run from their kubelets, as it did, and reads it for none. " +
		"The rest of an apiserver's work in a scale-up (HTTP, etcd, the watches) costs the two alike, so the whole is several " +
		"times ours, less than the multiple of decoding alone: " +
		published.Evident("550d3e4", "originals | scale-up N=100: apiserver CPU from the controller's creation (CPU s) | stack-original", "1.19 CPU s") +
		" against " + published.Evident("550d3e4", "originals | scale-up N=100: apiserver CPU from the controller's creation (CPU s) | legacy", "0.21 CPU s") +
		" at N=100",
		predict: results.Ratio("CPU s", 3, 12)},
	{original: "stack-original-parity", scenario: "scale-up", figure: "apiserver_cpu", why: v04AtParity +
		"; the bind's growth takes the multiple past the originals page's, by up to that share's reciprocal (about 2.4 times), and " +
		"a little less at 10 000 pods, where our port's own CPU per pod grows with its lists",
		predict: results.Ratio("CPU s", 5, 16)},
	{original: "stack-original-parity", scenario: "scale-up", figure: "time_to_running", why: v04AtParity +
		"; both runs wait on their apiserver's CPU, v0.4's on two busy cores and ours less so, so the time's multiple follows the " +
		"CPU's, below it",
		predict: results.Ratio("s", 4, 12)},
	{original: "stack-original-parity", scenario: "scale-up", figure: "peak_goroutines", why: v04SlowAnswers,
		predict: results.Ratio("goroutines", 0.6, 2)},
	{original: "stack-original-parity", scenario: "scale-up", figure: "peak_sockets", why: v04SlowAnswers,
		predict: results.Ratio("sockets", 0.6, 2)},
	{original: "stack-original-parity", scenario: "scale-up", figure: "peak_rss", why: v04SlowAnswers +
		"; each open connection holds its buffers, so the manager's memory follows them",
		predict: results.Ratio("MiB", 0.55, 2)},
	{original: "stack-today", scenario: "scale-up", figure: "peak_goroutines", why: kcmWholeProcess,
		predict: results.Ratio("goroutines", 1.5, 6)},
	{original: "stack-today", scenario: "scale-up", figure: "peak_rss", why: kcmWholeProcess,
		predict: results.Ratio("MiB", 1.5, 5)},
	{original: "stack-today", scenario: "idle", figure: "requests_per_min", why: kcmWholeProcess,
		predict: results.Difference("req/min", 0, 10)},
	{original: "stack-today", scenario: "idle", figure: "sync_requests_per_min", why: kcmWholeProcess,
		predict: results.Difference("req/min", 0, 10)},
	{original: "stack-today", scenario: "idle", figure: "election_requests_per_min", why: "both renew their lease every " +
		"2 s, 30 a minute (leader election's retry period, the same default in both); over idle's window one renewal more or " +
		"less falls inside it, 2 a minute at most",
		predict: results.Difference("req/min", -2, 2)},
}

// kcmWholeProcess is why kube-controller-manager's figures on stack-today
// exceed our manager's on modern-today.
const kcmWholeProcess = "on stack-today the manager is kube-controller-manager's whole process: besides the replication " +
	"manager and the endpoints controller it runs the garbage collector (with its graph of every resource it watches) and " +
	"the endpoint-slice, service-account, namespace and node lifecycle controllers, each with its informers, workers and " +
	"requests; on modern-today those run in a kube-controller-manager beside ours, counted apart (pkg/lab/stack/today, " +
	"OtherControllers), and the manager is our process alone"

// v04AtParity is why v0.4's binaries at the fair fight's density cost
// more against our port than on the originals page: the density, and
// the laboratory no longer in front of either.
var v04AtParity = "at parity a node holds 100 pods, where the originals page's hold 10, and a v0.4 bind is a compare-and-swap of " +
	"the host's whole manifest list (assignPod's AtomicUpdate in v0.4's pkg/registry/etcd), each try decoding and encoding " +
	"every manifest already on the host with v0.4's codec, a YAML parse and a reflective conversion (Ours: in pkg/api/codec.go); " +
	"our port binds the same way with a codec many times cheaper. So a v0.4 bind costs more the fuller its host, and " +
	"a profile of v0.4's apiserver in one control run at parity (not published; the page's profiles section has its own) " +
	"put 58 % of its CPU under that AtomicUpdate. Neither side has the meter at parity; v0.4's apiserver reaches " +
	"its etcd member, a process of its own, over loopback HTTP, where our port reaches its embedded one in memory, and reads each created pod back (Ours: in pkg/registry/pod/rest.go). The originals " +
	"page, at 10 pods a node, measured " +
	published.Evident("550d3e4", "originals | scale-up N=100: apiserver CPU from the controller's creation (CPU s) | stack-original", "1.19 CPU s") +
	" against " + published.Evident("550d3e4", "originals | scale-up N=100: apiserver CPU from the controller's creation (CPU s) | legacy", "0.21 CPU s")

// v04SlowAnswers is why the peaks of v0.4's controller-manager at parity
// may pass our port's, where on the originals page they stay under.
const v04SlowAnswers = "the connections open at the peak's sample, two goroutines each: both managers send one create per " +
	"missing pod at once, each on a connection until it is answered, and v0.4's keeps two idle afterwards where ours keeps " +
	"1 024 (Ours: at sharedTransport in pkg/client/helper.go). At parity v0.4's apiserver answers each create several times " +
	"slower than ours (its decoding, its binds on full hosts), so at 10 000 pods more of its manager's creates are open at " +
	"once than of ours; at 1 000 both are answered within a few samples, and its few idle connections can keep it under ours"

// v04ManagerMemory is why the original controller-manager holds less
// memory than our 2014 port; its prediction comes from the run it cites.
var v04ManagerMemory = "the binaries, not the manager: our controller-manager keeps up to 1 024 idle connections where " +
	"v0.4's client kept two (Ours: at sharedTransport in pkg/client/helper.go) and serves Prometheus /metrics from " +
	"client_golang's registry; v0.4's, built by make original, answers /metrics with two figures of the runtime, and " +
	"held about 0.7 times our peak at N=100 (" +
	published.Evident("550d3e4", "originals | scale-up N=100: peak RSS (MiB) | legacy-original", "16.5 MiB") + " against " +
	published.Evident("550d3e4", "originals | scale-up N=100: peak RSS (MiB) | legacy", "23.6 MiB") + ")"

// v04Connections is why a peak of sockets or goroutines of the original
// controller-manager differs from our port's.
const v04Connections = "the connections open at the peak's sample, two goroutines each: both managers send one create " +
	"per missing pod at once, each on a connection of its own; ours keeps up to 1 024 of them idle afterwards, v0.4's " +
	"two (Ours: at sharedTransport in pkg/client/helper.go), so which the sample catches moves with the apiserver's answers"

// statusReplicas is why upstream's manager writes status where our port
// does not.
const statusReplicas = "our apiserver recounts a controller's status.replicas on every read and watch event " +
	"(REST.fillCurrentState in pkg/registry/controller, as v0.4 did): every pod its selector matches. Upstream's " +
	"manager compares that count with its own, the active pods it owns, and writes status when they differ, so " +
	"wherever the two part — pods created but not yet in its cache, creates refused, two controllers selecting the " +
	"same pods — it writes again, and each write wakes it once more. Our port leaves replicas out of that comparison " +
	"for this reason (Ours: at updateReplicationControllerStatus in pkg/controller/replication_status_modern.go; " +
	"the adapter marks it at replicationControllers.UpdateStatus)"

// departureFor returns the reason for a figure of an original, if one is
// known.
func departureFor(original, scenarioName, figure string) (departure, bool) {
	return departureIn(departures, original, scenarioName, figure)
}

// departureIn finds the reason for a figure of an original in a list of
// reasons, or in its departsAs's.
func departureIn(list []departure, original, scenarioName, figure string) (departure, bool) {
	for _, d := range list {
		if d.original == original && d.scenario == scenarioName && d.figure == figure {
			return d, true
		}
	}
	if also, ok := departsAs[original]; ok {
		return departureIn(list, also, scenarioName, figure)
	}
	return departure{}, false
}

// departsAs names, for an original, another whose reasons hold for it too
// where it has none of its own: stack-original runs legacy-original's
// controller-manager, stack-original-parity is stack-original with the
// fair fight's nodes and kubelets (its codec, its read-back, its etcd
// front and the meter go with it), and upstream-unthrottled is
// upstream's binary with the client's rate limit off, as
// modern-unthrottled is modern's.
var departsAs = map[string]string{"stack-original": "legacy-original", "stack-original-parity": "stack-original",
	"upstream-unthrottled": "upstream", "stack-today-unthrottled": "stack-today"}

// originalPairs returns each variant that ran beside the port it checks,
// as [port, original], in the order of scenario.Variants.
func originalPairs(ran []string) [][2]string {
	has := map[string]bool{}
	for _, v := range ran {
		has[v] = true
	}
	var out [][2]string
	for _, v := range scenario.Variants {
		if v.Checks != "" && has[v.Name] && has[v.Checks] {
			out = append(out, [2]string{v.Checks, v.Name})
		}
	}
	return out
}

// originalChecks sets every headline figure of each port beside its
// original, where both measured it.
func originalChecks(sum *results.Summary) []OriginalCheck {
	var out []OriginalCheck
	for _, pair := range originalPairs(sum.Options.Variants) {
		eachHeadline(sum, func(sz *results.SizeSummary, h headlineFigure) {
			ours, ok1 := findings.MedianOf(sz, pair[0], h.figure)
			theirs, ok2 := findings.MedianOf(sz, pair[1], h.figure)
			if !ok1 || !ok2 {
				return
			}
			c := OriginalCheck{Port: pair[0], Original: pair[1], Scenario: h.scenario, Size: sz.Label, Figure: h.figure,
				Label: h.label, Unit: ours.Unit, Process: ours.Process, Ours: ours.Stats, Theirs: theirs.Stats}
			c.Ratio = ratioOf(ours.Median, theirs.Median)
			d, ok := departureFor(pair[1], h.scenario, h.figure)
			var reason *departure
			if ok {
				reason = &d
			}
			c.Verdict, c.Why, c.Judgement = judge(c, reason)
			out = append(out, c)
		})
	}
	return out
}

func ratioOf(ours, theirs float64) *float64 {
	switch {
	case ours == theirs:
		r := 1.0
		return &r
	case ours == 0:
		return nil
	}
	r := theirs / ours
	return &r
}

// judge says whether a figure differs beyond its spread, and holds the
// difference to its reason's prediction, if it has a reason. Counts differ
// when their medians do, as printed, and their ranges do not overlap; a
// time or a resource of a single run each has no spread to judge by, and
// its known reason, if any, is still given and held to its prediction.
func judge(c OriginalCheck, reason *departure) (string, string, *results.Judgement) {
	switch {
	// The same as printed: a rate over a window a few milliseconds longer
	// is not a difference.
	case results.FormatNumber(c.Ours.Median) == results.FormatNumber(c.Theirs.Median):
		return verdictSame, "", nil
	case c.Ours.Min <= c.Theirs.Max && c.Theirs.Min <= c.Ours.Max:
		return verdictWithin, "", nil
	}
	verdict := verdictDiffers
	if !loadFreeUnits[c.Unit] && len(c.Ours.Values) < 2 && len(c.Theirs.Values) < 2 {
		verdict = verdictNotJudged
	}
	if reason == nil {
		return verdict, "", nil
	}
	j := reason.predict.Judge(results.Sides{Theirs: c.Original, Ours: "ours"}, c.Unit, c.Ours.Median, c.Theirs.Median)
	return verdict, reason.why, &j
}

// explained says whether a check needs no reason, or has one whose
// prediction the measured difference bears out.
func explained(c OriginalCheck) bool {
	return c.Verdict != verdictDiffers || (c.Why != "" && c.Judgement != nil && c.Judgement.Holds)
}

// unexplained counts the checks that differ without a reason, or beyond
// what their reason predicts.
func unexplained(checks []OriginalCheck) int {
	n := 0
	for _, c := range checks {
		if !explained(c) {
			n++
		}
	}
	return n
}

// originalsSection writes "Checked against the originals": a table per
// port and original, and what its verdicts mean.
func originalsSection(d *document, sum *results.Summary) {
	checks := originalChecks(sum)
	if len(checks) == 0 {
		return
	}
	d.h(2, "originals", "Checked against the originals")
	d.p("Each of our ports beside the original it follows, run in the same benchmark on identical clusters: today's " +
		"modern manager beside k8s.io/kubernetes's own replication manager (controller-manager-upstream, unmodified, " +
		"through the adapter in cmd/controller-manager-upstream/adapter), and the 2014 manager beside v0.4's where " +
		"those variants ran. For each headline figure: both medians (over the runs, range in brackets), the original's " +
		"over ours, and a verdict: same; within the spread (the runs' ranges overlap); differs, with its reason — a " +
		"place marked Ours: in the code, or the original's binary itself — and the difference that reason predicts, " +
		"its direction and size (a range of the ratio, or of the difference in the figure's unit), beside the one measured; " +
		"a difference with no reason, or outside its reason's prediction, or the other way, is **NOT EXPLAINED**; " +
		"not judged, for a time or a resource measured once each, which a loaded machine moves (-runs=3 gives it a " +
		"spread; a known reason is still given, with its prediction). " +
		"A difference that is a defect of a port gets no reason here: the port is fixed. Two departures hold for every " +
		"figure of upstream's manager and are marked Ours: in adapter.go: its events stop at the adapter, which counts " +
		"them, so its request figures leave out the event writes a v1 apiserver would get; and each adoption or release, " +
		"one PATCH for a v1 apiserver, costs a GET and a PUT here. A third shows most outside the headline: upstream " +
		"compares status.replicas, which our apiserver recounts on every read as v0.4 did, and writes status wherever " +
		"its count and the apiserver's part; with two controllers over the same pods (overlap) that is after every sync, " +
		"at the client's 20 writes a second, where our port, which leaves replicas out of the comparison, writes a few.")
	if n := unexplained(checks); n > 0 {
		d.note(fmt.Sprintf("%d difference(s) beyond the spread have no known reason, or one whose prediction they miss: each is "+
			"marked **NOT EXPLAINED** below, with the prediction and the measurement, and is either a defect of the port to fix, "+
			"a departure to find and mark, or a reason to correct.", n))
	}
	var pair [2]string
	var t table
	flush := func() {
		if len(t.rows) > 0 {
			d.h(3, "originals-"+pair[1], fmt.Sprintf("%s beside %s", pair[0], pair[1]))
			d.table(t)
		}
	}
	for _, c := range checks {
		if [2]string{c.Port, c.Original} != pair {
			flush()
			pair = [2]string{c.Port, c.Original}
			t = table{header: []string{"scenario, size: figure", "process", c.Port + " (ours)", c.Original, c.Original + " ÷ ours", "verdict"},
				numeric: []bool{false, false, true, true, true, false}}
		}
		label := fmt.Sprintf("%s %s: %s", c.Scenario, c.Size, c.Label)
		if c.Unit != "" {
			label += " (" + c.Unit + ")"
		}
		t.rows = append(t.rows, []string{label, processName(c.Process), cellText(c.Ours), cellText(c.Theirs), ratioText(c.Ratio), verdictText(c)})
		if !explained(c) {
			t.rowClass = append(t.rowClass, "no")
		} else {
			t.rowClass = append(t.rowClass, "")
		}
	}
	flush()
}

func ratioText(r *float64) string {
	if r == nil {
		return "–"
	}
	if math.Abs(*r-1) < 0.005 {
		return "1"
	}
	return fmt.Sprintf("%.2f", *r)
}

func verdictText(c OriginalCheck) string {
	switch {
	case c.Verdict == verdictDiffers && c.Why == "":
		return "differs: **NOT EXPLAINED** (no known reason)"
	case c.Verdict == verdictDiffers && !explained(c):
		return "differs: **NOT EXPLAINED**: its reason predicts " + c.Judgement.Predicted + "; measured " + c.Judgement.Measured +
			". The reason given: " + c.Why + findings.ControlText(c.Judgement)
	case c.Verdict == verdictNotJudged && c.Why != "":
		return "not judged (one run each); where it differs: " + c.Why + " — " + predictionText(c.Judgement)
	case c.Verdict == verdictNotJudged:
		return "not judged (one run each)"
	case c.Why != "":
		return c.Verdict + ": " + c.Why + " — " + predictionText(c.Judgement)
	}
	return c.Verdict
}

// predictionText says what a reason predicts and what was measured.
func predictionText(j *results.Judgement) string {
	if j == nil {
		return ""
	}
	s := "predicted: " + j.Predicted + "; measured: " + j.Measured
	if !j.Holds {
		s += " (outside the prediction)"
	}
	return s + "." + findings.ControlText(j)
}

// originalsSummary is the section in one sentence per pair, for the
// results page's run facts.
func originalsSummary(checks []OriginalCheck) []string {
	type tally struct{ same, differs, notJudged, unexplained int }
	counts := map[[2]string]*tally{}
	var order [][2]string
	for _, c := range checks {
		k := [2]string{c.Port, c.Original}
		if counts[k] == nil {
			counts[k] = &tally{}
			order = append(order, k)
		}
		switch c.Verdict {
		case verdictSame, verdictWithin:
			counts[k].same++
		case verdictDiffers:
			counts[k].differs++
			if !explained(c) {
				counts[k].unexplained++
			}
		default:
			counts[k].notJudged++
		}
	}
	var out []string
	for _, k := range order {
		n := counts[k]
		s := fmt.Sprintf("%s beside %s: %d headline figure(s) the same or within the spread, %d differ", k[0], k[1], n.same, n.differs)
		if n.notJudged > 0 {
			s += fmt.Sprintf(", %d not judged (one run each)", n.notJudged)
		}
		if n.unexplained > 0 {
			s += fmt.Sprintf("; %d difference(s) NOT EXPLAINED", n.unexplained)
		} else if n.differs > 0 {
			s += "; every difference has its reason, within what the reason predicts"
		}
		out = append(out, s+".")
	}
	return out
}
