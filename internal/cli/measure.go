package cli

import (
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime"
	"strings"
	"syscall"
	"time"

	"github.com/google/uuid"
	ucli "github.com/urfave/cli/v2"

	"github.com/flybench/flybench/internal/analyze"
	"github.com/flybench/flybench/internal/axes"
	"github.com/flybench/flybench/internal/claim"
	"github.com/flybench/flybench/internal/collect"
	"github.com/flybench/flybench/internal/conditions"
	"github.com/flybench/flybench/internal/custom"
	"github.com/flybench/flybench/internal/observe"
	"github.com/flybench/flybench/internal/platform"
	"github.com/flybench/flybench/internal/progress"
	"github.com/flybench/flybench/internal/runner"
	"github.com/flybench/flybench/internal/version"
	"github.com/flybench/flybench/internal/workerexec"
	"github.com/flybench/flybench/pkg/ndjson"
	"github.com/flybench/flybench/pkg/probes"
)

const measureDescription = `Writes the record stream (man fb-stream(5)) to stdout; progress goes to stderr.
Exit status: 0 complete (or stopped by --max-sampling-time), 2 usage, 5 a command or hook failed,
7 --require-perf found a hardware axis without samples, 8 operating conditions unacceptable
(--conditions fail), 9 --require-strict placement unavailable, 130/143 interrupted by SIGINT/SIGTERM
(the stream still ends with an end record).`

func sampleApp(env Env) *ucli.App {
	app := newApp(env, "fb-sample", "measure one command's time per run",
		"[--] COMMAND", "Warms, calibrates and times batches of runs of one command.\n\n"+measureDescription)
	app.Flags = measureFlags(false)
	app.Action = func(c *ucli.Context) error { return measure(c, env, "fb-sample", 1, 1) }
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
	app.Action = func(c *ucli.Context) error { return measure(c, env, "fb-pair", 2, collect.MaxCases) }
	return app
}

// measureRequest is everything an fb-sample or fb-pair invocation asks
// for, read from its flags and arguments once and checked: the rest of
// the tool works from it, never from the command line.
type measureRequest struct {
	tool    string
	mode    string // exec, batch, worker or gotest
	sides   []side
	names   []string
	timing  string // --timer: auto, wall or cpu
	cfg     collect.Config
	until   *ndjson.Until
	lookOpt analyze.Options
	display progress.Mode
	require string
	axes    []axes.Axis
	cond    conditions.Policy
	condOn  bool
	flags   commandFlags
	stdio   stdioFlags // --input, --output
	tags    map[string]string
	// aa is --aa, the number of A/A runs, 0 without it; series is this
	// run's place in the series.
	aa     int
	series *ndjson.AASeries
	// batchingAuto is set when --batching was left to the mode
	// (resolveBatching).
	batchingAuto bool
	// workUnits is --work-units: one value for every command, or one
	// per command; nil when not given.
	workUnits []float64

	// counters are the counter axes asked for (counters.go).
	counters []axes.Axis
	ref      *reference // --reference, or nil
	// resume is --resume, or nil.
	resume *resumeRequest
	// params are each scanned case's parameter values (--parameter-scan,
	// --parameter-list), in case order; nil without a scan.
	params []map[string]string
}

// commandFlags say how the commands and hooks are run.
type commandFlags struct {
	shell, ignoreFailure, showOutput bool
	hooks                            caseHooks
	cpu                              int // --cpu; -1 unplaced
	requireStrict                    bool
	gotestBench, gotestDir           string
	gotestBenchmem                   bool
	gotestCPU                        int
	workerStart, workerRequest       time.Duration
}

func commandFlagsOf(c *ucli.Context) commandFlags {
	return commandFlags{
		shell: c.Bool("shell"), ignoreFailure: c.Bool("ignore-failure"), showOutput: c.Bool("show-output"),
		cpu: c.Int("cpu"), requireStrict: c.Bool("require-strict"),
		gotestBench: c.String("gotest-bench"), gotestDir: c.String("gotest-dir"),
		gotestBenchmem: c.Bool("gotest-benchmem"), gotestCPU: c.Int("gotest-cpu"),
		workerStart: c.Duration("worker-start-timeout"), workerRequest: c.Duration("worker-timeout"),
	}
}

// measure is the action of fb-sample and fb-pair: parse, then run.
func measure(c *ucli.Context, env Env, tool string, least, most int) error {
	req, err := parseMeasure(c, env, tool, least, most)
	if err != nil {
		return err
	}
	return runMeasure(req, env)
}

