# flybench: build, test, demo, bench, lint, man.
GO       ?= go
BIN      := bin
VERSION  := $(shell git describe --tags --always --dirty 2>/dev/null || echo 0.1.0-dev)
LDFLAGS  := -X github.com/flybench/flybench/internal/version.Version=$(VERSION)
TOOLS    := fb-sample fb-pair fb-analyze fb-report fb-refwork
EXAMPLES := demo-old demo-new spin load

.PHONY: all build deps test test-short coverage demo screenshot bench lint cross man completions install fuzz clean

all: build

build:
	$(GO) build -ldflags '$(LDFLAGS)' -o $(BIN)/ ./cmd/... ./examples/...

# valgrind counts instructions for --metrics instructions_sim; chromium
# renders the HTML report in the browser tests; libbenchmark-dev (Google
# Benchmark) and python3-pytest-benchmark write the files fb-import's
# round-trip tests read; GNU time (Debian's time) is what rss_peak is
# checked against; postgresql's server is fb-history's second store (its
# tests start a throwaway cluster of their own on a Unix socket). All are
# installed from Debian's packages when possible (the tests that need them
# skip without them, saying why).
deps:
	@[ -x /usr/bin/time ] || (command -v apt-get >/dev/null && [ "$$(id -u)" = 0 ] && \
		(apt-get install -y -qq time >/dev/null 2>&1 || (apt-get update -qq >/dev/null 2>&1 && \
		apt-get install -y -qq time >/dev/null 2>&1))) || echo "deps: GNU time not installed; the rss_peak checks against it will skip"
	@command -v valgrind >/dev/null || (command -v apt-get >/dev/null && [ "$$(id -u)" = 0 ] && \
		apt-get install -y -qq valgrind >/dev/null 2>&1) || echo "deps: valgrind not installed; the instructions_sim tests will skip"
	@command -v chromium >/dev/null || (command -v apt-get >/dev/null && [ "$$(id -u)" = 0 ] && \
		(apt-get install -y -qq chromium >/dev/null 2>&1 || (apt-get update -qq >/dev/null 2>&1 && \
		apt-get install -y -qq chromium >/dev/null 2>&1))) || echo "deps: chromium not installed; the browser tests will skip"
	@[ -f /usr/include/benchmark/benchmark.h ] || (command -v apt-get >/dev/null && [ "$$(id -u)" = 0 ] && \
		(apt-get install -y -qq libbenchmark-dev >/dev/null 2>&1 || (apt-get update -qq >/dev/null 2>&1 && \
		apt-get install -y -qq libbenchmark-dev >/dev/null 2>&1))) || echo "deps: libbenchmark-dev not installed; the Google Benchmark import test will skip"
	@ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || (command -v apt-get >/dev/null && [ "$$(id -u)" = 0 ] && \
		(apt-get install -y -qq postgresql >/dev/null 2>&1 || (apt-get update -qq >/dev/null 2>&1 && \
		apt-get install -y -qq postgresql >/dev/null 2>&1))) || echo "deps: postgresql not installed; fb-history's PostgreSQL tests will skip"
	@/usr/bin/python3 -c 'import pytest_benchmark' 2>/dev/null || (command -v apt-get >/dev/null && [ "$$(id -u)" = 0 ] && \
		(apt-get install -y -qq python3-pytest-benchmark >/dev/null 2>&1 || (apt-get update -qq >/dev/null 2>&1 && \
		apt-get install -y -qq python3-pytest-benchmark >/dev/null 2>&1))) || echo "deps: python3-pytest-benchmark not installed; the pytest-benchmark import test will skip"

# The tests: unit tests, the statistics simulation, the fuzz seeds, and the
# end-to-end pipeline tests that run the real binaries on real commands.
test: deps
	$(GO) vet ./...
	$(GO) test -race -count=1 -timeout 30m ./...
	$(GO) test -count=1 -run 'Coverage|SequentialFalse|PlanDelivers' ./pkg/stats

