package published

import (
	"path/filepath"
	"strings"
)

// Page is one published page: a run of the laboratory whose output is
// committed under examples/.
type Page struct {
	// Name is what make publish PAGES= selects it by.
	Name string
	// Title is how the README's list names it.
	Title string
	// Link is the file the README links, relative to the repository.
	Link string
	// Commands are the rcbench invocations that write the page, run in
	// order from the repository's top, each without its -commit flag,
	// which make publish adds where the command takes one.
	Commands [][]string
	// TakesCommit says the commands take -commit=C.
	TakesCommit bool
	// Needs names the binaries, beside make build's, that the commands
	// need, relative to the repository (make upstream, make original).
	Needs []string
	// Inputs are the paths (folders, files or globs) of the repository
	// whose change would alter the page's figures. Leaves out what is
	// not in the repository: the machine and its load, Go's toolchain,
	// the v0.4 tree that make original builds.
	Inputs []string
}

// theStack is what every run of a cluster of our stack runs: the
// binaries, the packages they are built from, and the laboratory's
// scenarios, hollow nodes, process stacks and sampler.
var theStack = []string{
	"go.mod", "go.sum",
	"cmd/apiserver", "cmd/controller-manager", "cmd/hollow-node",
	"pkg/api", "pkg/apiserver", "pkg/client", "pkg/controller", "pkg/etcd", "pkg/history",
	"pkg/labels", "pkg/master", "pkg/modern", "pkg/registry", "pkg/service", "pkg/tools",
	"pkg/util", "pkg/watch",
	"pkg/lab/hollownode", "pkg/lab/sampler", "pkg/lab/scenario", "pkg/lab/stack",
	"pkg/lab/etcdpods", "pkg/lab/walpods", "pkg/lab/faults", "pkg/lab/stats", "pkg/lab/published/format.go",
}

// theBench is what rcbench bench adds to the stack: its command, plans,
// runner, results, findings, report and charts.
var theBench = []string{
	"cmd/rcbench", "pkg/lab/bench/*.go", "pkg/lab/bench/runner", "pkg/lab/bench/results",
	"pkg/lab/bench/findings", "pkg/lab/bench/report", "pkg/lab/bench/charts", "pkg/lab/mdtable",
}

// theOriginals are the laboratory's variants beside our ports: today's
// upstream manager (make upstream) and the v0.4 binaries' edits
// (make original).
var theOriginals = []string{"cmd/controller-manager-upstream", "pkg/lab/original"}

// talkScenarios are the scenarios examples/talk holds a recording of.
var talkScenarios = []string{"scale-up", "scale-down", "idle", "churn", "api-errors", "watch-drop", "two-managers", "restart", "overlap"}

// originalVariants are the variants of the page beside the originals.
const originalVariants = "legacy,legacy-original,stack-original,modern,upstream,modern-unthrottled,upstream-unthrottled"

// fairFightVariants are the fair fight's rows: v0.4's binaries and our
// port at parity, today's stack as the laboratory ran it and at parity,
// then every ablation (scenario.Ablations) beside its parity variant.
const fairFightVariants = "stack-original-parity,legacy-parity,stack-today-unthrottled,stack-today-parity," +
	"stack-today-parity-with-meter,stack-today-parity-with-kwok-default-writers,stack-today-parity-with-priority-and-fairness," +
	"stack-today-parity-with-lab-watch,stack-today-parity-with-sparse-nodes,stack-today-parity-with-direct-binding," +
	"stack-original-parity-with-meter,stack-original-parity-with-sparse-nodes,stack-original-parity-with-serial-binding"

