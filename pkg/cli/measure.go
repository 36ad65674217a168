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

	"github.com/flybench/flybench/pkg/analyze"
	"github.com/flybench/flybench/pkg/axes"
	"github.com/flybench/flybench/pkg/claim"
	"github.com/flybench/flybench/pkg/collect"
	"github.com/flybench/flybench/pkg/conditions"
	"github.com/flybench/flybench/pkg/custom"
	"github.com/flybench/flybench/pkg/ndjson"
	"github.com/flybench/flybench/pkg/observe"
	"github.com/flybench/flybench/pkg/platform"
	"github.com/flybench/flybench/pkg/probes"
	"github.com/flybench/flybench/pkg/progress"
	"github.com/flybench/flybench/pkg/runner"
	"github.com/flybench/flybench/pkg/version"
	"github.com/flybench/flybench/pkg/workerexec"
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
			"Each case calibrates its own batch toward an equal timed slice unless --shared-iterations.\n\n"+
			measureDescription)
	app.Flags = measureFlags(true)
	app.Action = func(c *ucli.Context) error { return measure(c, env, "fb-pair", 2, collect.MaxCases) }
	return app
}

// measure is the action of fb-sample and fb-pair.
func measure(c *ucli.Context, env Env, tool string, least, most int) error {
	mode, err := modeOf(c)
	if err != nil {
		return err
	}
	commands := c.Args().Slice()
	if len(commands) == 0 {
		return usageErrorf("no command given: %s takes %s", tool, countText(least, most))
	}
	timer, err := timerChoice(c, mode)
	if err != nil {
		return err
	}
	sides, err := sidesOf(mode, commands, c.StringSlice("case"))
	if err != nil {
		return err
	}
	if len(sides) < least || len(sides) > most {
		if mode == "worker" {
			return usageErrorf("%d sides (commands × --case): %s takes %s; one worker with several cases needs a --case for each", len(sides), tool, countText(least, most))
		}
		return usageErrorf("%d commands given: %s takes %s", len(sides), tool, countText(least, most))
	}
	cfg := configFromFlags(c)
	if err := platformRefusal(mode, cfg.Watch.Response, platform.GOOS); err != nil {
		return err
	}
	until, lookOpt, err := untilRecord(c)
	if err != nil {
		return err
	}
	if err := cfg.Validate(len(sides)); err != nil {
		return withCode(ExitUsage, err, "")
	}
	names, err := caseNames(c.StringSlice("name"), sideNames(sides))
	if err != nil {
		return err
	}
	if err := checkCPUSides(timer, mode, sides, names); err != nil {
		return err
	}
	display, err := progress.ParseMode(c.String("progress"), isTerminal(env.Stderr))
	if err != nil {
		return withCode(ExitUsage, err, "")
	}
	require := c.Generic("require-perf").(*requirePerf).mode
	selected, err := selectAxes(c.String("metrics"), require)
	if err != nil {
		return withCode(ExitUsage, err, "")
	}
	cond, condOn, err := conditionsPolicy(c)
	if err != nil {
		return err
	}
	// A claim inherited from fb-lock stays held by this tool but is never
	// passed to the commands it starts, which might outlive the run.
	if err := claim.ProtectFDs(env.Getenv); err != nil {
		return fmt.Errorf("inherited host claim: %w", err)
	}
	m := &measurement{c: c, env: env, tool: tool, cfg: cfg, axes: selected, require: require, cond: cond, condOn: condOn, mode: mode,
		timing: timer, until: until, lookOpt: lookOpt}
	defer m.close()
	if err := m.prepare(sides, names); err != nil {
		return err
	}
	return m.run(progress.New(env.Stderr, display, tool))
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
	c        *ucli.Context
	env      Env
	tool     string
	cfg      collect.Config
	cases    []collect.Case
	commands []*runner.Command
	hooks    collect.Hooks
	record   ndjson.Run
	axes     []axes.Axis
	require  string
	usages   []observe.UsageSource
	cond     conditions.Policy
	condOn   bool
	mode     string
	sources  []observe.CustomSource
	customs  []custom.Descriptor
	timer    *ndjson.Timer
	timing   string // --timer: auto, wall or cpu
	pids     []int
	workers  []*workerexec.Worker
	until    *ndjson.Until
	lookOpt  analyze.Options
}

func (m *measurement) close() {
	for _, cmd := range m.commands {
		cmd.Close()
	}
	for _, w := range m.workers {
		w.Close()
	}
}

// prepare resolves every command and hook, characterizes the clock and
// fills the run record, all before anything is timed.
func (m *measurement) prepare(sides []side, names []string) error {
	clk := probes.SampleClock{}
	var err error
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
	m.hooks = collect.Hooks{
		Setup:   m.hook("setup"),
		Prepare: m.hook("prepare"),
		Cleanup: m.hook("cleanup"),
	}
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

// hook turns a hook flag into a function, or nil when the flag is unset.
func (m *measurement) hook(flag string) func() error {
	text := m.c.String(flag)
	if text == "" {
		return nil
	}
	shell, show, out := m.c.Bool("shell"), m.c.Bool("show-output"), stderrFile(m.env)
	return func() error { return runner.Hook(text, shell, show, out) }
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
		Host: probes.Fingerprint(os.DirFS("/")), Clock: clock, Timer: m.timer,
	}
	rc := &m.record.Config
	rc.Shell, rc.IgnoreFailure, rc.ShowOutput = m.c.Bool("shell"), m.c.Bool("ignore-failure"), m.c.Bool("show-output")
	rc.Prepare, rc.Setup, rc.Cleanup = m.c.String("prepare"), m.c.String("setup"), m.c.String("cleanup")
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
	defer obs.Close()
	m.record.Axes = obs.Infos()
	e := &collect.Engine{
		Config: m.cfg, Cases: m.cases, Hooks: m.hooks, Clock: probes.SampleClock{},
		Out: ndjson.NewWriter(m.env.Stdout), Progress: disp, Run: m.record, Observer: obs,
		SelfTimer: m.timer.KindOf() == ndjson.TimerSelf, CPUTimer: m.timer.KindOf() == ndjson.TimerCPU,
	}
	if m.cfg.Watch.Response != "" {
		e.Monitor, e.Run.Config.Watch = m.monitor(watched), watchConfig(m.cfg.Watch)
	}
	if m.until != nil {
		e.Run.Config.Until, e.Judge = m.until, judge(m.lookOpt)
	}
	m.attachConditions(e)
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
	if m.c.Int("cpu") >= 0 {
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
