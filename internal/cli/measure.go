package cli

import (
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	ucli "github.com/urfave/cli/v2"

	"github.com/flybench/flybench/internal/claim"
	"github.com/flybench/flybench/internal/collect"
	"github.com/flybench/flybench/internal/field"
	"github.com/flybench/flybench/internal/lifecycle"
	"github.com/flybench/flybench/internal/measure"
	"github.com/flybench/flybench/internal/progress"
	"github.com/flybench/flybench/internal/runner"
	"github.com/flybench/flybench/pkg/ndjson"
	"github.com/flybench/flybench/pkg/stats"
)

const measureDescription = `Writes the record stream (man fb-stream(5)) to stdout; progress goes to stderr.
Exit status: 0 complete (or stopped by --max-sampling-time), 2 usage, 5 a command or hook failed,
7 --require-perf found a hardware axis without samples, 8 operating conditions unacceptable
(--conditions fail), 9 --require-strict placement unavailable, 14 the stream could not be written
(the run stops, --cleanup runs), 15 a run outlived --timeout and was killed, 130/143 interrupted by SIGINT/SIGTERM (the stream still ends with
an end record).`

func sampleApp(env Env) *ucli.App {
	app := newApp(env, "fb-sample", "measure one command's time per run",
		"[--] COMMAND", "Warms, calibrates and times batches of runs of one command.\n\n"+measureDescription)
	app.Flags = measureFlags(false)
	app.Action = func(c *ucli.Context) error { return runMeasure(c, env, "fb-sample", 1, 1) }
	return app
}

func pairApp(env Env) *ucli.App {
	app := newApp(env, "fb-pair", "compare 2 to 16 commands in paired, order-balanced batches",
		"[--] REFERENCE CONTENDER [CONTENDER...]",
		"Two commands run adjacently in every sample pair, who leads shuffled with equal counts;\n"+
			"three or more run in shuffled cyclic rounds, every case once in each position.\n"+
			"Every case of a pair or round runs the same number of operations (--batching), varied\n"+
			"from unit to unit over --size-spread so a size-dependent cost shows in the analysis.\n"+
			"With --parameter-scan/--parameter-list one command TEMPLATE expands into the cases (man fb-pair(1)).\n\n"+
			measureDescription)
	app.Flags = measureFlags(true)
	app.Action = func(c *ucli.Context) error { return runMeasure(c, env, "fb-pair", 2, collect.MaxCases) }
	return app
}

// runMeasure is the action of fb-sample and fb-pair: the flags become a
// request, the measurement runs, and its outcome becomes the exit status.
func runMeasure(c *ucli.Context, env Env, tool string, least, most int) error {
	r, err := measureRequest(c, env, tool, least, most)
	if err != nil {
		return fieldUsage(err)
	}
	err = measure.Run(r, measure.Env{Stdout: env.Stdout, Stderr: env.Stderr, Getenv: env.Getenv, Names: flagName})
	if stdoutFailed(err) {
		return withCode(ExitOutput, fmt.Errorf("%w; %s", err, stoppedWriting(r)), "")
	}
	return measureExit(err, env.Stderr)
}

// stoppedWriting says what a measurement did when its stream could not
// be written: it stopped as when interrupted.
func stoppedWriting(r measure.Request) string {
	if len(r.Hooks.Cleanup) > 0 {
		return "the run stopped, nothing left running, --cleanup ran"
	}
	return "the run stopped, nothing left running"
}

