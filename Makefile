# kube-rewind: the 2014 Kubernetes control loop, runnable.
#
#   make build   all binaries into _output/bin
#   make run     a whole cluster on loopback with the guestbook (DESIGN=modern for today's manager,
#                RUN_FLAGS='-port=8081' for local-up's flags; STACK=today for today's whole control plane)
#   make test    vet and tests of both builds side by side (once where the tag changes nothing),
#                then the ten slowest tests of each
#   make bench   legacy against modern, measured (BENCH_FLAGS=-quick: one run of each;
#                PUBLISH=examples/bench copies its RESULTS.md into the tree)
#   make upstream  today's upstream replication manager, as the variant upstream
#   make today   today's whole control plane, upstream binaries unmodified, into _output/today
#   make history what each change from 2014 to today bought, one at a time (BENCH_FLAGS=-quick)
#   make docs    the annotated source, as static HTML, into _output/docs
#   make demo    talk mode: SCENARIO=<name> on both designs side by side, with a live page
#   make original V04_SRC=<Kubernetes git repository>  the original v0.4 binaries into _output/v0.4
#   make publish every published page at one commit into examples/, and the README's lines about them
#                (hours; PAGES=sweep,history for some; PUBLISH_FLAGS=-plan prints the plan and runs nothing)
#   make mutate  the mutation score of the subject packages, into examples/mutation (hours; MUTATE=pkg/controller for one)
#   make clean   remove _output

SHELL   := bash
GO      ?= go
BIN     := _output/bin
DESIGN  ?= legacy
CMDS    := apiserver controller-manager etcd hollow-node kubecfg local-up local-up-today rcbench
TODAY   := _output/today

# Tests find the binaries here instead of building their own, and today's
# there (make today builds them; without them their tests skip).
export KUBE_REWIND_BIN := $(abspath $(BIN))
export KUBE_REWIND_TODAY := $(abspath $(TODAY))

.PHONY: all build run bench history test test-run test-vet vet unit unit-2014 unit-modern race link-2014 link-modern testrunner clean docs demo upstream vet-upstream test-upstream original mutate today publish

all: build

build:
	$(GO) build -o $(BIN)/ $(addprefix ./cmd/,$(CMDS))
	$(GO) build -tags modern -o $(BIN)/controller-manager-modern ./cmd/controller-manager

# make run builds only what it runs: the 2014 controller-manager, or with
# DESIGN=modern controller-manager-modern, which links client-go and takes
# minutes to build the first time. RUN_FLAGS go to local-up: -port=N moves
# the apiserver off 8080, -manager_port=N the controller-manager off 10252,
# -example='' starts empty (local-up -h lists them all).
RUN_FLAGS ?=
RUN_CMDS  := apiserver hollow-node kubecfg local-up $(if $(filter modern,$(DESIGN)),,controller-manager)
RUN_BINS  := $(addprefix $(BIN)/,$(RUN_CMDS) $(if $(filter modern,$(DESIGN)),controller-manager-modern))
COMMA     := ,
RUN_SLOW  := $(if $(filter modern,$(DESIGN)),$(COMMA) and several more for controller-manager-modern$(COMMA) which links client-go)
ifeq ($(STACK),today)
# make run STACK=today: today's whole control plane (make today, below) on
# loopback, started by local-up-today, which links client-go and so is
# not local-up; RUN_FLAGS go to it (-nodes=N, -managers=2, -example=).
run: today
	$(GO) build -o $(BIN)/ ./cmd/local-up-today
	$(BIN)/local-up-today -bin=$(TODAY) $(RUN_FLAGS)
else
run:
	@for b in $(RUN_BINS); do test -x $$b || { \
	  echo "make run, first run: building $(notdir $(RUN_BINS)) into $(BIN): a minute or two on a busy machine$(RUN_SLOW); later runs rebuild only what changed"; \
	  break; }; done
	$(GO) build -o $(BIN)/ $(addprefix ./cmd/,$(RUN_CMDS))
ifeq ($(DESIGN),modern)
	$(GO) build -tags modern -o $(BIN)/controller-manager-modern ./cmd/controller-manager
endif
	$(BIN)/local-up -bin=$(BIN) -design=$(DESIGN) $(RUN_FLAGS)
endif

