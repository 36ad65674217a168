// Command bench is `make bench`: it measures the harness itself and prints
// the numbers side by side from one run. It asserts nothing; these machines
// are shared and noisy, so the figures are ratios measured in one sitting.
//
//  1. exec overhead: fb-sample's time per run of a trivial command against
//     a bare fork/exec/wait4 loop (and hyperfine -N when installed),
//     interleaved round by round; the clock's floor; the harness's own
//     untimed overhead per sample.
//  2. the cost of each probe family, timed and untimed, per run.
//  3. worker mode's floor: an empty case and a ~1 ns operation.
//  4. fb-analyze throughput on a synthetic 100,000-sample stream, and
//     fb-report's peak memory in each format on it once analysed.
//  5. the CI gate (issue 10): a noise profile from fb-noise, then how
//     often fb-check passes an A/A and fails 10% more work; the same runs
//     judged against their history (fb-check --history, issue 23), and
//     again with a reference workload so scores are judged; and the
//     instruction-count axis on one binary and on 1% more work.
//  6. layout bias (issue 14): one alignment-sensitive C program under two
//     path lengths (A/A) at fixed environment sizes and with
//     --randomize-layout, with the kernel's stack randomization off
//     (setarch -R) and on; verdicts and intervals per row.
//  7. the decisive experiment (issue 8, section 6; -only drift is the same
//     section): A/A and a 3% A/B under no load, a one-CPU and an all-CPU
//     square-wave load, paired vs --sequential vs hyperfine -N, each given
//     the same wall time per run; false verdicts, detections and estimate
//     errors per method.
//  8. real programs (issue 19, section 2; -only realworld): standard-library
//     Go benchmarks (--gotest), Debian programs (exec), interpreters with a
//     set-up cost (--batch) and an allocating Go worker (--worker), each
//     compared with itself at one path and with a byte copy (A/A), and with
//     a true difference (A/B), quiet and under a background load.
//  9. interference that is not a square wave (issue 19 §3; -only mixed,
//     some three hours): A/A and an A/B taking 2% more time (the memory
//     program 3%) of a compute-,
//     memory- and I/O-bound, a short and a long program under a seeded
//     random mix of interference (examples/interfere), paired, --until,
//     --timer cpu, --duet, --watch retake, --sequential and hyperfine -N;
//     false verdicts,
//     detections, coverage of the quiet truth and widths against the
//     width the run's own clean pairs would give.
//  10. peak memory (issue 24; -only peak): fb-sample's rss_peak of a C
//     program touching 1 to 256 MiB against GNU time's %M, in exec and
//     batch modes, and what measuring it adds to a run.
//  11. in-process precision (issue 22 item 5; -only precision): two
//     operations of one worker (examples/chainworker, 150 and 340 ns) that
//     differ by 1%, A/A and A/B in short runs, idle and under the mixed
//     section's interferer; how often the interval clears ±0.5%.
//  12. interference-aware filtering (issue 22 item 2; -only pressure): runs
//     under the mixed section's interferer with --watch observe, analysed
//     again without the units that foreign CPU load, pressure stall
//     information or the unit's own CPU share flag; widths, coverage of
//     the quiet truth and verdicts per rule.
package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"
)

