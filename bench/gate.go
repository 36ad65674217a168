package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/flybench/flybench/pkg/ndjson"
)

// gateConfig is the CI-gate section's settings (issue 10): a noise
// profile from fb-noise, then A/A runs and runs with 10% more work
// through fb-analyze and fb-check, and the instruction-count axis.
type gateConfig struct {
	aa, ab    int    // A/A and A/B runs through fb-check
	pairFlags string // fb-pair flags of every run, the profile's included
	noiseMin  int    // fb-noise --min-runs
}

// gate prints how often fb-check passes an A/A and fails a 10% regression
// with a noise profile calibrated first on this machine, then the
// instruction counts of the same binary and of 1% more work.
func (b *bench) gate(g gateConfig) {
	section("CI gate: fb-noise profile, then fb-check on A/A and on 10% more work")
	a := b.tool("spin") + " -n 3000000"
	slow := b.tool("spin") + " -n 3300000"
	// Every run names its sides base and head, as the CI recipe does, so
	// the profile's change noise applies to the A/B runs too.
	flags := append([]string{"--name", "base", "--name", "head"}, strings.Fields(g.pairFlags)...)
	profile := filepath.Join(b.tmp, "noise.ndjson")
	start := time.Now()
	noise := exec.Command(b.tool("fb-noise"), append([]string{"--min-runs", strconv.Itoa(g.noiseMin), "--quiet", "--",
		b.tool("fb-pair"), "--progress", "none"}, append(slices.Clone(flags), "--", a, a)...)...)
	out, err := noise.Output()
	check(toolErr("fb-noise", err))
	check(os.WriteFile(profile, out, 0o644))
	printProfile(out, time.Since(start))
	fmt.Printf("fb-pair --name base --name head %s -- A A|B | fb-analyze | fb-check --noise profile; A = spin -n 3000000, B = 10%% more steps\n", g.pairFlags)
	// The same runs are judged against their history too (issue 23): every
	// A/A run is added to a results store after it is judged, as CI on a
	// main branch does; the A/B runs are judged, not added, as a pull
	// request's are.
	h := newHistoryGate(b, filepath.Join(b.tmp, "history.db"))
	for _, run := range gateRuns(g, a, slow) {
		codes := map[int]int{}
		var changes []string
		for range run.n {
			analyzed, _, err := b.pairAnalyze(flags, a, run.contender)
			check(err)
			code, change := b.checkOnce(analyzed, profile)
			codes[code]++
			changes = append(changes, change)
			h.judge(run.name, analyzed, run.add)
		}
		fmt.Printf("  %-9s %2d/%d exit %d (wanted)  all exits %v  changes %s\n", run.name, codes[run.want], run.n, run.want, codes, strings.Join(changes, " "))
	}
	h.print("")
	// The history gate judges a level, which moves with the machine's
	// speed; with a reference workload in every run it judges each case's
	// score in the reference's units instead. The same A/A and A/B runs
	// again, with --reference int, judged against their own history only.
	ref := newHistoryGate(b, filepath.Join(b.tmp, "history-ref.db"))
	refFlags := append(slices.Clone(flags), "--reference", "int")
	for _, run := range gateRuns(g, a, slow) {
		for range run.n {
			analyzed, _, err := b.pairAnalyze(refFlags, a, run.contender)
			check(err)
			ref.judge(run.name, analyzed, run.add)
		}
	}
	ref.print(" with --reference int (each case's score judged)")
	b.instructionCounts()
}

// gateRun is one kind of the gate section's runs: n runs of A against
// contender, the fb-check exit status wanted, and whether the history
// gate adds them to its store once judged.
type gateRun struct {
	name      string
	n         int
	contender string
	want      int
	add       bool
}

// gateRuns are the A/A runs (added to the history) and the A/B runs with
// 10% more work (judged only).
func gateRuns(g gateConfig, a, slow string) []gateRun {
	return []gateRun{{"A/A", g.aa, a, 0, true}, {"A/B +10%", g.ab, slow, 12, false}}
}

// historyGate judges each run of the gate section with fb-check
// --history against the A/A runs added before it.
type historyGate struct {
	b     *bench
	db    string
	added int
	rows  []string            // per run kind, in order
	cases map[string][]string // per run kind: each case's outcome and change
	fails map[string]int      // per run kind: runs with a history failure
	runs  map[string]int      // per run kind: runs judged with history
}