# The statistics simulation as tables: coverage of nominal 95% intervals,
# median width (and its ratio to the paired t-interval's), the datasets
# withheld as insufficient evidence and verdicts for every noise model, pair
# count (20 to 500) and true difference (none, +3%); the process-level
# table (BCa, percentile, t and the reported interval over K = 5 to 40
# paired blocks, '-table.k 5,10,20,40,80' to add 80) and the process-block
# table of the clustered interval. Add ARGS='-table.method robust,legacy'
# to compare estimators, '-table.reps 4000' for tighter coverage figures,
# '-table.seq' for the sampling-until-a-decision table too.
coverage:
	$(GO) test -count=1 -v -timeout 60m -run 'TestCoverageTable|TestSequentialTable|TestRunTable|TestClusterTable' ./pkg/stats -args -table -table.reps 2000 $(ARGS)

test-short:
	$(GO) test -short -count=1 ./...

# The built-in examples. First two small programs, demo-new doing 10% less
# work than demo-old, compared in paired, order-balanced batches. Then a
# compute-bound and a memory-bound program of about the same wall time,
# with every axis: wall time is close, faults and switches are not. Last,
# two Go implementations of a nanosecond operation in one worker process,
# timed by the worker itself. Then an HTTP service instrumented with the
# recorder package, its requests streamed live to fb-record for 4 s.
# Every analyzed stream is also kept in demo.ndjson, and the last step
# writes all four as one HTML page, demo-report.html.
demo: build
	@rm -f demo.ndjson
	$(BIN)/fb-pair --name old --name new --measurement-time 3s \
		-- $(BIN)/demo-old $(BIN)/demo-new | $(BIN)/fb-analyze | tee -a demo.ndjson | $(BIN)/fb-report
	$(BIN)/fb-pair --name compute --name memory --measurement-time 2s --metrics all -- $(BIN)/demo-cpu $(BIN)/demo-mem \
		| $(BIN)/fb-analyze | tee -a demo.ndjson | $(BIN)/fb-report
	$(BIN)/fb-pair --worker --case popcount-loop --case popcount-bits -- $(BIN)/nsworker \
		| $(BIN)/fb-analyze | tee -a demo.ndjson | $(BIN)/fb-report
	$(BIN)/fb-record -- $(BIN)/recordsvc -requests 200000 -duration 4s -axes thread_cpu,process_cpu \
		| $(BIN)/fb-analyze | tee -a demo.ndjson | $(BIN)/fb-report
	$(BIN)/fb-report --format html demo.ndjson > demo-report.html
	@echo "demo: the HTML report of these runs is $(CURDIR)/demo-report.html (open it in a browser)"

# docs/report.png, the README's picture: the first screen of the demo's
# HTML report in headless Chromium (make deps installs it).
screenshot: demo
	$(GO) run ./internal/browser/shot -height 1640 demo-report.html docs/report.png

# Harness overhead, timer floor, analyzer throughput and the decisive
# experiment (A/A and a 3% A/B under idle, one-CPU and all-CPU square-wave
# loads, paired vs --sequential vs hyperfine; about an hour; a quick look:
# go run ./bench -only decisive -trials 2 -loads all-cpu -budget 6s -pairflags '-t 5s'),
# then real programs A/A and A/B in every fb-pair mode, quiet and under a
# load (issue 19 section 2; about an hour at -t 5s; its plan: go run ./bench
# -only realworld -realworld-plan), then A/A and 2% A/B of five programs
# under a seeded random mix of interference (examples/interfere; issue 19
# section 3, about three hours; a quick look: go run ./bench -only mixed
# -mixed-programs short -mixed-trials 1 -mixed-budget 4s -mixed-truth 4s).
# The peak section compares rss_peak with GNU time on examples/touch
# (go run ./bench -only peak; under a minute).
# hyperfine is installed from Debian's packages when possible, for comparison;
# so are the real programs of the realworld section (jq, sqlite3, python3,
# perl, gzip), which skips any still missing.
bench: build
	@[ -x /usr/bin/time ] || (command -v apt-get >/dev/null && [ "$$(id -u)" = 0 ] && \
		apt-get install -y -qq time >/dev/null 2>&1) || echo "bench: GNU time not installed; the peak section skips"
	@command -v hyperfine >/dev/null || (command -v apt-get >/dev/null && [ "$$(id -u)" = 0 ] && \
		apt-get install -y -qq hyperfine >/dev/null 2>&1) || echo "bench: hyperfine not installed; comparing without it"
	@for p in jq sqlite3 python3 perl gzip; do [ -x /usr/bin/$$p ] || command -v $$p >/dev/null || \
		(command -v apt-get >/dev/null && [ "$$(id -u)" = 0 ] && (apt-get install -y -qq $$p >/dev/null 2>&1 || \
		(apt-get update -qq >/dev/null 2>&1 && apt-get install -y -qq $$p >/dev/null 2>&1))) || \
		echo "bench: $$p not installed; the realworld section skips it"; done
	$(GO) run ./bench -bin $(BIN)