// measureRequest reads an invocation's flags and arguments into a
// request. It checks only what the flags spell; the request checks the
// rest.
func measureRequest(c *ucli.Context, env Env, tool string, least, most int) (measure.Request, error) {
	r := measure.Request{Tool: tool, Least: least, Most: most, Cases: c.StringSlice("case"), Names: c.StringSlice("name"),
		Timer: measure.Timer(c.String("timer")), Command: commandOptions(c), Stdio: stdioOf(c),
		Hooks: measure.Hooks{Prepare: c.StringSlice("prepare"), Conclude: c.StringSlice("conclude"),
			Setup: c.StringSlice("setup"), Cleanup: c.StringSlice("cleanup")},
		Placement: measure.Placement{CPU: c.Int("cpu"), RequireStrict: c.Bool("require-strict")}}
	r.AA, r.Reference, r.Layout = ifSet(c, "aa", c.Int), ifSet(c, "reference", c.String), ifSet(c, "randomize-layout", c.Bool)
	if tool == "fb-pair" && c.IsSet("duet-cpus") {
		cpus, err := claim.ParseCPUList(c.String("duet-cpus"))
		if err != nil {
			return r, withCode(ExitUsage, fmt.Errorf("--duet-cpus: %w", err), "give two CPUs, such as 0,2")
		}
		r.DuetCPUs = cpus
	}
	switch v := c.String("page-cache"); v {
	case ndjson.PageCacheDrop:
	case ndjson.PageCacheKeep:
		r.KeepPageCache = true
	default:
		return r, withCode(ExitUsage, fmt.Errorf("--page-cache %q: use drop or keep", v), "")
	}
	if path, retry := c.String("resume"), c.Bool("retry-failed"); path != "" || retry {
		r.Resume = &measure.Resume{Path: path, Retry: retry}
	}
	var err error
	if r.Mode, err = modeOf(c); err != nil {
		return r, err
	}
	if r.Commands, r.Scan, err = scanOf(c, r.Mode, c.Args().Slice()); err != nil {
		return r, err
	}
	if r.Config, err = configOf(c, tool == "fb-pair"); err != nil {
		return r, err
	}
	if tool == "fb-pair" {
		if r.Batching, r.BatchingAuto, err = batchingOf(c); err != nil {
			return r, err
		}
	}
	if r.Progress, err = progress.ParseMode(c.String("progress"), isTerminal(env.Stderr)); err != nil {
		return r, fieldUsage(err)
	}
	r.RequirePerf = c.Generic("require-perf").(*requirePerf).level
	if r.Axes, r.Counters, err = measure.SelectAxes(c.String("metrics"), r.RequirePerf); err != nil {
		return r, fieldUsage(err)
	}
	if r.Conditions, err = conditionsPolicy(c); err != nil {
		return r, err
	}
	if r.Tags, err = tagsOf(c.StringSlice("tag")); err != nil {
		return r, err
	}
	r.WorkUnits, err = measure.ParseWorkUnits(c.StringSlice("work-units"))
	return r, err
}

// modeOf reads which execution mode the flags select.
func modeOf(c *ucli.Context) (measure.Mode, error) {
	var set []string
	for _, m := range []measure.Mode{measure.ModeBatch, measure.ModeWorker, measure.ModeGotest} {
		if c.Bool(string(m)) {
			set = append(set, string(m))
		}
	}
	switch len(set) {
	case 0:
		return measure.ModeExec, nil
	case 1:
		return measure.Mode(set[0]), nil
	}
	return "", usageErrorf("--%s: choose one execution mode", strings.Join(set, " and --"))
}

// configOf reads the collection policy; pair adds fb-pair's own flags.
func configOf(c *ucli.Context, pair bool) (collect.Config, error) {
	cfg := collect.Config{
		Warmup: c.Duration("warmup"), Measurement: c.Duration("measurement-time"), MaxSampling: c.Duration("max-sampling-time"),
		Samples: collect.ParseSamples(c.String("samples")), MinSample: c.Duration("min-sample-time"), MaxIterations: c.Int64("max-iterations"),
		SubtractTimerCost: c.Bool("subtract-timer-cost"), Seed: c.Uint64("seed"), Batching: collect.SharedIterations,
		SizeSpread: c.Float64("size-spread"), Sequential: c.Bool("sequential"), Invocations: c.Int("invocations"),
		Watch: collect.Watch{
			Response: c.String("watch"), MaxForeignPct: c.Float64("max-foreign"), Window: c.Duration("watch-window"),
			MaxRetakes: c.Int("max-retakes"), Settle: c.Duration("settle"), MaxPause: c.Duration("max-pause"), Rewarm: c.Duration("rewarm"),
		},
		Until: collect.Until{MaxTime: c.Duration("max-time"), Confidence: c.Float64("confidence"),
			ThresholdPct: c.Float64("threshold"), Estimator: stats.Estimator(c.String("estimator"))},
	}
	var err error
	if cfg.Timeout, err = collect.ParseTimeout(c.String("timeout")); err != nil {
		return cfg, err
	}
	if cfg.Until.Rule, cfg.Until.WidthPct, err = collect.ParseUntil(c.String("until")); err != nil {
		return cfg, err
	}
	if pair {
		cfg.Rotate, err = collect.ParseRotate(c.String("rotate"))
		cfg.Duet = c.Bool("duet")
	}
	return cfg, err
}

// batchingOf reads --batching (or its older spelling
// --shared-iterations): the policy, and whether it was left to the mode.
func batchingOf(c *ucli.Context) (collect.Batching, bool, error) {
	v := c.String("batching")
	if c.Bool("shared-iterations") {
		if c.IsSet("batching") && v != "shared" {
			return "", false, usageErrorf("--shared-iterations and --batching %s: choose one (--shared-iterations is --batching shared)", v)
		}
		v = "shared"
	}
	b, auto, err := collect.ParseBatching(v)
	return b, auto, fieldUsage(err)
}

