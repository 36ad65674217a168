package cli

import (
	"math"
	"time"

	ucli "github.com/urfave/cli/v2"

	"github.com/flybench/flybench/internal/analyze"
	"github.com/flybench/flybench/internal/collect"
	"github.com/flybench/flybench/internal/conditions"
	"github.com/flybench/flybench/internal/measure"
	"github.com/flybench/flybench/internal/runner"
	"github.com/flybench/flybench/pkg/ndjson"
	"github.com/flybench/flybench/pkg/stats"
)

// defaultMaxTime is --max-time when --until is given without it.
const defaultMaxTime = 60 * time.Second

// A measurement flag is one of fb-sample and fb-pair (both) or of fb-pair
// alone (pairOnly).
const (
	both     = false
	pairOnly = true
)

// measureFlags are the flags of fb-sample (pair false) or fb-pair, in the
// order --help lists them within their groups.
func measureFlags(pair bool) []ucli.Flag {
	d, w, t, a := collect.DefaultConfig, collect.DefaultWatch, conditions.DefaultPauseTiming, analyze.DefaultOptions
	specs := &scanSpecs{} // --parameter-scan's and --parameter-list's, in command-line order
	table := []struct {
		pairOnly bool
		flag     ucli.Flag
	}{
		{both, &ucli.DurationFlag{Name: "warmup", Category: budget, Value: d.Warmup, Usage: "untimed warm-up time, divided across cases; every case runs at least once"}},
		{both, &ucli.DurationFlag{Name: "measurement-time", Category: budget, Aliases: []string{"t"}, Value: d.Measurement, Usage: "target timed time of the whole run, divided across cases and samples into the batch slice"}},
		{both, &ucli.DurationFlag{Name: "max-sampling-time", Category: budget, Value: 0, Usage: "hard budget for the sampling phase, checked between complete units; at least 10 units always run (0 = unlimited)"}},
		{both, &ucli.StringFlag{Name: "timeout", Category: budget, Value: "auto", Usage: "longest one run of a command may take (a process: a run in exec mode, a batch in --batch and --gotest modes), past which it is killed and the tool exits 15: a duration, none, or auto: 10 times the longest run of its case so far, at least 10 s; before its first run completes, what is left of --max-time under --until (at least 1 s), else 10 times --warmup plus --measurement-time, at least 10 s. A given duration also limits each hook run"}},
		{both, &ucli.StringFlag{Name: "samples", Category: budget, Aliases: []string{"n"}, Value: "auto", Usage: "timed batches per case (10 to 1000), or auto: as many as fit the budget with every batch at least one operation (of the slowest case), 5 ms, twice the wall time it spends untimed (a process start under the batch's own timer) and --min-sample-time long, 50 to 1000"}},
		{both, &ucli.DurationFlag{Name: "min-sample-time", Category: budget, Value: d.MinSample, Usage: "shortest batch calibration may choose"}},
		{both, &ucli.Int64Flag{Name: "max-iterations", Category: budget, Value: math.MaxInt64, DefaultText: "unlimited", Usage: "most logical operations (runs) in one batch"}},
		{both, &ucli.BoolFlag{Name: "subtract-timer-cost", Category: sampling, Usage: "subtract the minimum clock-read cost once from every batch"}},
		{both, &ucli.Uint64Flag{Name: "seed", Category: sampling, Value: d.Seed, Usage: "seed of the order shuffles, the shared batch sizes and the layout paddings"}},
		{both, &ucli.StringSliceFlag{Name: "name", Category: output, Usage: "name of the next command, in order (repeat for each command; default: the command itself)"}},
		{both, tagFlag()},
		{both, &ucli.StringSliceFlag{Name: "work-units", Category: sampling, Usage: "logical work one operation completes (items processed, requests served): one value for every case, or one per case in order (commands, or worker sides); adds a throughput view (units per second, higher is better) to summaries and comparisons"}},
		{both, &ucli.BoolFlag{Name: "shell", Category: modes, Aliases: []string{"S"}, Usage: "run commands and hooks through /bin/sh -c instead of splitting them into words"}},
		{both, &ucli.BoolFlag{Name: "ignore-failure", Category: modes, Aliases: []string{"i"}, Usage: "time commands that exit non-zero instead of stopping the run"}},
		{both, &ucli.StringFlag{Name: "metrics", Category: sampling, Aliases: []string{"m"}, Value: "time", Usage: "axes recorded on every sample, comma-separated sets (time, resources, perf, software, all) and single axes (cpu, rss_peak, minor_faults, cycles, task_clock, ...); wall time is always recorded; instructions_sim counts each case's instructions under valgrind in untimed runs (only when named)"}},
		{both, &ucli.StringFlag{Name: "timer", Category: sampling, Value: string(measure.TimerAuto), Usage: "primary timer: auto (a batch's or worker's own elapsed time when every case reports one, else wall), " +
			"wall (the harness's clock around each batch, whatever the cases report) or cpu (user+system CPU time: the wait4 rusage of each batch's runs, or the worker's CPU-time clock around each request; wall time stays an axis); " +
			"cpu is refused where CPU time cannot be attributed (man page, TIMERS)"}},
		{both, &ucli.GenericFlag{Name: "require-perf", Category: sampling, Value: &requirePerf{}, Usage: "fail after the first measurement unless every selected hardware axis (perf set) has samples; --require-perf=core requires only cycles, instructions and ipc (implies selecting them)"}},
		{both, &ucli.StringFlag{Name: "progress", Category: output, Value: "auto", Usage: "progress on stderr: auto (in place on a terminal, plain lines otherwise), tty, plain or none"}},
		{both, &ucli.StringFlag{Name: "until", Category: budget, Usage: "sample until a decision (decision: every comparison's interval clears or fits inside the threshold, the error rate spent over the looks) or an interval width (width=P%: every half-width at most P percent), checking at growing looks, instead of a fixed --samples"}},
		{both, &ucli.DurationFlag{Name: "max-time", Category: budget, Value: defaultMaxTime, Usage: "with --until: the whole run's wall-time budget, warm-up included; a run that reaches it makes a final look and stops"}},
		{both, &ucli.Float64Flag{Name: "confidence", Category: statistics, Value: a.Confidence, Usage: "with --until: the overall confidence of the intervals the looks judge (percent, 50 to 99.9)"}},
		{both, &ucli.Float64Flag{Name: "threshold", Category: statistics, Value: a.ThresholdPct, Usage: "with --until decision: the practical threshold in percent"}},
		{both, &ucli.StringFlag{Name: "estimator", Category: statistics, Value: string(stats.EstimatorRobust), Usage: "with --until: the decision estimate the looks judge (robust, mean; see fb-analyze(1))"}},
		{both, &ucli.BoolFlag{Name: "show-output", Category: hooksIO, Usage: "send the commands' and hooks' stdout and stderr to this tool's stderr instead of discarding them (--output inherit, plus stderr)"}},
		{both, &ucli.StringFlag{Name: "input", Category: hooksIO, Value: "null", Usage: "FILE every run of the commands reads as stdin, from its start; null is /dev/null"}},
		{both, &ucli.StringFlag{Name: "output", Category: hooksIO, Value: "null", Usage: "where the commands' stdout goes: null (/dev/null), pipe (drained by this tool, as by a pipeline's consumer), inherit (this tool's stderr; its stdout carries the stream) or FILE (truncated once at start)"}},
		{both, &ucli.StringSliceFlag{Name: "prepare", Category: hooksIO, Aliases: []string{"p"}, Usage: "untimed command run before every batch: once for every command, or once per command in order"}},
		{both, &ucli.StringSliceFlag{Name: "conclude", Category: hooksIO, Usage: "untimed command run after every batch: once for every command, or once per command in order"}},
		{both, &ucli.StringSliceFlag{Name: "setup", Category: hooksIO, Aliases: []string{"s"}, Usage: "untimed command run once before warm-up: once for every command, or once per command in order"}},
		{both, &ucli.StringSliceFlag{Name: "cleanup", Category: hooksIO, Aliases: []string{"c"}, Usage: "untimed command run once at the end, whatever the outcome: once for every command, or once per command in order"}},
		{both, &ucli.StringFlag{Name: "watch", Category: host, Usage: "interference watch: observe (record foreign CPU load), retake (discard a contaminated window and collect it again) or pause (wait for a settled host, re-warm, collect it again); off when unset; Linux only (/proc/stat)"}},
		{both, &ucli.Float64Flag{Name: "max-foreign", Category: host, Value: w.MaxForeignPct, Usage: "largest accepted foreign CPU share of the machine (or of the watched CPUs), percent"}},
		{both, &ucli.DurationFlag{Name: "watch-window", Category: host, Value: w.Window, Usage: "shortest window (whole samples, pairs or rounds) a foreign-load estimate is trusted over"}},
		{both, &ucli.IntFlag{Name: "max-retakes", Category: host, Value: w.MaxRetakes, Usage: "most windows one run may collect again; then the run continues under observe and says so"}},
		{both, &ucli.DurationFlag{Name: "settle", Category: host, Value: w.Settle, Usage: "--watch pause: quiet interval required before resuming"}},
		{both, &ucli.DurationFlag{Name: "max-pause", Category: host, Value: w.MaxPause, Usage: "--watch pause: total pause budget, excluded from --max-sampling-time; then the run continues under observe"}},
		{both, &ucli.DurationFlag{Name: "rewarm", Category: host, Value: w.Rewarm, Usage: "untimed work after a pause before timed collection resumes"}},
		{both, &ucli.IntFlag{Name: "cpu", Category: host, Value: -1, DefaultText: "unplaced", Usage: "pin the benchmarked commands (and the collecting thread) to this logical CPU; the watch then looks at it and its SMT siblings; Linux only (elsewhere rejected: unsupported_platform)"}},
		{both, &ucli.BoolFlag{Name: "require-strict", Category: host, Usage: "with --cpu: refuse to run (exit 9) when strict placement is not possible, instead of continuing unplaced"}},
		{pairOnly, &ucli.StringFlag{Name: "batching", Category: sampling, Value: collect.BatchingAuto,
			Usage: "batch sizes: shared (every case of a pair or round runs the same number of operations), equal-time (each case's batch sized toward an equal timed slice: the comparison then assumes an operation's cost does not depend on the batch size) or auto (shared, unless every side of a --worker run declares batching=equal-time)"}},
		{pairOnly, &ucli.BoolFlag{Name: "shared-iterations", Category: sampling, Usage: "the same as --batching shared"}},
		{both, &ucli.Float64Flag{Name: "size-spread", Category: sampling, Value: collect.DefaultSizeSpread,
			Usage: "vary the batch size of successive pairs or rounds over this factor around the calibrated one (the same for every case of a unit, seeded, recorded per sample), so a per-operation time that depends on the batch size shows in fb-analyze's size diagnostic; 1 keeps one fixed size"}},
		{both, &ucli.StringFlag{Name: "conditions", Category: host, Usage: "operating conditions (platform profile, power-profiles-daemon, thermal throttling) at every window: observe, pause (wait for acceptable conditions, re-warm, collect the window again) or fail (exit 8); off when unset; off Linux every detector is unavailable (unsupported_platform)"}},
		{both, &ucli.StringFlag{Name: "conditions-on-timeout", Category: host, Usage: "--conditions pause: what an exhausted pause budget falls back to, observe or fail (required with pause)"}},
		{both, &ucli.BoolFlag{Name: "allow-reduced-profile", Category: host, Usage: "accept a reduced (power-saving) profile instead of treating it as unacceptable"}},
		{both, &ucli.BoolFlag{Name: "require-profile-detection", Category: host, Usage: "treat an unknown profile (no detector) as unacceptable"}},
		{both, &ucli.BoolFlag{Name: "require-thermal-detection", Category: host, Usage: "treat the absence of every thermal signal (throttle counters, PPD degradation) as unacceptable"}},
		{both, &ucli.StringFlag{Name: "max-thermal-state", Category: host, Value: "fair", Usage: "highest acceptable thermal state: nominal, fair, serious or critical (on Linux new throttling or a PPD degradation counts as serious)"}},
		{both, &ucli.DurationFlag{Name: "conditions-stable", Category: host, Value: t.Stable, Usage: "--conditions pause: how long conditions must stay acceptable before resuming"}},
		{both, &ucli.DurationFlag{Name: "conditions-poll", Category: host, Value: t.Poll, Usage: "--conditions pause: polling interval while waiting"}},
		{both, &ucli.DurationFlag{Name: "conditions-max-pause", Category: host, Value: t.MaxPause, Usage: "--conditions pause: total wait budget of the run"}},
		{both, &ucli.BoolFlag{Name: "batch", Category: modes, Usage: "one process per batch performs N operations itself: {n} in the command and FLYBENCH_N give N; it may report its own elapsed time and custom axes on fd 3 (man fb-worker(7))"}},
		{both, &ucli.BoolFlag{Name: "worker", Category: modes, Usage: "each command is a long-lived worker speaking the flybench worker protocol (man fb-worker(7)); --case picks its cases; Linux only"}},
		{both, &ucli.StringSliceFlag{Name: "case", Category: modes, Usage: "--worker: a case to run, in order (one command with several cases, several commands with one case, or one case per command)"}},
		{both, &ucli.DurationFlag{Name: "worker-timeout", Category: modes, Value: 60 * time.Second, Usage: "--worker: longest wait for one answer"}},
		{both, &ucli.DurationFlag{Name: "worker-start-timeout", Category: modes, Value: 10 * time.Second, Usage: "--worker: longest wait for the handshake"}},
		{both, &ucli.BoolFlag{Name: "gotest", Category: modes, Usage: "each command is BINARY:BenchmarkName of a compiled Go test binary (go test -c); Go's ns/op is the timer, B/op, allocs/op and ReportMetric units are custom axes (man fb-gotest(7))"}},
		{both, &ucli.StringFlag{Name: "gotest-bench", Category: modes, Usage: "--gotest: the benchmark for sides given as a bare binary"}},
		{both, &ucli.BoolFlag{Name: "gotest-benchmem", Category: modes, Value: true, Usage: "--gotest: pass -test.benchmem (B/op and allocs/op)"}},
		{both, &ucli.IntFlag{Name: "gotest-cpu", Category: modes, Usage: "--gotest: pass -test.cpu=K (GOMAXPROCS of the benchmark); 0 leaves it to the binary"}},
		{both, &ucli.StringFlag{Name: "gotest-dir", Category: modes, Usage: "--gotest: working directory of the test binaries (default: the current one)"}},
		{both, &ucli.BoolFlag{Name: "randomize-layout", Category: sampling, Value: true, DefaultText: "true in exec and batch modes",
			Usage: "start every pair's or round's processes with " + runner.LayoutVar + " padded to a seeded length (0 to 4095 bytes, the same for every case, recorded per sample), so memory-layout bias becomes noise the interval accounts for (man fb-pair(1), LAYOUT BIAS); --randomize-layout=false fixes the environment"}},
		{both, &ucli.StringFlag{Name: "page-cache", Category: sampling, Value: ndjson.PageCacheDrop,
			Usage: "drop: write back and drop each command's program file from the page cache before warm-up and whenever a process block starts (--rotate), so every side reads its code back the same way (a copy of a program is held as cp wrote it and can run apart from the original for as long as both stay cached; man fb-pair(1), LAYOUT BIAS); keep: leave the cache as found; Linux only"}},
		{both, &ucli.StringFlag{Name: "reference", Category: sampling, Usage: "run a reference workload as one more case, last, and score every case in its units: int or mem (the built-in fb-refwork, found next to this tool, then in PATH; man fb-refwork(1)) or a command; exec and batch modes"}},
		{both, &ucli.IntFlag{Name: "invocations", Category: sampling, Value: 1, Usage: "repeat the whole collection (warm-up, calibration, --samples per case) in K blocks of fresh processes: AB/BA blocks for two cases, a Williams order for three or more (man fb-pair(1), PROCESS BLOCKS); worker, gotest and batch modes"}},
		{pairOnly, &ucli.StringFlag{Name: "rotate", Category: sampling, Value: "auto", Usage: "start a new process block every N pairs or rounds, so that the comparison's interval covers how two processes of one binary differ: worker mode replaces the workers with fresh processes; the other modes, whose batches start processes of their own, drop the programs' files from the page cache (--page-cache drop) so the block reads them back afresh (auto: about 12 blocks, of at least 10 units in worker mode, and in the other modes when the sides start different program files, of at least one; one block otherwise; off: one block for the whole run) (man fb-pair(1), PROCESS BLOCKS)"}},
		{pairOnly, &ucli.StringFlag{Name: "resume", Category: sampling, Usage: "continue the interrupted --invocations collection archived in FILE, appending to it: the same commands and flags are checked against its run record, a partial block is abandoned, fresh blocks run until --invocations blocks are complete", TakesFile: true}},
		{pairOnly, &ucli.BoolFlag{Name: "retry-failed", Category: sampling, Usage: "--resume: first append one fresh attempt (same block, next attempt) for each block that did not complete"}},
		{pairOnly, &ucli.BoolFlag{Name: "duet", Category: host, Usage: "run the two sides of every pair at the same time, each pinned to its own CPU, swapping CPUs every pair, the pair's leader started a moment first: interference that hits the machine hits both sides, and the result is each side's performance next to the other as co-runner; needs two usable CPUs; time axes only; Linux only"}},
		{pairOnly, &ucli.StringFlag{Name: "duet-cpus", Category: host, DefaultText: "two on different cores", Usage: "with --duet: the two logical CPUs, such as 0,2; SMT siblings are named with a warning"}},
		{pairOnly, &ucli.GenericFlag{Name: "parameter-scan", Category: modes, Aliases: []string{"P"}, Value: &scanRange{specs}, DefaultText: "none",
			Usage: "NAME=LO..HI: one case per value LO, LO+STEP, ... up to HI, substituted for {NAME} in the one command (hyperfine's -P NAME LO HI, also accepted as the last flags before the template); repeatable, several parameters multiply, the first varying slowest"}},
		{pairOnly, &ucli.StringFlag{Name: "parameter-step-size", Category: modes, Aliases: []string{"D"}, Value: "1",
			Usage: "STEP of every --parameter-scan range; a decimal step allows decimal bounds (hyperfine's -D)"}},
		{pairOnly, &ucli.GenericFlag{Name: "parameter-list", Category: modes, Aliases: []string{"L"}, Value: &scanList{specs}, DefaultText: "none",
			Usage: "NAME=A,B,C: one case per value, substituted for {NAME} in the one command (hyperfine's -L NAME A,B,C, also accepted last); repeatable"}},
		{pairOnly, &ucli.IntFlag{Name: "aa", Category: sampling, Usage: "measure this machine's false-alarm rate for ONE command: run it against itself N times, each a whole run of its own (seeds --seed to --seed+N-1); fb-analyze adds a summary of the false verdicts (man fb-pair(1), A/A RUNS)"}},
		{pairOnly, &ucli.BoolFlag{Name: "sequential", Category: sampling, Usage: "collect one case's block at a time instead of pairs or balanced rounds (exposed to drift; analysed as independent samples)"}},
	}
	var flags []ucli.Flag
	for _, row := range table {
		if pair || !row.pairOnly {
			flags = append(flags, row.flag)
		}
	}
	return flags
}
