# kube-rewind: the 2014 Kubernetes control loop, runnable.
#
#   make build   all binaries into _output/bin
#   make run     a whole cluster on loopback with the guestbook (DESIGN=modern for today's manager)
#   make test    vet and tests, for both builds
#   make bench   legacy against modern, measured (BENCH_FLAGS=-quick: about 2 minutes)
#   make docs    the annotated source, as static HTML, into _output/docs
#   make demo    talk mode: SCENARIO=<name> on both designs side by side, with a live page
#   make clean   remove _output

GO      ?= go
BIN     := _output/bin
DESIGN  ?= legacy
CMDS    := apiserver controller-manager hollow-node kubecfg local-up rcbench

# Tests find the binaries here instead of building their own.
export KUBE_REWIND_BIN := $(abspath $(BIN))

.PHONY: all build run bench test vet unit race clean docs demo

all: build

build:
	$(GO) build -o $(BIN)/ $(addprefix ./cmd/,$(CMDS))
	$(GO) build -tags modern -o $(BIN)/controller-manager-modern ./cmd/controller-manager

run: build
	$(BIN)/local-up -bin=$(BIN) -design=$(DESIGN)

# The report lands in _output/bench/<time>/, and _output/bench/latest
# points at it. BENCH_FLAGS go to rcbench bench: -quick, -large, -sweep, -runs=N,
# -scenarios=a,b, -variants=a,b, -png (rcbench bench -h lists them all).
BENCH_FLAGS ?=
bench: build
	$(BIN)/rcbench bench -bin=$(BIN) -out=_output/bench $(BENCH_FLAGS)

# Talk mode: make demo SCENARIO=two-managers. Without SCENARIO it lists
# them. DEMO_FLAGS go to rcbench demo: -auto, -size=quick|default|large,
# -port=N (rcbench demo -h lists them all).
SCENARIO   ?=
DEMO_FLAGS ?=
demo: build
	$(BIN)/rcbench demo $(if $(SCENARIO),-scenario=$(SCENARIO),-list) $(DEMO_FLAGS)

vet:
	@test -z "$$(gofmt -l $$(git ls-files '*.go'))" || { echo "gofmt needed:"; gofmt -l $$(git ls-files '*.go'); exit 1; }
	$(GO) vet ./...
	$(GO) vet -tags modern ./...

unit:
	$(GO) test -count=1 ./...
	$(GO) test -count=1 -tags modern ./...

race:
	$(GO) test -count=1 -race ./pkg/controller/... ./pkg/service/...
	$(GO) test -count=1 -race -tags modern ./pkg/controller/... ./pkg/service/...

test: build vet unit race

clean:
	rm -rf _output

# Open _output/docs/index.html in a browser; it works offline, without
# JavaScript.
docs:
	$(GO) run ./cmd/annotate -root . -out _output/docs
