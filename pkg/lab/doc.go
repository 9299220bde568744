// Package lab is the laboratory around the 2014 control plane: everything
// the project adds to run, measure, show and test the subject, and nothing
// the subject needs. Its sub-packages:
//
//	hollownode  the stand-in scheduler and kubelets (cmd/hollow-node)
//	etcdpods    the pod watches read straight from etcd: the learner, its tail
//	stack       starts and stops whole clusters of processes (stack/today:
//	            today's real control plane, from make today's binaries)
//	scenario    the scenarios' framework (Scenario, variants, clusters, Env,
//	            Run); scenario/scripts, above it, defines every scenario
//	            once for bench, demo and e2e and lists them
//	sampler     measures a running cluster: requests, pods, processes
//	bench       make bench: calibration, repeated runs, findings, report;
//	            its sub-packages hold its layers and the sweep, history
//	            and listcost runs
//	demo        make demo: one scenario on both designs, with a live page
//	annotate    make docs: the annotated source as static HTML; annotate
//	            reads and renders the source, annotate/pages makes the
//	            walk, side-by-side and history pages, annotate/site the site
//	faults      the apiserver's fault switch, a decorator around its storage
//	original    builds the original v0.4 binaries to run beside our ports
//	testutil    helpers shared by the tests (locked buffer, /proc, Chromium);
//	            the waiting every test shares is pkg/watch/watchtest's
//	e2e, faulttest, loadtest  tests of whole stacks, under make test
//
// Ours: not part of 2014. The arrows point one way: the laboratory imports
// the 2014 stack (pkg/api, pkg/client, ...) and the modern additions
// (pkg/modern), and neither of them imports the laboratory; a test in this
// package checks it.
package lab