# The report lands in _output/bench/<time>/, and _output/bench/latest
# points at it. BENCH_FLAGS go to rcbench bench: -quick, -large, -sweep, -runs=N,
# -scenarios=a,b, -variants=a,b, -png (rcbench bench -h lists them all).
# PUBLISH=examples/bench also copies the run's RESULTS.md and its chart
# there; without it make bench leaves the tree as it was.
BENCH_FLAGS ?=
PUBLISH     ?=
BENCH_COMMIT ?= $(shell git describe --always --dirty 2>/dev/null)
bench: build $(if $(findstring upstream,$(BENCH_FLAGS)),upstream)
	$(BIN)/rcbench bench -bin=$(BIN) -out=_output/bench -commit='$(BENCH_COMMIT)' $(if $(PUBLISH),-publish=$(PUBLISH)) $(BENCH_FLAGS)

# Every change of pkg/history measured with and without it, and a
# timeline removing them newest first; the report lands in
# _output/history/<time>/. BENCH_FLAGS go to rcbench history: -quick,
# -runs=N, -png.
history: build
	$(BIN)/rcbench history -bin=$(BIN) -out=_output/history -commit='$(BENCH_COMMIT)' $(if $(PUBLISH),-publish=$(PUBLISH)) $(BENCH_FLAGS)

# Every published page at one commit (rcbench publish, pkg/lab/publish):
# bench, originals, sweep, history, listcost, the talk's recordings and the
# deck, into examples/, each stamped in examples/published.json, and the
# README's lines about them rewritten. It refuses a tree with changes
# outside the pages, prints its plan and how long it should take, and
# skips a page already published at this commit, so that running it again
# resumes. PAGES=sweep,history runs only those; PUBLISH_FLAGS=-plan prints
# the plan and runs nothing, -redo runs published pages again. originals
# and history need make upstream's and make original's binaries.
PAGES         ?=
PUBLISH_FLAGS ?=
publish: build $(if $(findstring -plan,$(PUBLISH_FLAGS)),,upstream)
	$(BIN)/rcbench publish -bin=$(BIN) $(if $(PAGES),-pages=$(PAGES)) $(PUBLISH_FLAGS)

# Talk mode: make demo SCENARIO=two-managers. Without SCENARIO it lists
# them, building nothing but rcbench. DEMO_FLAGS go to rcbench demo:
# -auto, -hold=30s, -size=quick|default|large, -port=N, -record=FILE
# (rcbench demo -h lists them all); rcbench replay FILE plays a recording
# and rcbench deck makes a talk of several. Like make run, it builds only
# what it runs: both controller-managers, controller-manager-modern
# linking client-go, and controller-manager-upstream when DEMO_FLAGS name
# upstream.
SCENARIO   ?=
DEMO_FLAGS ?=
DEMO_CMDS  := apiserver controller-manager hollow-node rcbench
DEMO_BINS  := $(addprefix $(BIN)/,$(DEMO_CMDS) controller-manager-modern)
demo: $(if $(and $(SCENARIO),$(findstring upstream,$(DEMO_FLAGS))),upstream)
ifeq ($(SCENARIO),)
	@$(GO) build -o $(BIN)/ ./cmd/rcbench
	@$(BIN)/rcbench demo -list
	@echo; echo "make demo SCENARIO=<name> plays one (DEMO_FLAGS=-auto runs every step by itself)."
else
	@for b in $(DEMO_BINS); do test -x $$b || { \
	  echo "make demo, first run: building $(notdir $(DEMO_BINS)) into $(BIN): a minute or two on a busy machine, and several more for controller-manager-modern, which links client-go; later runs rebuild only what changed"; \
	  break; }; done
	$(GO) build -o $(BIN)/ $(addprefix ./cmd/,$(DEMO_CMDS))
	$(GO) build -tags modern -o $(BIN)/controller-manager-modern ./cmd/controller-manager
	$(BIN)/rcbench demo -scenario=$(SCENARIO) $(DEMO_FLAGS)
endif

# controller-manager-upstream runs k8s.io/kubernetes's own replication
# manager against our apiserver (-variants=upstream, -left=upstream). It is a
# module of its own, so that k8s.io/kubernetes stays out of go.mod and of
# make build, run and test's ./...: its first build fetches and compiles
# it, several minutes; make bench and make demo build it when their flags
# name upstream. vet-upstream and test-upstream vet it and run its tests.
UPSTREAM := cmd/controller-manager-upstream
# The end-to-end tests that run controller-manager-upstream: test-upstream
# runs them once it is built, and the modern build's run skips them.
UPSTREAM_TESTS := ^TestUpstream
upstream:
	cd $(UPSTREAM) && $(GO) build -tags modern -o $(abspath $(BIN))/controller-manager-upstream .

vet-upstream:
	cd $(UPSTREAM) && $(GO) vet -tags modern ./...