// parseMeasure reads and checks an invocation's flags and arguments.
func parseMeasure(c *ucli.Context, env Env, tool string, least, most int) (*measureRequest, error) {
	r := &measureRequest{tool: tool, flags: commandFlagsOf(c)}
	var err error
	if r.mode, err = modeOf(c); err != nil {
		return nil, err
	}
	if r.ref, err = referenceOf(c, r.mode); err != nil {
		return nil, err
	}
	if r.ref != nil {
		most = min(most, collect.MaxCases-1)
	}
	commands := c.Args().Slice()
	if len(commands) == 0 {
		return nil, usageErrorf("no command given: %s takes %s", tool, countText(least, most))
	}
	var scanNames []string
	if commands, scanNames, r.params, err = expandScan(c, r.mode, commands, least, most); err != nil {
		return nil, err
	}
	given := c.StringSlice("name")
	if tool == "fb-pair" {
		if r.aa, commands, err = aaOf(c, commands, scanNames != nil); err != nil {
			return nil, err
		}
		if r.aa > 0 {
			given = aaNames(given)
		}
	}
	if r.timing, err = timerChoice(c, r.mode); err != nil {
		return nil, err
	}
	if r.sides, err = sidesOf(r.mode, commands, c.StringSlice("case")); err != nil {
		return nil, err
	}
	if len(r.sides) < least || len(r.sides) > most {
		if r.mode == "worker" {
			return nil, usageErrorf("%d sides (commands × --case): %s takes %s; one worker with several cases needs a --case for each", len(r.sides), tool, countText(least, most))
		}
		return nil, usageErrorf("%d commands given: %s takes %s", len(r.sides), tool, countText(least, most))
	}
	r.cfg = configFromFlags(c)
	if tool == "fb-pair" {
		if r.cfg.Batching, r.batchingAuto, err = batchingOf(c); err != nil {
			return nil, err
		}
	}
	if r.cfg.Invocations, err = invocationsOf(c, r.mode); err != nil {
		return nil, err
	}
	if tool == "fb-pair" {
		if r.cfg.Rotate, err = rotateOf(c, r.mode, r.cfg); err != nil {
			return nil, err
		}
	}
	if r.cfg.RandomizeLayout, err = layoutOf(c, r.mode); err != nil {
		return nil, err
	}
	if r.resume, err = resumeOf(c, r.cfg.Invocations); err != nil {
		return nil, err
	}
	if err := platformRefusal(r.mode, r.cfg.Watch.Response, platform.GOOS); err != nil {
		return nil, err
	}
	if r.until, r.lookOpt, err = untilRecord(c); err != nil {
		return nil, err
	}
	if r.names, err = caseNames(given, orDefault(scanNames, sideNames(r.sides))); err != nil {
		return nil, err
	}
	if err := r.addReference(len(given)); err != nil {
		return nil, err
	}
	if err := r.cfg.Validate(len(r.sides)); err != nil {
		return nil, fieldUsage(err)
	}
	if err := checkCPUSides(r.timing, r.mode, r.sides, r.names); err != nil {
		return nil, err
	}
	if r.display, err = progress.ParseMode(c.String("progress"), isTerminal(env.Stderr)); err != nil {
		return nil, withCode(ExitUsage, err, "")
	}
	r.require = c.Generic("require-perf").(*requirePerf).mode
	if r.axes, r.counters, err = selectAxes(c.String("metrics"), r.require); err != nil {
		return nil, withCode(ExitUsage, err, "")
	}
	if r.cond, r.condOn, err = conditionsPolicy(c); err != nil {
		return nil, err
	}
	if r.tags, err = tagsOf(c.StringSlice("tag")); err != nil {
		return nil, err
	}
	if r.workUnits, err = workUnitsOf(c.StringSlice("work-units"), r.measuredSides()); err != nil {
		return nil, err
	}
	if r.stdio, err = stdioOf(c, r.mode); err != nil {
		return nil, err
	}
	if r.flags.hooks, err = hooksOf(c, r.measuredSides(), r.params); err != nil {
		return nil, err
	}
	return r, nil
}

// runMeasure collects the run a request describes, or its A/A series.
func runMeasure(r *measureRequest, env Env) error {
	if r.aa > 0 {
		return runSeries(r, env)
	}
	return measureOnce(r, env, r.tool)
}

// measureOnce collects one run; label names it on the progress display.
func measureOnce(r *measureRequest, env Env, label string) error {
	// A claim inherited from fb-lock stays held by this tool but is never
	// passed to the commands it starts, which might outlive the run.
	if err := claim.ProtectFDs(env.Getenv); err != nil {
		return fmt.Errorf("inherited host claim: %w", err)
	}
	m := &measurement{measureRequest: r, env: env}
	defer m.close()
	if err := m.prepare(r.sides, r.names); err != nil {
		return err
	}
	if r.resume != nil {
		s, err := m.openSession()
		if err != nil {
			return err
		}
		defer s.close()
		m.session = s
	}
	return m.run(display(r, env, label))
}

