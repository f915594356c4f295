# Thin wrapper over the go tool; CI (.ci/run) runs `make test` and
# `make check`.
GO          ?= go
VERSION     ?= $(shell git describe --always --dirty 2>/dev/null || echo dev)
LDFLAGS     := -s -w -X github.com/muthur/context-budget/internal/cli.version=$(VERSION) -X github.com/muthur/context-budget/internal/telemetry/export.version=$(VERSION)
STATICCHECK := honnef.co/go/tools/cmd/staticcheck@v0.8.2
# Where `make install` puts the binaries: /usr/local/bin when writable,
# else ~/.local/bin. Override with `make install BINDIR=…`.
BINDIR      ?= $(shell if [ -w /usr/local/bin ]; then echo /usr/local/bin; else echo $$HOME/.local/bin; fi)
# The Claude Code release the end-to-end suite runs (e2e/doc.go pins the
# same one) and the folder it is installed into, once: the user's cache
# folder (os.UserCacheDir), never the working tree, so that a plugin
# installed from a clone copies only the repository.
CLAUDE_CODE_VERSION := 2.1.332
USER_CACHE          ?= $(shell if [ "$$(uname)" = Darwin ]; then echo $$HOME/Library/Caches; else echo $${XDG_CACHE_HOME:-$$HOME/.cache}; fi)
CLAUDE_CACHE        := $(USER_CACHE)/context-budget/claude-code

# The programs `make build` makes and `make install` installs.
PROGRAMS    := context-budget context-budget-cli context-budget-operator context-budget-report context-budget-telemetry

.PHONY: build install uninstall test test-unit test-e2e check bench bench-ledger bench-replay e2e claude-cli fuzz clean

build:
	$(GO) build -trimpath -ldflags '$(LDFLAGS)' -o bin/ ./cmd/...

# install puts the binaries on PATH and registers the hooks and skills in
# the user's Claude Code settings (~/.claude/settings.json) by the installed
# path; `context-budget uninstall` undoes the registration.
install: build
	mkdir -p $(BINDIR)
	install -m 0755 $(addprefix bin/,$(PROGRAMS)) $(BINDIR)/
	$(BINDIR)/context-budget install --scope user

# uninstall undoes install: the registration and skills in the user's
# settings first (by the installed program, which knows its own), then the
# binaries.
uninstall:
	if [ -x $(BINDIR)/context-budget ]; then $(BINDIR)/context-budget uninstall --scope user; fi
	rm -f $(addprefix $(BINDIR)/,$(PROGRAMS))

# test runs every test in two suites, each printing how long it took:
# the packages' own tests, then the end-to-end suite with the real Claude
# Code CLI (installed first, once, into the user's cache folder). Each
# suite's timeout (a package's, for go test) is there to end a hang, set
# well above what the slowest package takes on two cores beside a CPU
# hog; the printed times are the ones held to the budget. It installs
# nothing on the system: the report's browser test runs when a Chromium is
# on PATH, and says how to get one when not (CI, CI=true, installs one in
# .ci/run).
UNIT_TIMEOUT ?= 20m
E2E_TIMEOUT  ?= 20m

test: test-unit test-e2e

test-unit:
	@if ! command -v chromium >/dev/null 2>&1 && ! command -v chromium-browser >/dev/null 2>&1 && ! command -v google-chrome >/dev/null 2>&1; then \
		echo "make test: no Chromium on PATH, so the report's browser test skips; install one (Debian and Ubuntu: apt-get install chromium) to run it"; \
	fi
	@$(call suite,unit,$(UNIT_TIMEOUT),$$($(GO) list ./... | grep -v '/e2e$$'))

test-e2e: claude-cli
	@$(call suite,e2e,$(E2E_TIMEOUT),./e2e)

# suite runs go test on packages ($3) under a timeout ($2), every test
# run afresh (no cached results), and prints the suite's ($1) elapsed
# time, pass or fail.
define suite
start=$$(date +%s); CONTEXT_BUDGET_E2E=1 $(GO) test -count=1 -timeout $(2) $(3); status=$$?; \
	echo "make test: the $(1) suite took $$(( $$(date +%s) - start )) s (budget $(2) a package)"; exit $$status
endef

check:
	$(GO) vet ./...
	@out=$$(gofmt -l .); if [ -n "$$out" ]; then echo "gofmt needed:"; echo "$$out"; exit 1; fi
	$(GO) mod tidy -diff
	$(GO) run $(STATICCHECK) ./...

