// Package lab is the laboratory around the 2014 control plane: everything
// the project adds to run, measure, show and test the subject, and nothing
// the subject needs. Its sub-packages, in layers, each importing only
// those below it:
//
//	the leaves, which import nothing of the laboratory:
//	chromium    headless Chromium, for talk mode's stills and the tests
//	            that look at pages
//	stats       the one definition of a median and a percentile
//	mdtable     writes the Markdown tables of the laboratory's pages
//	faults      the apiserver's fault switch, a decorator around its storage
//	original    builds the original v0.4 binaries to run beside our ports
//	etcdpods    the pod watches read straight from etcd: the learner, its tail
//	source      reads the Go files, split into docco sections, and cuts
//	            excerpts by declaration: annotate's pages and the deck's
//	            code cards
//	published   the pages published into examples/, their stamps and
//	            what changed since each (the README's lines, make docs)
//
//	above them, each importing only those listed before it:
//	hollownode  the stand-in scheduler and kubelets (cmd/hollow-node)
//	testutil    helpers shared by the tests (locked buffer, /proc, Chromium);
//	            the waiting every test shares is pkg/watch/watchtest's
//	stack       starts and stops whole clusters of processes (stack/today:
//	            today's real control plane, from make today's binaries)
//	sampler     measures a running cluster: requests, pods, processes
//	scenario    the scenarios' framework (Scenario, variants, clusters, Env,
//	            Run); scenario/scripts, above it, defines every scenario
//	            once for bench, demo and e2e and lists them
//
//	the tools, side by side, none importing another:
//	bench       make bench: calibration, repeated runs, findings, report;
//	            its sub-packages hold its layers and the sweep, history
//	            and listcost runs
//	demo        make demo: one scenario on both designs, with a live page;
//	            demo/deck, a talk of recordings
//	annotate    make docs: the annotated source as static HTML; annotate
//	            renders the source, annotate/pages makes the walk,
//	            side-by-side and history pages, annotate/site the site
//
//	above the tools:
//	publish     make publish: every published page at one commit
//	e2e, faulttest, loadtest  tests of whole stacks, under make test
//	testreport  what make test skipped, and make mutate's page
//
// Ours: not part of 2014. The arrows point one way: the laboratory imports
// the 2014 stack (pkg/api, pkg/client, ...) and the modern additions
// (pkg/modern), and neither of them imports the laboratory; inside the
// laboratory every arrow points down these layers. The tests in this
// package check both (labLayers says the layers once).
package lab