func countText(least, most int) string {
	if least == most {
		return fmt.Sprintf("exactly %d (quote each command as one argument)", least)
	}
	return fmt.Sprintf("%d to %d (quote each command as one argument)", least, most)
}

// caseNames pairs --name values with commands; unnamed cases are called by
// their command, numbered when two would share a name.
func caseNames(given, commands []string) ([]string, error) {
	if len(given) > len(commands) {
		return nil, usageErrorf("%d --name values for %d commands", len(given), len(commands))
	}
	names := make([]string, len(commands))
	seen := map[string]bool{}
	for i, cmd := range commands {
		name := cmd
		if i < len(given) {
			name = given[i]
			if strings.TrimSpace(name) == "" || seen[name] {
				return nil, usageErrorf("--name %q: names must be non-empty and distinct", name)
			}
		}
		for n := 2; seen[name]; n++ {
			name = fmt.Sprintf("%s (%d)", cmd, n)
		}
		seen[name] = true
		names[i] = name
	}
	return names, nil
}

// measurement holds one fb-sample / fb-pair invocation's resources.
type measurement struct {
	*measureRequest
	env      Env
	cases    []collect.Case
	commands []*runner.Command
	hooks    collect.Hooks
	record   ndjson.Run
	usages   []observe.UsageSource
	sources  []observe.CustomSource
	customs  []custom.Descriptor
	timer    *ndjson.Timer
	pids     []int
	workers  []*workerexec.Worker
	session  *session // --resume
	// stdout is the commands' stdout (--output FILE or inherit), nil for
	// /dev/null or a drained pipe; outFile is it when this tool opened it.
	stdout, outFile *os.File
}

func (m *measurement) close() {
	for _, cmd := range m.commands {
		cmd.Close()
	}
	for _, w := range m.workers {
		w.Close()
	}
	if m.outFile != nil {
		m.outFile.Close()
	}
}

// prepare resolves every command and hook, characterizes the clock and
// fills the run record, all before anything is timed.
func (m *measurement) prepare(sides []side, names []string) error {
	clk := probes.SampleClock{}
	var err error
	if m.stdout, err = m.stdoutFile(); err != nil {
		return err
	}
	switch m.mode {
	case "batch":
		err = m.prepareBatch(sides, names, clk)
	case "gotest":
		err = m.prepareGotest(sides, names, clk)
	case "worker":
		err = m.prepareWorker(sides, names, clk)
	default:
		err = m.prepareExec(sides, names, clk)
	}
	if err != nil {
		return err
	}
	m.markReference()
	m.markWorkUnits()
	m.markParams()
	m.hooks = m.engineHooks()
	return m.fillRun(clk)
}

// prepareExec makes each command a child process per logical operation.
func (m *measurement) prepareExec(sides []side, names []string, clk probes.Clock) error {
	for i, s := range sides {
		cmd, argv, err := m.newCommand(i, s.command, runner.Options{})
		if err != nil {
			return err
		}
		m.addCase(names[i], s.command, argv, execOp{cmd: cmd, clk: clk}, cmd)
	}
	if m.timing == timerCPU {
		m.setTimer(nil, nil, "")
	}
	return nil
}

// wantsIO reports whether a /proc/PID/io axis was selected.
func (m *measurement) wantsIO() bool {
	for _, a := range m.axes {
		if a.Family == axes.FamilyIO {
			return true
		}
	}
	return false
}

func (m *measurement) fillRun(clk probes.SampleClock) error {
	res, err := clk.Resolution()
	if err != nil {
		return err
	}
	clock := probes.Characterize(clk, clk.Backend(), res, 10000)
	if m.cfg.SubtractTimerCost {
		clock.SubtractNS = clock.ReadMinNS
	}
	m.record = ndjson.Run{
		RunID: uuid.NewString(), Tool: m.tool, ToolVersion: version.Version,
		Started: time.Now().UTC().Format(time.RFC3339Nano), Mode: m.mode,
		Host: probes.Fingerprint(os.DirFS("/")), Clock: clock, Timer: m.timer, Tags: m.tags,
	}
	rc := &m.record.Config
	f := m.flags
	rc.Shell, rc.IgnoreFailure, rc.ShowOutput = f.shell, f.ignoreFailure, f.showOutput
	m.recordHooks(rc)
	rc.Input, rc.Output = m.stdio.input, m.stdio.output
	rc.Layout = m.layoutRecord(osRoot)
	rc.AA = m.series
	for _, a := range m.axes {
		rc.Metrics = append(rc.Metrics, a.Name)
	}
	return nil
}