// commandOptions read how the commands and hooks run.
func commandOptions(c *ucli.Context) measure.CommandOptions {
	return measure.CommandOptions{
		Shell: c.Bool("shell"), IgnoreFailure: c.Bool("ignore-failure"), ShowOutput: c.Bool("show-output"),
		GotestBench: c.String("gotest-bench"), GotestBenchmem: c.Bool("gotest-benchmem"),
		GotestCPU: c.Int("gotest-cpu"), GotestDir: c.String("gotest-dir"),
		WorkerStart: c.Duration("worker-start-timeout"), WorkerRequest: c.Duration("worker-timeout"),
	}
}

// stdioOf reads --input and --output: "" when not given.
func stdioOf(c *ucli.Context) measure.Stdio {
	var s measure.Stdio
	if c.IsSet("input") {
		s.Input = c.String("input")
	}
	if c.IsSet("output") {
		s.Output = c.String("output")
	}
	return s
}

// ifSet is a flag's value read by get, or nil when the flag was not
// given: the request then leaves the choice to the mode.
func ifSet[T any](c *ucli.Context, name string, get func(string) T) *T {
	if !c.IsSet(name) {
		return nil
	}
	v := get(name)
	return &v
}

// timedOut is a run that outlasted its time limit and was killed: a
// runner.TimeoutError, or a worker's (internal/workerexec) that did not
// answer in time.
type timedOut interface {
	error
	TimeLimit() time.Duration
}

// measureExit gives a measurement's outcome its exit status and hint.
func measureExit(err error, stderr io.Writer) error {
	var ie *measure.InterruptedError
	var fe *collect.FailedError
	var ae *measure.ArchiveError
	switch hint, refused := cpuRefusal(err); {
	case err == nil:
		return nil
	case errors.As(err, &ie):
		return withCode(lifecycle.Code(ie.Signal), err, "")
	case refused:
		return withCode(ExitUsage, err, hint)
	case errors.As(err, new(*collect.ConditionsError)):
		return withCode(ExitConditions, err, "run where the profile and thermal state are acceptable, or use --conditions observe")
	case errors.As(err, new(*runner.TimeoutError)):
		return withCode(ExitTimedOut, err, "give its runs longer with --timeout DURATION, or none with --timeout none")
	case errors.As(err, new(timedOut)): // a worker's
		return withCode(ExitTimedOut, err, "give the worker longer with --worker-timeout (requests) or --worker-start-timeout (the handshake)")
	case errors.As(err, new(*collect.RequirementError)):
		return withCode(ExitRequirement, err, "run where the PMU is exposed (and perf_event_paranoid allows it), or drop --require-perf")
	case errors.As(err, &fe):
		return withCode(ExitCommandFailed, err, failureHint(stderr, fe))
	case errors.As(err, new(*measure.CommandError)):
		return withCode(ExitCommandFailed, err, "")
	case errors.As(err, new(*measure.PlacementError)):
		return withCode(ExitPlacement, err, fieldHint(err))
	case errors.As(err, new(*measure.FingerprintError)):
		return withCode(ExitCannotJudge, err, fieldHint(err))
	case errors.As(err, &ae):
		if errors.As(err, new(*ndjson.SyntaxError)) || errors.As(err, new(*ndjson.VersionError)) {
			return streamError(ae.Err, "resume only a stream fb-pair --invocations wrote")
		}
		return withCode(ExitBadInput, err, "")
	case errors.As(err, new(*field.Error)):
		return withCode(ExitUsage, err, fieldHint(err))
	}
	return err
}

// fieldHint is the hint of the field error inside err, or "".
func fieldHint(err error) string {
	var fe *field.Error
	if errors.As(err, &fe) {
		return fe.Hint()
	}
	return ""
}

// cpuRefusal recognizes work the CPU timer found it cannot see, before
// or while collecting, and says what to do about it.
func cpuRefusal(err error) (hint string, ok bool) {
	switch {
	case errors.As(err, new(*runner.EscapeError)):
		return "make the command wait for every process it starts, or use --timer wall", true
	case errors.As(err, new(*measure.ChildrenError)):
		return "use --timer wall for a worker that hands its work to other processes", true
	}
	return "", false
}

// failureHint prints a failed command's captured stderr and suggests a fix.
func failureHint(w io.Writer, fe *collect.FailedError) string {
	var xe *runner.ExitError
	if !errors.As(fe, &xe) {
		return ""
	}
	if text := strings.TrimRight(xe.Stderr(), "\n"); text != "" {
		fmt.Fprintf(w, "--- stderr of the failing run ---\n%s\n---\n", text)
	}
	return "fix the command, or pass --ignore-failure to time failing runs too"
}