# test-upstream builds controller-manager-upstream, vets it, runs its
# adapter's tests and the end-to-end tests that run it (make test runs it
# beside the others).
test-upstream: upstream vet-upstream testrunner
	@mkdir -p $(TEST_OUT)
	@cd $(UPSTREAM) && $(call gotestsum,[upstr] ,$(abspath $(TEST_OUT))/upstream-adapter.json,-count=1 -timeout=$(TEST_TIMEOUT) -tags=modern ./...)
	@export KUBE_REWIND_REQUIRE_UPSTREAM=1 && $(call gotestsum,[upstr] ,$(abspath $(TEST_OUT))/upstream.json,$(TESTS) -tags=modern -run=$(UPSTREAM_TESTS) ./pkg/lab/e2e)

# make today: today's whole control plane, the real upstream binaries
# unmodified, into _output/today, where pkg/lab/stack/today (make run
# STACK=today, the tests, the benchmark's today-side variants) runs them:
#  - kube-apiserver, kube-controller-manager, kube-scheduler and kubectl
#    of k8s.io/kubernetes v1.37.2, the release of our client-go. They are
#    tool directives of cmd/controller-manager-upstream's go.mod, the
#    module that already requires k8s.io/kubernetes v1.37.2 with the 33
#    replaces its staging modules need: one pin of the release and one copy
#    of the replaces, where a module of their own would need a second
#    copy kept in step. go build -o builds them from it;
#  - kwok, at KWOK_VERSION, by go install into _output/today, and its
#    stage configs (nodes Ready and leased, pods Running and deleted),
#    read from its module in Go's module cache into kwok-stages.yaml;
#  - etcd: cmd/etcd, the member our apiserver embeds (pkg/etcd, etcd
#    v3.5.35) in a process of its own; Debian's etcd 3.4 is too old for
#    kube-apiserver 1.37 (cmd/README.md says why).
# Go's build cache makes a second run quick and rebuilds nothing that is
# up to date; the first, cold, takes tens of CPU-minutes (kube-apiserver
# alone took 11.5 on a 2-core machine).
KWOK_VERSION := v0.8.0
TODAY_CMDS   := kube-apiserver kube-controller-manager kube-scheduler kubectl
KWOK_STAGES  := node/fast/node-initialize.yaml node/heartbeat-with-lease/node-heartbeat-with-lease.yaml \
                pod/fast/pod-ready.yaml pod/fast/pod-complete.yaml pod/fast/pod-delete.yaml
today:
	@mkdir -p $(TODAY)
	@for b in $(TODAY_CMDS) kwok etcd; do test -x $(TODAY)/$$b || { \
	  echo "make today, first run: building $(TODAY_CMDS) (k8s.io/kubernetes v1.37.2), kwok $(KWOK_VERSION) and etcd into $(TODAY): tens of CPU-minutes cold; later runs rebuild only what changed"; \
	  break; }; done
	cd $(UPSTREAM) && $(GO) build -o $(abspath $(TODAY))/ $(addprefix k8s.io/kubernetes/cmd/,$(TODAY_CMDS))
	GOBIN=$(abspath $(TODAY)) $(GO) install sigs.k8s.io/kwok/cmd/kwok@$(KWOK_VERSION)
	$(GO) build -o $(TODAY)/etcd ./cmd/etcd
	@dir=$$($(GO) mod download -json sigs.k8s.io/kwok@$(KWOK_VERSION) | sed -n 's/^[[:space:]]*"Dir": "\(.*\)",$$/\1/p'); \
	  test -d "$$dir" || { echo "make today: sigs.k8s.io/kwok@$(KWOK_VERSION) is not in Go's module cache"; exit 1; }; \
	  for f in $(KWOK_STAGES); do echo "---"; cat "$$dir/kustomize/stage/$$f"; done > $(TODAY)/kwok-stages.yaml.new && \
	  mv $(TODAY)/kwok-stages.yaml.new $(TODAY)/kwok-stages.yaml

# The original v0.4 apiserver, controller-manager and kubecfg, which bench,
# history and talk mode run beside our ports as the variants
# legacy-original and stack-original. V04_SRC is a Kubernetes git
# repository holding commit 4452163 (v0.4), a checkout or a bare git
# directory: git clone https://github.com/kubernetes/kubernetes. The tree is
# exported into _output/v0.4-src and edited there for today's Go; nothing
# of it enters this repository (pkg/lab/original says what is edited).
V04_SRC ?=
original:
	@test -n "$(V04_SRC)" || { echo "make original needs V04_SRC=<a Kubernetes git repository holding commit 4452163, v0.4>: git clone https://github.com/kubernetes/kubernetes"; exit 2; }
	$(GO) build -o $(BIN)/ ./cmd/rcbench
	$(BIN)/rcbench original -src='$(V04_SRC)' -out=_output/v0.4 -scratch=_output/v0.4-src