lint:
	$(GO) vet ./...
	$(GO) tool staticcheck ./...

# Builds beyond Linux: go vet of every package, tests included, for darwin
# (Intel and Apple silicon) and FreeBSD, then the tools built for each OS.
# See README, Platforms, for what runs there.
cross:
	GOOS=darwin $(GO) vet ./...
	GOOS=darwin GOARCH=arm64 $(GO) vet ./...
	GOOS=freebsd $(GO) vet ./...
	GOOS=darwin $(GO) build ./cmd/...
	GOOS=freebsd $(GO) build ./cmd/...

man:
	$(GO) run ./internal/mangen -out man

# Shell completion scripts of every tool (what TOOL --generate-completion
# SHELL prints), one directory per shell; a test fails when they are stale.
completions:
	$(GO) run ./internal/compgen -out completions

# Installs the built tools, the man pages and the completion scripts under
# $(DESTDIR)$(PREFIX) (run make build first, or as part of it).
PREFIX ?= /usr/local
install: build
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/share/man/man1 \
		$(DESTDIR)$(PREFIX)/share/man/man5 $(DESTDIR)$(PREFIX)/share/man/man7 \
		$(DESTDIR)$(PREFIX)/share/bash-completion/completions \
		$(DESTDIR)$(PREFIX)/share/zsh/site-functions \
		$(DESTDIR)$(PREFIX)/share/fish/vendor_completions.d
	install -m 755 $(BIN)/fb-* $(DESTDIR)$(PREFIX)/bin/
	for s in 1 5 7; do install -m 644 man/*.$$s $(DESTDIR)$(PREFIX)/share/man/man$$s/; done
	install -m 644 completions/bash/* $(DESTDIR)$(PREFIX)/share/bash-completion/completions/
	install -m 644 completions/zsh/* $(DESTDIR)$(PREFIX)/share/zsh/site-functions/
	install -m 644 completions/fish/* $(DESTDIR)$(PREFIX)/share/fish/vendor_completions.d/

# Every fuzz target in the module (func Fuzz... in a _test.go file), one
# after another for FUZZTIME each, with the race detector (whose checkptr
# checks catch a decoder reading past its input). CI runs FUZZTIME=2000x:
# a count has no deadline to race (go.dev/issue/75804, fixed in Go 1.27,
# makes a duration-bounded run fail at its end on a busy machine; such a
# failure without a failing input is reported and ignored here).
#
# Every input that finds new coverage is minimized first, for up to
# -fuzzminimizetime. FuzzPipeline's new coverage is mostly not
# reproducible (map order reaches sorts in the encoders, caches fill on
# first use), so its minimizations ran to the limit without shrinking
# anything: 10 s each left 24 inputs fuzzed in 30 s (issue 21 item 11).
# It gets 1 s.
FUZZTIME ?= 20s
fuzz:
	@set -e; for file in $$(grep -rl --include='*_test.go' '^func Fuzz' . | sort); do \
		for target in $$(sed -n 's/^func \(Fuzz[A-Za-z0-9_]*\)(.*/\1/p' $$file); do \
			echo "fuzz $$target in $$(dirname $$file) for $(FUZZTIME)"; \
			case $$target in FuzzPipeline) mintime=1s;; *) mintime=10s;; esac; \
			out=$$($(GO) test -race -run '^$$' -fuzz "^$$target\$$" -fuzztime $(FUZZTIME) -fuzzminimizetime $$mintime \
				$$(dirname $$file) 2>&1) || { \
				if echo "$$out" | grep -q 'context deadline exceeded' && ! echo "$$out" | grep -q 'Failing input written'; then \
					echo "  (go.dev/issue/75804: the fuzz coordinator's deadline race at -fuzztime, no failing input; not a finding)"; \
				else echo "$$out"; exit 1; fi; }; \
			echo "$$out" | grep 'elapsed' | tail -1; \
		done; \
	done

clean:
	rm -rf $(BIN) demo.ndjson demo-report.html
