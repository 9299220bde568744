package published

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// The README's "What they showed" holds a sentence per page between
// these markers, which ShowedLines writes from each page's Showed.
const (
	ShowedBegin = "<!-- rcbench publish -readme writes what the pages showed below, from each page's Showed in pkg/lab/published/showed.go, its figures cited: do not edit them by hand -->"
	ShowedEnd   = "<!-- end of what the pages showed -->"
	showedOpens = "<!-- rcbench publish -readme writes what the pages showed below"
)

// cite writes a reference to be filled (see Reference).
func cite(key string) string { return citeOpen + key + " -->?" + citeClose }

// showed is each page's sentence for the README: its headline and
// findings, every figure a reference to the page, so that the sentence
// cannot say other than the page.
var showed = map[string]string{
	"bench": "scaling up 1 000 pods, the 2014 manager peaked at " +
		cite("bench | scale-up N=1000: peak goroutines (goroutines) | legacy") + " and today's, unthrottled, at " +
		cite("bench | scale-up N=1000: peak goroutines (goroutines) | modern-unthrottled") + "; idle, the 2014 manager sent " +
		cite("bench | idle M=10,k=10: requests a minute, every purpose (leader election included) (req/min) | legacy") +
		", all LISTs, and today's " +
		cite("bench | idle M=10,k=10: requests a minute, every purpose (leader election included) (req/min) | modern") +
		", all lease renewals; two 2014 managers made " + cite("bench | two-managers N=20: extra pods (pods) | legacy") +
		" too many, two of today's " + cite("bench | two-managers N=20: extra pods (pods) | modern") +
		". The apiserver creates " + cite("bench | calibrated ceiling | verdict") + " at 64 clients, " +
		cite("bench | calibrated ceiling | verdict | #3") + " of raw etcd, and the laboratory's learner costs it " +
		cite("bench | after The laboratory's learner costs the bare apiserver") + " of them; its reader of the write-ahead log, " +
		"which the runs read through, keeps " + cite("bench | after The laboratory's reader of the write-ahead log keeps") + " of them.",
	"originals": "scaling up 100 pods, our 2014 port took " +
		cite("originals | scale-up N=100: time to all running (s) | legacy") + " and the apiserver " +
		cite("originals | scale-up N=100: apiserver CPU from the controller's creation (CPU s) | legacy") +
		", the original v0.4 binaries " + cite("originals | scale-up N=100: time to all running (s) | stack-original") +
		" and " + cite("originals | scale-up N=100: apiserver CPU from the controller's creation (CPU s) | stack-original") +
		"; upstream's manager peaked at " + cite("originals | scale-up N=100: peak RSS (MiB) | upstream") +
		", ours at " + cite("originals | scale-up N=100: peak RSS (MiB) | modern") + ".",
	"sweep": "on our apiserver, both designs ran 100 000 pods first: the 2014 manager scaled them up in " +
		cite("sweep | scale-up N=100000: time to all running (s) | legacy") + ", with " +
		cite("sweep | scale-up N=100000: peak goroutines (goroutines) | legacy") +
		" at its peak, and today's design broke at " +
		cite("sweep | after modern-unthrottled: breaking point scale-up with | unit=pods") +
		". Scaling up 10 000 pods, our 2014 port took " +
		cite("sweep | scale-up N=10000: time to all running (s) | legacy") + " and v0.4's own binaries, with the fair fight's nodes, " +
		cite("sweep | scale-up N=10000: time to all running (s) | stack-original-parity") +
		", which broke at " + cite("sweep | after stack-original-parity: breaking point scale-up with | unit=pods") +
		"; today's whole control plane, without its client limit, broke at " +
		cite("sweep | after stack-today-unthrottled: breaking point scale-up with | unit=pods") +
		" (the runs the page left out are listed there).",
	"status-writes": "scaling up 10 000 pods on our apiserver, today's design took " +
		cite("status-writes | scale-up N=10000: time to all running (s) | modern-unthrottled") + " with its status writes and " +
		cite("status-writes | scale-up N=10000: time to all running (s) | modern-unthrottled-without-status-writes") +
		" without them, 2014's " + cite("status-writes | scale-up N=10000: time to all running (s) | legacy") + ".",
	"learner": "scaling up 10 000 pods, the 2014 manager's apiserver used " +
		cite("learner | scale-up N=10000: apiserver CPU from the controller's creation (CPU s) | legacy") + " with the laboratory reading the member's log, " +
		cite("learner | scale-up N=10000: apiserver CPU from the controller's creation (CPU s) | legacy-reading-learner") + " reading through its learner and " +
		cite("learner | scale-up N=10000: apiserver CPU from the controller's creation (CPU s) | legacy-reading-members") + " reading the members; " +
		"today's design took " + cite("learner | scale-up N=10000: time to all running (s) | modern-unthrottled") + ", " +
		cite("learner | scale-up N=10000: time to all running (s) | modern-unthrottled-reading-learner") + " and " +
		cite("learner | scale-up N=10000: time to all running (s) | modern-unthrottled-reading-members") + " to all running, read the same three ways.",
	"fairfight": "scaling up 1 000 pods on the same work, the original v0.4 binaries took " +
		cite("fairfight | scale-up N=1000: time to all running (s) | stack-original-parity") + ", our port of them " +
		cite("fairfight | scale-up N=1000: time to all running (s) | legacy-parity") + " and today's whole control plane " +
		cite("fairfight | scale-up N=1000: time to all running (s) | stack-today-parity") + " (" +
		cite("fairfight | scale-up N=1000: time to all running (s) | stack-today-unthrottled") + " as the laboratory ran it before parity); " +
		"at 10 000 pods our port took " + cite("fairfight | scale-up N=10000: time to all running (s) | legacy-parity") +
		" and today's stack " + cite("fairfight | scale-up N=10000: time to all running (s) | stack-today-parity") +
		", and v0.4's binaries " + cite("fairfight | scale-up N=10000: time to all running (s) | stack-original-parity") +
		"; with ten pods a node instead of a hundred, v0.4's binaries took " +
		cite("fairfight > The fair fight: the gap, cause by cause | scale-up N=1000 & ablation=10 pods a node for v0.4, ten times the nodes | with it (s) | unit=s") +
		" at 1 000 pods, since each of their binds rewrites its host's whole manifest list; of today's gap to our port at 1 000 pods, no ablation named " +
		cite("fairfight > scale-up N=1000: from legacy-parity to today's stack | today's control plane itself, named by kube-apiserver's profile | seconds | unit=s") + ".",
	"history": "without `wait-for-caches`, a restarted manager made " + cite("history | 2015-06-23 | without | unit=extra_pods") +
		" in a restart of 100 pods, with it " + cite("history | 2015-06-23 | with | unit=extra_pods") +
		"; without `burst-cap`, a scale-up of 1 000 peaked at " + cite("history | 2015-05-11 | without | unit=goroutines") +
		", with it at " + cite("history | 2015-05-11 | with | unit=goroutines") + "; whether `expectations` showed its effect: " +
		cite("history | 2015-04-29 & change=`expectations` | appeared | words") + ".",
	"listcost": "a LIST of 150 000 pods took the apiserver a median of " + cite("listcost | * & pods=150000 | median") +
		" and " + cite("listcost | * & pods=150000 | CPU / LIST") + " of its CPU.",
	"talk": "scaling up 1 000 pods, 2014's manager peaked at " +
		cite("talk > scale-up | peak goroutines (controller-manager) (goroutines) | 2014") + " and today's at " +
		cite("talk > scale-up | peak goroutines (controller-manager) (goroutines) | today") + "; idle, 2014's sent " +
		cite("talk > idle | lists per min (controller-manager) (req/min) | 2014") + " of LISTs, today's " +
		cite("talk > idle | lists per min (controller-manager) (req/min) | today") + ".",
}