// Pages are the published pages, in the order make publish runs them:
// the deck last, after the recordings it plays.
var Pages = []Page{
	{
		Name: "bench", Title: "`make bench`", Link: "examples/bench/RESULTS.md",
		Commands:    [][]string{{"bench", "-bin=_output/bin", "-out=_output/bench", "-publish=examples/bench"}},
		TakesCommit: true,
		Inputs:      join(theStack, theBench),
	},
	{
		Name: "originals", Title: "Beside the originals", Link: "examples/bench/originals/RESULTS.md",
		Commands: [][]string{{"bench", "-bin=_output/bin", "-out=_output/bench", "-quick", "-runs=3",
			"-variants=" + originalVariants, "-publish=examples/bench/originals"}},
		TakesCommit: true,
		Needs:       []string{"_output/bin/controller-manager-upstream", "_output/v0.4/controller-manager", "_output/v0.4/apiserver"},
		Inputs:      join(theStack, theBench, theOriginals),
	},
	{
		Name: "sweep", Title: "The sweep", Link: "examples/sweep/RESULTS.md",
		Commands: [][]string{{"bench", "-bin=_output/bin", "-out=_output/bench", "-sweep", "-etcd3", "-profile",
			"-publish=examples/sweep"}},
		TakesCommit: true,
		Inputs:      join(theStack, theBench, []string{"pkg/lab/bench/sweep"}),
	},
	{
		// The control run of the sweep's scale-up gap: today's manager at
		// 10 000 pods with and without its status writes, beside 2014's.
		Name: "status-writes", Title: "The sweep's gap, tested", Link: "examples/bench/status-writes/RESULTS.md",
		Commands: [][]string{{"bench", "-bin=_output/bin", "-out=_output/bench", "-sweep", "-sizes=10000", "-scenarios=scale-up", "-runs=2",
			"-variants=legacy,modern-unthrottled,modern-unthrottled-without-status-writes", "-publish=examples/bench/status-writes"}},
		TakesCommit: true,
		Inputs:      join(theStack, theBench, []string{"pkg/lab/bench/sweep"}),
	},
	{
		// The control runs of the laboratory's readers: each design's
		// scale-up read through the member's write-ahead log (the
		// default), through its etcd learner, and reading the members
		// directly.
		Name: "learner", Title: "The laboratory's readers: the log, the learner and the members", Link: "examples/bench/learner/RESULTS.md",
		Commands: [][]string{{"bench", "-bin=_output/bin", "-out=_output/bench", "-sweep", "-sizes=1000,3000,10000", "-scenarios=scale-up", "-runs=2",
			"-variants=legacy,legacy-reading-learner,legacy-reading-members,modern-unthrottled,modern-unthrottled-reading-learner,modern-unthrottled-reading-members",
			"-publish=examples/bench/learner"}},
		TakesCommit: true,
		Inputs:      join(theStack, theBench, []string{"pkg/lab/bench/sweep"}),
	},
	{
		// The fair fight: both stacks on the same work (scenario's
		// parity), v0.4's own binaries in 2014's corner beside our
		// port, today's stack as the laboratory ran it before parity,
		// and each ablation beside its parity run, at 1 000 pods only.
		Name: "fairfight", Title: "The fair fight: stack against stack on the same work", Link: "examples/fairfight/RESULTS.md",
		Commands: [][]string{{"bench", "-bin=_output/bin", "-out=_output/bench", "-sweep", "-sizes=1000,10000", "-scenarios=scale-up", "-runs=3", "-profile",
			"-variants=" + fairFightVariants, "-publish=examples/fairfight"}},
		TakesCommit: true,
		Needs:       []string{"_output/v0.4/controller-manager", "_output/v0.4/apiserver", "_output/today/kube-apiserver", "_output/today/kwok"},
		Inputs:      join(theStack, theBench, theOriginals, []string{"pkg/lab/bench/sweep"}),
	},
	{
		Name: "history", Title: "`make history`", Link: "examples/history/RESULTS.md",
		Commands:    [][]string{{"history", "-bin=_output/bin", "-out=_output/history", "-publish=examples/history"}},
		TakesCommit: true,
		Needs:       []string{"_output/bin/controller-manager-upstream", "_output/v0.4/controller-manager"},
		Inputs:      join(theStack, theBench, theOriginals, []string{"pkg/lab/bench/history"}),
	},
	{
		Name: "listcost", Title: "`rcbench listcost`", Link: "examples/listcost/RESULTS.md",
		Commands:    [][]string{{"listcost", "-bin=_output/bin", "-out=_output/listcost", "-profile", "-publish=examples/listcost"}},
		TakesCommit: true,
		Inputs: []string{"go.mod", "go.sum", "cmd/apiserver", "cmd/rcbench",
			"pkg/api", "pkg/apiserver", "pkg/etcd", "pkg/master", "pkg/registry", "pkg/tools", "pkg/watch",
			"pkg/lab/stack", "pkg/lab/sampler", "pkg/lab/bench/runner", "pkg/lab/bench/listcost"},
	},
	{
		Name: "talk", Title: "The talk recordings", Link: "examples/talk/README.md",
		Commands:    talkCommands(),
		TakesCommit: true,
		Inputs:      join(theStack, []string{"cmd/rcbench", "pkg/lab/demo"}),
	},
	{
		Name: "deck", Title: "The 20-minute deck", Link: "examples/talk/20-minutes.html",
		Commands: [][]string{{"deck", "-o", "examples/talk/20-minutes.html", "examples/talk/20-minutes.md"}},
		// The deck plays the recordings, which the talk page stamps, and
		// cuts its code cards, with pkg/lab/source, from the packages it
		// names.
		Inputs: []string{"cmd/rcbench", "pkg/lab/demo", "pkg/lab/published/format.go", "pkg/lab/published/prose.go", "pkg/lab/published/figure.go", "pkg/lab/source", "pkg/history", "pkg/controller", "pkg/service",
			"examples/talk/20-minutes.md"},
	},
}

// talkCommands record each of talkScenarios at talk size, its steps run
// by themselves, into examples/talk.
func talkCommands() [][]string {
	var cmds [][]string
	for _, sc := range talkScenarios {
		cmds = append(cmds, []string{"demo", "-scenario=" + sc, "-auto", "-hold=1s",
			"-record=" + filepath.ToSlash(filepath.Join("examples/talk", sc+".html"))})
	}
	return cmds
}

func join(lists ...[]string) []string {
	var out []string
	for _, l := range lists {
		out = append(out, l...)
	}
	return out
}

// Get returns the page called name, or nil.
func Get(name string) *Page {
	for i := range Pages {
		if Pages[i].Name == name {
			return &Pages[i]
		}
	}
	return nil
}

// Names lists the pages' names, in order.
func Names() []string {
	var out []string
	for _, p := range Pages {
		out = append(out, p.Name)
	}
	return out
}

// Outputs are the paths a page's commands write, relative to the
// repository: make publish allows changes there when it resumes.
func (p *Page) Outputs() []string {
	var out []string
	for _, cmd := range p.Commands {
		for i, a := range cmd {
			switch {
			case strings.HasPrefix(a, "-publish="):
				out = append(out, strings.TrimPrefix(a, "-publish="))
			case strings.HasPrefix(a, "-record="):
				out = append(out, strings.TrimPrefix(a, "-record="))
			case a == "-o" && i+1 < len(cmd):
				out = append(out, cmd[i+1])
			}
		}
	}
	return out
}