func newHistoryGate(b *bench, db string) *historyGate {
	return &historyGate{b: b, db: db, cases: map[string][]string{}, fails: map[string]int{}, runs: map[string]int{}}
}

// judge runs fb-check --history on an analysed stream once the store
// holds at least 5 runs (fb-check's minimum), then adds the stream when
// add is set.
func (h *historyGate) judge(kind string, analyzed []byte, add bool) {
	if !slices.Contains(h.rows, kind) {
		h.rows = append(h.rows, kind)
	}
	if h.added >= 5 {
		cmd := exec.Command(h.b.tool("fb-check"), "--history", h.db, "--format", "ndjson")
		cmd.Stdin = bytes.NewReader(analyzed)
		out, err := cmd.Output()
		var ee *exec.ExitError
		if err != nil && !errors.As(err, &ee) {
			check(err)
		}
		failed := false
		eachRecord(out, func(typ string, raw []byte) {
			var ck ndjson.Check
			if typ != ndjson.TypeCheck || json.Unmarshal(raw, &ck) != nil {
				return
			}
			for _, it := range ck.Items {
				if it.Kind != "history" {
					continue
				}
				failed = failed || it.Outcome == ndjson.CheckItemFail
				h.cases[kind] = append(h.cases[kind], fmt.Sprintf("%s:%s%+.1f%%(±%.1f)", it.Subject, it.Outcome[:1], it.Value, it.Window))
			}
		})
		h.runs[kind]++
		if failed {
			h.fails[kind]++
		}
	}
	if add {
		f := filepath.Join(h.b.tmp, fmt.Sprintf("history-%d.ndjson", h.added))
		check(os.WriteFile(f, analyzed, 0o644))
		out, err := exec.Command(h.b.tool("fb-history"), "add", "--db", h.db, f).CombinedOutput()
		if err != nil {
			check(fmt.Errorf("fb-history add: %v: %s", err, out))
		}
		h.added++
	}
}

// print writes the history gate's outcomes per run kind; how says how
// the runs were made when they are not the section's own.
func (h *historyGate) print(how string) {
	runs := "the same runs"
	if how != "" {
		runs = "runs made again" + how
	}
	fmt.Printf("history gate: fb-check --history (SQLite) on %s; each A/A run added after it is judged, the first 5 only added; A/B runs judged against every A/A run, not added\n", runs)
	for _, kind := range h.rows {
		fmt.Printf("  %-9s %2d of %d runs with a history failure (per case: outcome p/f/s, change from the history's level, ±window)\n", kind, h.fails[kind], h.runs[kind])
		fmt.Printf("            %s\n", strings.Join(h.cases[kind], " "))
	}
}

// checkOnce runs an analysed comparison through fb-check with the noise
// profile and returns its exit status and the time change fb-check judged.
func (b *bench) checkOnce(analyzed []byte, profile string) (int, string) {
	cmd := exec.Command(b.tool("fb-check"), "--noise", profile, "--format", "ndjson")
	cmd.Stdin = bytes.NewReader(analyzed)
	out, err := cmd.Output()
	code := 0
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		code = ee.ExitCode()
	} else {
		check(err)
	}
	change := "?"
	eachRecord(out, func(typ string, raw []byte) {
		var ck ndjson.Check
		if typ == ndjson.TypeCheck && json.Unmarshal(raw, &ck) == nil {
			for _, it := range ck.Items {
				if it.Kind == "time" {
					change = fmt.Sprintf("%+.1f%%(±%.1f)", it.Value, it.Window)
				}
			}
		}
	})
	return code, change
}

// printProfile prints the noise profile's metrics.
func printProfile(out []byte, took time.Duration) {
	eachRecord(out, func(typ string, raw []byte) {
		var n ndjson.Noise
		if typ != ndjson.TypeNoise || json.Unmarshal(raw, &n) != nil {
			return
		}
		fmt.Printf("noise profile: %d invocations (converged %v) in %s:", n.Invocations, n.Converged, took.Round(time.Second))
		for _, m := range n.Metrics {
			fmt.Printf("  %s %s %s %.2f", m.Kind, m.Metric, m.Case, m.NoisePct)
		}
		fmt.Println()
	})
}