// ShowedLines are the README's sentences, one per page that has one,
// their references not yet filled.
func ShowedLines() string {
	var b strings.Builder
	for _, p := range Pages {
		if s, ok := showed[p.Name]; ok {
			fmt.Fprintf(&b, "- **%s**, [%s](%s): %s\n", p.Title, p.Link, p.Link, s)
		}
	}
	return b.String()
}

// replaceShowed returns readme with ShowedLines between its markers.
func replaceShowed(readme string) (string, error) {
	begin := strings.Index(readme, showedOpens)
	end := strings.Index(readme, ShowedEnd)
	if begin < 0 || end < begin {
		return "", fmt.Errorf("%s has no sentences between %q and %q", ReadmeFile, ShowedBegin, ShowedEnd)
	}
	return readme[:begin] + ShowedBegin + "\n" + ShowedLines() + readme[end:], nil
}

// UpdateShowed rewrites the README's "What they showed" at root, its
// figures filled from the pages, and reports whether it changed; a
// README without its markers is left as it is.
func UpdateShowed(root string) (bool, error) { return updateShowed(root, true) }

// ShowedIsWritten says the README's "What they showed" at root is what
// UpdateShowed would write.
func ShowedIsWritten(root string) (bool, error) {
	changed, err := updateShowed(root, false)
	return !changed, err
}

func updateShowed(root string, write bool) (bool, error) {
	path := filepath.Join(root, ReadmeFile)
	data, err := os.ReadFile(path)
	if err != nil {
		return false, err
	}
	if write && !strings.Contains(string(data), showedOpens) {
		// A README without the sentences (a test's) has none to write.
		return false, nil
	}
	updated, err := replaceShowed(string(data))
	if err != nil {
		return false, err
	}
	c := &sheets{root: root}
	updated, drifts := c.fill(ReadmeFile, updated)
	if len(drifts) > 0 {
		return false, driftError(drifts)
	}
	if updated == string(data) || !write {
		return updated != string(data), nil
	}
	return true, os.WriteFile(path, []byte(updated), 0o644)
}