# bench: the hook against the floor as whole processes, three repetitions
# (tools/bench: writes tools/bench/results.json and the README beside it;
# transcripts cached in the user's cache folder, context-budget/bench), the in-process benchmarks of the
# reading, then the priced recompute on a 100 MB transcript
# (BenchmarkRecompute, budget ≤ 20 ms), the cold pass and a line-cache hit
# in process (BenchmarkHit), the Stop hook with the team's telemetry off,
# on, and towards a collector down or hanging (BenchmarkStopHookTelemetry,
# budget: at most 2 s over off); first the ledger's (bench-ledger), last
# replay's (bench-replay).
bench: bench-ledger
	GO=$(GO) $(GO) run ./tools/bench -repeat 3
	$(GO) test -run '^$$' -bench . -benchmem ./internal/reading/
	$(GO) test -run '^$$' -bench 'Recompute|ColdPass|Hit' -benchtime 20x ./internal/lines/
	$(GO) test -run '^$$' -bench 'StopHookTelemetry' -benchtime 10x ./internal/telemetry/export/
	$(MAKE) bench-replay

# Every fuzz target of the module (found by go test -list), each for
# FUZZTIME; findings land in testdata/fuzz as seeds.
FUZZTIME ?= 3m
fuzz:
	@set -e; for pkg in $$($(GO) list ./...); do \
		for f in $$($(GO) test -list '^Fuzz' $$pkg | grep '^Fuzz' || true); do \
			echo "fuzz: $$pkg $$f"; \
			$(GO) test $$pkg -run '^$$' -fuzz "^$$f\$$" -fuzztime $(FUZZTIME); \
		done; \
	done

# `ledger record` (the Stop hook) on a synthetic 100 MB transcript with
# subagents: wall time, CPU and peak memory of the process; then the
# in-process benchmarks of the row and of the priced recompute's share
# with 1,000 ledger rows (cpu-ms/op is the figure on a loaded machine).
bench-ledger: build
	mkdir -p tmp/bench
	CB_BIG_DIR=$(CURDIR)/tmp/bench $(GO) test ./internal/orientation -run '^TestWriteBig$$' -count=1 >/dev/null
	rm -rf tmp/bench/proj
	for i in 1 2 3; do /usr/bin/time -f "ledger record, 100 MB: %e s wall, %U s user, %S s sys, %M KB max RSS" \
		bin/context-budget ledger record --transcript tmp/bench/big.jsonl --project tmp/bench/proj >/dev/null; done
	$(GO) test ./internal/orientation -run '^$$' -bench 'Record100MB|Orientation100MB|Search100MB|Successor1000' -benchmem -benchtime 3x

# Replay throughput over ≥ 1 GB of generated transcripts (budget: ≥ 100 MB/s
# on two cores, bounded memory); then `replay` itself over generated
# homes of 100 MB and 1 GB, with the priced policy and the history of the
# other sessions' compactions (budgets: ≥ 300 MB/s on two cores, and
# 1 GB in ≤ 12× the time of 100 MB). The corpora are generated once into
# $TMPDIR.
bench-replay:
	$(GO) test -run '^$$' -bench 'Replay' -benchtime 1x -timeout 30m ./internal/replay/
	$(GO) test -run '^$$' -bench 'ReplayHistory' -benchtime 1x -timeout 30m ./internal/cli/

# The pinned Claude Code CLI for the end-to-end suite, installed with npm
# into the user's cache folder once, unless CLAUDE_BIN names one; a failed
# install is reported by the tests (a failure when CI=true, a skip
# elsewhere).
claude-cli:
	@if [ -z "$$CLAUDE_BIN" ] && ! $(CLAUDE_CACHE)/node_modules/.bin/claude --version 2>/dev/null | grep -q '^$(CLAUDE_CODE_VERSION) '; then \
		echo "installing @anthropic-ai/claude-code@$(CLAUDE_CODE_VERSION) into $(CLAUDE_CACHE)"; \
		mkdir -p $(CLAUDE_CACHE) && \
		npm install --prefix $(CLAUDE_CACHE) --no-audit --no-fund --loglevel=error \
			@anthropic-ai/claude-code@$(CLAUDE_CODE_VERSION) || \
		echo "e2e: could not install the Claude Code CLI"; \
	fi

# The end-to-end suite alone, each test's progress shown: our hook inside
# the real Claude Code CLI, against a mock Messages API on 127.0.0.1.
e2e: claude-cli
	CONTEXT_BUDGET_E2E=1 $(GO) test -count=1 -timeout $(E2E_TIMEOUT) -v ./e2e

clean:
	rm -rf bin