# The mutation score of the subject packages (pkg/controller, pkg/service,
# pkg/apiserver, pkg/registry, pkg/tools) and of the crash checker
# (pkg/lab/scenario/acked): gremlins changes one operator at a time
# and runs the package's tests against each change, in both builds where
# the tag changes the package's files, one package after another with one
# worker, in a copy of the tracked files under _output/mutate. Hours on
# a busy machine, and not part of make test. It writes
# examples/mutation/RESULTS.md and results.json; MUTATE=pkg/controller
# reruns one package (comma-separated for more) and keeps the others'
# published rows, each with its commit; MUTATE_FLAGS go to testreport
# mutate (-timeout_coefficient=N, -page to rewrite the page alone).
MUTATE       ?=
MUTATE_FLAGS ?=
GREMLINS     := $(GO) run github.com/go-gremlins/gremlins/cmd/gremlins@v0.6.0
mutate:
	$(GO) run ./cmd/testreport mutate -out=examples/mutation -work=_output/mutate -commit='$(BENCH_COMMIT)' -gremlins='$(GREMLINS)' $(if $(MUTATE),-packages=$(MUTATE)) $(MUTATE_FLAGS)

vet:
	@test -z "$$(gofmt -l $$(git ls-files '*.go'))" || { echo "gofmt needed:"; gofmt -l $$(git ls-files '*.go'); exit 1; }
	$(GO) vet ./...
	$(GO) vet -tags modern ./...

# make test runs vet, the tests of the 2014 build, those of the modern
# build, the race detector's and test-upstream side by side: most of the tests' time is
# end-to-end tests waiting for clusters of real processes to converge, not
# work, so each run also takes TEST_P packages and TEST_PARALLEL tests of a
# package at once. TEST_P is 3, not more: both builds' runs share the
# two cores, the packages that take longest start clusters of real
# processes that want them, and from a fresh clone six at once made make
# test far longer than four; three and four differed by less than one
# run's noise, and three loads the machine less. Each run's lines start with its name; its go test -json
# lands in _output/test/, and the ten slowest tests of each build are
# printed at the end (and of the tests that run upstream's manager), so
# that the next slowdown shows. A run that fails ends on one line naming
# every test that failed (test-run writes them to _output/test/FAILED, and
# test raises them as make's own last word); the previous run's JSON is kept in
# _output/test/previous/, so that a failure's cause survives the next run.
# Before that it lists every test that skipped and why (.ci/run fails on
# one its allow-list does not name). A test binary may run for TEST_TIMEOUT: a deadline for a hang, far
# beyond what a loaded machine needs. TEST_FLAGS go to
# every go test (e.g. TEST_FLAGS='-run=Idle').
TEST_OUT      := _output/test
TEST_P        ?= 3
TEST_PARALLEL ?= 8
TEST_FLAGS    ?=
TEST_TIMEOUT  ?= 45m
GOTESTSUM     := $(GO) run gotest.tools/gotestsum@v1.13.0
TESTS         := -count=1 -timeout=$(TEST_TIMEOUT) -p=$(TEST_P) -parallel=$(TEST_PARALLEL) $(TEST_FLAGS)
# gotestsum LABEL JSONFILE GO-TEST-ARGS: one line a package, prefixed.
# The tests run as go test -json runs them, through testreport run, which
# keeps each package's test binary in $(TEST_OUT)/bin/<the JSON file's
# name> from one make test to the next: go test links every test binary
# again each time, and on two cores that was about a third of make test
# (cmd/testreport says how). A binary whose code and flags did not change
# is not linked again, and each is linked without DWARF, which nothing
# here reads and which took a quarter of a link's CPU.
TESTRUN       := $(abspath $(BIN))/testreport run
gotestsum = set -o pipefail; $(GOTESTSUM) --format=pkgname --format-hide-empty-pkg --jsonfile=$(2) --raw-command -- \
  $(TESTRUN) -bin=$(abspath $(TEST_OUT))/bin/$(basename $(notdir $(2))) $(3) 2>&1 | sed -u 's/^/$(1) /'

# testrunner builds the command the test runs go through (gotestsum above).
testrunner:
	@$(GO) build -o $(BIN)/testreport ./cmd/testreport

# test ends on the one line that names what failed: make's own last word,
# an error raised from test-run's verdict.
test: test-run
	@$(if $(wildcard $(TEST_OUT)/FAILED),$(error make test FAILED (go test -json in $(TEST_OUT)): $(shell cat $(TEST_OUT)/FAILED)))
	@echo "make test: every run passed (go test -json in $(TEST_OUT))"