// run collects, stopping cleanly on SIGINT or SIGTERM. The collecting
// goroutine stays on one OS thread: perf counters are opened on it and
// inherited by the commands it starts.
func (m *measurement) run(disp *progress.Display) error {
	if m.needsThread() {
		runtime.LockOSThread()
		defer runtime.UnlockOSThread()
	}
	watched, err := m.place()
	if err != nil {
		return err
	}
	obs := m.observer()
	defer func() { obs.Close() }()
	m.record.Axes = obs.Infos()
	out := ndjson.NewWriter(m.env.Stdout)
	if m.session != nil {
		out = m.session.w
	}
	e := &collect.Engine{
		Config: m.cfg, Cases: m.cases, Hooks: m.hooks, Clock: probes.SampleClock{},
		Out: out, Progress: disp, Run: m.record, Observer: obs,
		SelfTimer: m.timer.KindOf() == ndjson.TimerSelf, CPUTimer: m.timer.KindOf() == ndjson.TimerCPU,
	}
	if m.cfg.Watch.Response != "" {
		e.Monitor, e.Run.Config.Watch = m.monitor(watched), watchConfig(m.cfg.Watch)
	}
	if m.until != nil {
		e.Run.Config.Until, e.Judge = m.until, judge(m.lookOpt)
	}
	e.Process = m.processPlan(e, &obs)
	if m.cfg.Rotate != 0 {
		e.Rotate = m.blockStarter(e, &obs)
	}
	if m.session != nil {
		m.session.apply(e)
	}
	m.attachConditions(e)
	m.attachCounters(e)
	if names := required(m.require, m.axes); len(names) > 0 {
		e.Check = perfCheck(names, m.record.Axes)
	}
	sigs := make(chan os.Signal, 2)
	signal.Notify(sigs, syscall.SIGINT, syscall.SIGTERM)
	defer signal.Stop(sigs)
	caught := make(chan os.Signal, 1)
	go func() {
		if s, ok := <-sigs; ok {
			caught <- s
			e.Stop("interrupted by " + signalName(s))
		}
	}()
	end, err := e.Collect()
	disp.Close()
	return m.outcome(end, err, caught)
}

// needsThread reports whether the collection must stay on one OS thread:
// when perf counters are inherited from it by the commands it starts, or
// when placement pins it. Otherwise the runtime is left free, which makes
// each fork and wait cheaper. Workers are separate processes: nothing
// inherits from this thread.
func (m *measurement) needsThread() bool {
	if m.mode == "worker" {
		return false
	}
	if m.flags.cpu >= 0 {
		return true
	}
	for _, a := range m.axes {
		if a.Family == axes.FamilyPerf || a.Family == axes.FamilySoftware {
			return true
		}
	}
	return false
}

// observer is the mode's axis observer.
type observer interface {
	collect.Observer
	Infos() []ndjson.AxisInfo
	SelfTimed()
	CPUTimed()
	Close()
}

func (m *measurement) observer() observer {
	var o observer
	if m.mode == "worker" {
		o = observe.NewWorker(m.axes, m.pids, m.customs, m.sources, probes.SampleClock{})
	} else {
		o = observe.NewExec(m.axes, m.usages, probes.SampleClock{}).WithCustom(m.customs, m.sources)
	}
	switch m.timer.KindOf() {
	case ndjson.TimerSelf:
		o.SelfTimed()
	case ndjson.TimerCPU:
		o.CPUTimed()
	}
	return o
}

// outcome turns the engine's result into the tool's error and exit code.
func (m *measurement) outcome(end *ndjson.End, err error, caught chan os.Signal) error {
	if errors.Is(err, collect.ErrInterrupted) {
		code := ExitInterrupted
		select {
		case s := <-caught:
			if s == syscall.SIGTERM {
				code = ExitTerminated
			}
		default:
		}
		return withCode(code, fmt.Errorf("%s: kept %d complete units; the stream ends with an end record", end.Error, end.Units), "")
	}
	if hint, refused := cpuRefusal(err); refused {
		return withCode(ExitUsage, err, hint)
	}
	var ce *collect.ConditionsError
	if errors.As(err, &ce) {
		return withCode(ExitConditions, err, "run where the profile and thermal state are acceptable, or use --conditions observe")
	}
	var re *collect.RequirementError
	if errors.As(err, &re) {
		return withCode(ExitRequirement, err, "run where the PMU is exposed (and perf_event_paranoid allows it), or drop --require-perf")
	}
	var fe *collect.FailedError
	if errors.As(err, &fe) {
		return withCode(ExitCommandFailed, err, failureHint(m.env.Stderr, fe))
	}
	return err
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

func signalName(s os.Signal) string {
	if s == syscall.SIGTERM {
		return "SIGTERM"
	}
	return "SIGINT"
}

// stderrFile is where shown command output goes: the tool's stderr.
func stderrFile(env Env) *os.File {
	if f, ok := env.Stderr.(*os.File); ok {
		return f
	}
	return os.Stderr
}