// instructionCounts prints instructions_sim for five runs of one binary
// and for 1% more work, for the Go example and, when a C compiler is
// installed, the same loop in C (a Go program's count varies slightly:
// its runtime's background threads).
func (b *bench) instructionCounts() {
	section("instruction counts (valgrind cachegrind): 5 runs of one binary, then 1% more work")
	if _, err := exec.LookPath("valgrind"); err != nil {
		fmt.Println("valgrind not installed: skipped (make test installs it with apt-get)")
		return
	}
	programs := [][2]string{{"spin (Go)", b.tool("spin")}}
	if c := b.buildCSpin(); c != "" {
		programs = append(programs, [2]string{"cspin (C)", c})
	}
	for _, p := range programs {
		var counts []string
		for range 5 {
			counts = append(counts, b.counterValues(p[1]+" -n 3000000"))
		}
		fmt.Printf("  %-10s -n 3000000, 5 runs × 3 counts: %s\n", p[0], strings.Join(counts, " | "))
		analyzed, _, err := b.pairAnalyze([]string{"--metrics", "instructions_sim", "--samples", "10", "-t", "200ms"}, p[1]+" -n 3000000", p[1]+" -n 3030000")
		check(err)
		fmt.Printf("  %-10s -n 3000000 vs 3030000 (1%% more steps): %s\n", p[0], exactChange(analyzed))
	}
}

// counterValues runs fb-sample with instructions_sim and returns the
// case's counts.
func (b *bench) counterValues(command string) string {
	out, err := exec.Command(b.tool("fb-sample"), "--progress", "none", "--metrics", "instructions_sim",
		"--samples", "10", "-t", "200ms", "--", command).Output()
	check(toolErr("fb-sample", err))
	text := "?"
	eachRecord(out, func(typ string, raw []byte) {
		var c ndjson.Counter
		if typ == ndjson.TypeCounter && json.Unmarshal(raw, &c) == nil {
			parts := make([]string, len(c.Values))
			for i, v := range c.Values {
				parts[i] = strconv.FormatFloat(v, 'f', -1, 64)
			}
			text = strings.Join(parts, " ")
			if c.Status != "collected" {
				text = c.Status + ": " + c.Reason
			}
		}
	})
	return text
}

// exactChange is the instructions_sim comparison of an analysed stream.
func exactChange(analyzed []byte) string {
	text := "no comparison"
	eachRecord(analyzed, func(typ string, raw []byte) {
		var k ndjson.Comparison
		if typ != ndjson.TypeComparison || json.Unmarshal(raw, &k) != nil {
			return
		}
		for _, a := range k.Axes {
			if a.Name == "instructions_sim" && a.Result != nil {
				r := a.Result
				text = fmt.Sprintf("%+.0f instructions/op (%.3f%% of %.0f), %s", r.Change, 100*r.Change/r.RefMedian, r.RefMedian, r.Verdict)
			} else if a.Name == "instructions_sim" {
				text = a.Status + ": " + a.Reason
			}
		}
	})
	return text
}

// buildCSpin compiles spin's loop in C, or returns "" without a compiler.
func (b *bench) buildCSpin() string {
	cc, err := exec.LookPath("cc")
	if err != nil {
		return ""
	}
	src := filepath.Join(b.tmp, "cspin.c")
	bin := filepath.Join(b.tmp, "cspin")
	check(os.WriteFile(src, []byte(cspinSource), 0o644))
	if out, err := exec.Command(cc, "-O2", "-o", bin, src).CombinedOutput(); err != nil {
		fmt.Printf("cc failed, C program skipped: %v %s\n", err, out)
		return ""
	}
	return bin
}

// cspinSource is a mixing loop like examples/mix, with spin's -n flag.
const cspinSource = `#include <stdio.h>
#include <stdlib.h>
#include <string.h>
int main(int argc, char **argv) {
	long n = 1000000;
	if (argc == 3 && strcmp(argv[1], "-n") == 0) n = atol(argv[2]);
	unsigned long long x = 0x9e3779b97f4a7c15ULL;
	for (long i = 0; i < n; i++) { x ^= x >> 31; x *= 0xbf58476d1ce4e5b9ULL; x += (unsigned long long)i; }
	printf("%llu\n", x);
	return 0;
}
`

// toolErr adds a tool's stderr to its exit error.
func toolErr(tool string, err error) error {
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		return toolError(tool, err, ee.Stderr)
	}
	return err
}