# test-run links both builds' test binaries first, then runs the tests:
# run side by side from the start, the modern build's tests took the two
# cores from the 2014 build's links, and the 2014 build's tests, the
# longest, began only once its last link ended. A link that fails is left
# to the run after it, which reports the package's build failure as go
# test does.
test-run: build
	@mkdir -p $(TEST_OUT) && rm -rf $(TEST_OUT)/previous && mkdir $(TEST_OUT)/previous && \
	  find $(TEST_OUT) -maxdepth 1 -type f -exec mv {} $(TEST_OUT)/previous/ \;
	-@$(MAKE) --no-print-directory -j2 -k link-2014 link-modern
	@$(MAKE) --no-print-directory -j5 -k test-vet unit-2014 unit-modern race test-upstream; status=$$?; \
	  for run in 2014 modern upstream; do \
	    echo "== the ten slowest tests of the $$run build"; \
	    $(GOTESTSUM) tool slowest --jsonfile=$(TEST_OUT)/$$run.json --threshold=0s --num=10; \
	  done; \
	  $(GO) run ./cmd/testreport skips $(TEST_OUT)/*.json || status=1; \
	  if [ $$status -ne 0 ]; then \
	    $(GO) run ./cmd/testreport failures $(TEST_OUT)/*.json; \
	    failed=$$(.ci/failed-tests $(TEST_OUT)/*.json); \
	    test ! -e $(TEST_OUT)/vet.failed || failed="vet$${failed:+; }$$failed"; \
	    echo "$${failed:-see the output above}" > $(TEST_OUT)/FAILED; \
	  fi

# test-vet is vet for make test, which names it on its last line when it fails.
test-vet:
	@$(MAKE) --no-print-directory vet || { touch $(TEST_OUT)/vet.failed; exit 1; }

# unit: the tests of both builds, side by side. A package compiles to the
# same test binary in both builds unless the tag changes its files, its
# tests' or those of something it imports; only the packages it changes
# run a second time, with the tag. .ci/modern-packages names them, from go
# list.
unit:
	@mkdir -p $(TEST_OUT)
	@$(MAKE) --no-print-directory -j2 unit-2014 unit-modern

# TEST_FIRST_2014 start first in the untagged build: go test starts the
# packages it is given in that order (./... after them adds only the
# rest), TEST_P at a time, and in the alphabet's order these two, among
# the longest, started last and ran on after everything else had
# finished. Only two: the longest packages of both builds started first
# all at once put the load at 120 and made make test longer.
TEST_FIRST_2014 := ./pkg/lab/stack/today ./pkg/lab/original

# Each build's go test arguments, for its run and its links alike; the
# modern build's packages follow them from .ci/modern-packages.
ARGS_2014   := $(TESTS) $(TEST_FIRST_2014) ./...
ARGS_MODERN := $(TESTS) -tags=modern -skip=$(UPSTREAM_TESTS)

unit-2014: testrunner
	@$(call gotestsum,[2014]  ,$(TEST_OUT)/2014.json,$(ARGS_2014))

unit-modern: testrunner
	@pkgs=$$(GO=$(GO) .ci/modern-packages) && $(call gotestsum,[modern],$(TEST_OUT)/modern.json,$(ARGS_MODERN) $$pkgs)

# link-2014 and link-modern link the test binaries unit-2014 and
# unit-modern run, into the folders gotestsum names for them, and run none
# (testreport build).
TESTLINK := $(abspath $(BIN))/testreport build -bin=$(abspath $(TEST_OUT))/bin

link-2014: testrunner
	@$(TESTLINK)/2014 $(ARGS_2014)

link-modern: testrunner
	@pkgs=$$(GO=$(GO) .ci/modern-packages) && $(TESTLINK)/modern $(ARGS_MODERN) $$pkgs

race: testrunner
	@$(call gotestsum,[race]  ,$(TEST_OUT)/race.json,-count=1 -timeout=$(TEST_TIMEOUT) -race ./pkg/controller/... ./pkg/service/...)
	@$(call gotestsum,[race]  ,$(TEST_OUT)/race-modern.json,-count=1 -timeout=$(TEST_TIMEOUT) -race -tags=modern ./pkg/controller/... ./pkg/service/...)

clean:
	rm -rf _output

# Open _output/docs/index.html in a browser; it works offline, without
# JavaScript.
docs:
	$(GO) run ./cmd/annotate -root . -out _output/docs