func main() {
	bin := flag.String("bin", "bin", "directory of the built tools and examples")
	rounds := flag.Int("rounds", 9, "interleaved rounds of the overhead comparison")
	only := flag.String("only", "", "run one part: overhead, probes, worker, analyze, gate, layout, decisive (drift is the same), realworld, mixed, precision, peak or pressure")
	bare := flag.Int("bareloop", 0, "internal: run the bare loop this many times in this fresh process and print ns/run")
	var g gateConfig
	flag.IntVar(&g.aa, "gate-aa", 20, "gate: A/A runs through fb-check")
	flag.IntVar(&g.ab, "gate-ab", 10, "gate: runs with 10% more work through fb-check")
	flag.IntVar(&g.noiseMin, "gate-noise-runs", 10, "gate: fb-noise --min-runs")
	flag.StringVar(&g.pairFlags, "gate-pairflags", "-t 3s", "gate: fb-pair flags of every run (the noise profile's included)")
	var d decisiveConfig
	flag.IntVar(&d.trials, "trials", 10, "decisive: runs per load, kind (A/A, A/B) and method")
	loads := flag.String("loads", "idle,one-cpu,all-cpu", "decisive: background loads, comma-separated (idle, one-cpu, all-cpu)")
	flag.DurationVar(&d.budget, "budget", 17*time.Second, "decisive: wall time per method per run; hyperfine's --runs is sized to it, keep -pairflags near it (at most 20s)")
	flag.StringVar(&d.pairFlags, "pairflags", "-t 15s --max-sampling-time 16s", "decisive: fb-pair flags of the paired and sequential methods, split on spaces")
	variants := flag.String("variants", "paired=-t 15s --max-sampling-time 16s;until=--until decision --max-time 19s", "decisive: paired methods 'name=fb-pair flags;name=flags' (empty: 'paired=<pairflags>')")
	methods := flag.String("methods", "", "decisive: methods to run, comma-separated (default: every paired variant, sequential, hyperfine)")
	flag.IntVar(&d.steps, "steps", 0, "decisive: spin steps of A (0: calibrate to a ~20 ms run); B does 3% more")
	flag.DurationVar(&d.truthTime, "truth", 40*time.Second, "decisive: fb-pair -t of the idle run that measures the true A/B difference")
	var lay layoutConfig
	flag.StringVar(&lay.src, "layout-src", "examples/align/align.c", "layout: the alignment-sensitive C program")
	flag.StringVar(&lay.pairFlags, "layout-pairflags", "-t 3s --max-iterations 1", "layout: fb-pair flags of every run, split on spaces (one run per batch: both sides sample alike)")
	flag.IntVar(&lay.reps, "layout-reps", 600000, "layout: align -n (repetitions of 16 loads per run)")
	var rw realworldConfig
	rwModesFlag := flag.String("realworld-modes", "gotest,exec,batch,worker", "realworld: fb-pair modes, comma-separated")
	rwPrograms := flag.String("realworld-programs", "", "realworld: programs to run, comma-separated (default: every program of the modes)")
	rwConditions := flag.String("realworld-conditions", "quiet,load", "realworld: conditions, comma-separated: quiet, load (-realworld-load running)")
	flag.IntVar(&rw.runs, "realworld-runs", 0, "realworld: A/A runs per program and path variant (0: enough for 20 A/A runs per mode)")
	flag.IntVar(&rw.abRuns, "realworld-ab-runs", 2, "realworld: A/B runs per program")
	flag.StringVar(&rw.pairFlags, "realworld-pairflags", "-t 5s", "realworld: fb-pair flags of every run, split on spaces")
	flag.StringVar(&rw.extra, "realworld-extra", "", "realworld: more fb-pair flags appended to every run (e.g. '--batching equal-time')")
	flag.StringVar(&rw.load, "realworld-load", "{bin}/interfere -seed {seed}", "realworld: the load condition's background command; {bin} is -bin, {seed} a random seed printed per run (default: the seeded random interferer of the mixed section)")
	flag.DurationVar(&rw.loadPhase, "realworld-load-phase", 4*time.Second, "realworld: wait a random time up to this after starting the load (0: none)")
	flag.StringVar(&rw.toolchain, "realworld-toolchain", "go1.27.3", "realworld: GOTOOLCHAIN of the gotest A/B builds")
	flag.StringVar(&rw.keep, "realworld-keep", "", "realworld: write every run's analysed stream to this directory, one file per run (condition-mode-program-variant-round.ndjson)")
	flag.Uint64Var(&rw.pairSeed, "realworld-pair-seed", 0, "realworld: fb-pair --seed of every run (0: a fresh random seed per run, printed on its line)")
	flag.BoolVar(&rw.plan, "realworld-plan", false, "realworld: print the command, the runs and the estimated duration, and run nothing")
	var mx mixedConfig
	mixedProgs := flag.String("mixed-programs", strings.Join(mixedPrograms, ","), "mixed: programs, comma-separated")
	mixedMeths := flag.String("mixed-methods", strings.Join(mixedMethods, ","), "mixed: methods, comma-separated")
	flag.IntVar(&mx.trials, "mixed-trials", 10, "mixed: runs per program, kind (A/A, A/B) and method")
	flag.DurationVar(&mx.budget, "mixed-budget", 20*time.Second, "mixed: wall time of one comparison (fb-pair -t 90% of it, stopped at 95%; hyperfine's --runs sized to it)")
	flag.BoolVar(&mx.quiet, "mixed-quiet", false, "mixed: run without the interferer (the methods on the machine as it is)")
	flag.DurationVar(&mx.truth, "mixed-truth", 40*time.Second, "mixed: fb-pair -t of each program's quiet run, the truth")
	flag.StringVar(&mx.keep, "mixed-keep", "", "mixed: write every fb-pair run's analysed stream to this directory (program-kind-method-trial-seed.ndjson)")
	var pr precisionConfig
	flag.IntVar(&pr.runs, "precision-runs", 10, "precision: runs per pair, kind (A/A, A/B) and condition")
	flag.DurationVar(&pr.quiet, "precision-quiet", time.Second, "precision: fb-pair -t of a quiet run")
	flag.DurationVar(&pr.loaded, "precision-loaded", 5*time.Second, "precision: fb-pair -t of a run under the mixed interferer")
	flag.DurationVar(&pr.truth, "precision-truth", 20*time.Second, "precision: fb-pair -t of each pair's quiet truth")
	precFlags := flag.String("precision-flags", "", "precision: more fb-pair flags of every run but the truth, split on spaces (e.g. '--samples 1000')")
	precConds := flag.String("precision-conditions", "quiet,mixed", "precision: conditions, comma-separated: quiet, mixed (the mixed section's random interferer)")
	var ps pressureConfig
	flag.IntVar(&ps.runs, "pressure-runs", 8, "pressure: A/B and A/A runs per program")
	flag.DurationVar(&ps.budget, "pressure-budget", 20*time.Second, "pressure: wall time of one comparison (fb-pair -t 90% of it)")
	flag.DurationVar(&ps.truth, "pressure-truth", 40*time.Second, "pressure: fb-pair -t of each program's quiet run, the truth")
	pressProgs := flag.String("pressure-programs", "compute,memory", "pressure: programs of the mixed section, comma-separated")
	flag.Parse()
	if *bare > 0 {
		fmt.Println(bareRun(*bare))
		return
	}
	exitOnInterrupt()
	switch *only {
	case "", "overhead", "probes", "worker", "analyze", "gate", "layout", "decisive", "drift", "realworld", "mixed", "precision", "peak", "pressure":
	default:
		check(fmt.Errorf("-only %q: use overhead, probes, worker, analyze, gate, layout, decisive, realworld, mixed, precision, peak or pressure", *only))
	}
	rw.bin = *bin
	rw.modes, rw.programs, rw.conditions = splitList(*rwModesFlag, ","), splitList(*rwPrograms, ","), splitList(*rwConditions, ",")
	if *only == "" || *only == "realworld" {
		check(rw.validate()) // before hours of other sections
	}
	mx.bin, mx.programs, mx.methods = *bin, splitList(*mixedProgs, ","), splitList(*mixedMeths, ",")
	if *only == "" || *only == "mixed" {
		check(mx.validate())
	}
	pr.bin, pr.conditions, pr.flags = *bin, splitList(*precConds, ","), strings.Fields(*precFlags)
	if *only == "" || *only == "precision" {
		check(pr.validate())
	}
	ps.programs = splitList(*pressProgs, ",")
	if *only == "" || *only == "pressure" {
		check(ps.validate())
	}
	b := &bench{bin: *bin}
	dir, err := os.MkdirTemp("", "flybench-bench-")
	check(err)
	defer os.RemoveAll(dir)
	b.tmp = dir
	if *only == "" || *only == "overhead" {
		b.overhead(*rounds)
	}
	if *only == "" || *only == "probes" {
		b.probeOverhead(*rounds)
	}
	if *only == "" || *only == "peak" {
		b.peak(*rounds)
	}
	if *only == "" || *only == "worker" {
		b.workerFloor()
	}
	if *only == "" || *only == "analyze" {
		b.analyzeThroughput()
	}
	if *only == "" || *only == "gate" {
		b.gate(g)
	}
	if *only == "" || *only == "layout" {
		b.layout(lay)
	}
	if *only == "" || *only == "decisive" || *only == "drift" {
		d.bin = *bin
		d.loads = splitList(*loads, ",")
		if *variants != "" {
			d.rawFlags = append(d.rawFlags, "-variants", shellQuote(*variants))
		}
		if *methods != "" {
			d.rawFlags = append(d.rawFlags, "-methods", shellQuote(*methods))
		}
		d.variants, err = parseVariants(*variants, d.pairFlags)
		check(err)
		d.methods, err = d.selectMethods(splitList(*methods, ","))
		check(err)
		check(d.validate())
		b.decisive(d)
	}
	if *only == "" || *only == "realworld" {
		b.realworld(rw)
	}
	if *only == "" || *only == "mixed" {
		b.mixed(mx)
	}
	if *only == "" || *only == "precision" {
		b.precision(pr)
	}
	if *only == "" || *only == "pressure" {
		b.pressure(ps)
	}
}

// splitList splits s on sep and drops empty, space-trimmed items.
func splitList(s, sep string) []string {
	var out []string
	for _, item := range strings.Split(s, sep) {
		if item = strings.TrimSpace(item); item != "" {
			out = append(out, item)
		}
	}
	return out
}

type bench struct {
	bin string
	tmp string
}

func (b *bench) tool(name string) string {
	p, err := filepath.Abs(filepath.Join(b.bin, name))
	check(err)
	return p
}

func check(err error) {
	if err != nil {
		killChildren()
		fmt.Fprintln(os.Stderr, "bench:", err)
		os.Exit(1)
	}
}

func section(title string) {
	fmt.Printf("\n== %s\n", title)
}
