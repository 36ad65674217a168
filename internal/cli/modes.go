package cli

import (
	"fmt"
	"reflect"
	"strings"
	"time"

	ucli "github.com/urfave/cli/v2"

	"github.com/flybench/flybench/internal/collect"
	"github.com/flybench/flybench/internal/custom"
	"github.com/flybench/flybench/internal/gotest"
	"github.com/flybench/flybench/internal/observe"
	"github.com/flybench/flybench/internal/runner"
	"github.com/flybench/flybench/internal/workerexec"
	"github.com/flybench/flybench/internal/wproto"
	"github.com/flybench/flybench/pkg/ndjson"
	"github.com/flybench/flybench/pkg/probes"
)

// modeFlags select how an operation executes.
func modeFlags() []ucli.Flag {
	return []ucli.Flag{
		&ucli.BoolFlag{Name: "batch", Usage: "one process per batch performs N operations itself: {n} in the command and FLYBENCH_N give N; it may report its own elapsed time and custom axes on fd 3 (man fb-worker(7))"},
		&ucli.BoolFlag{Name: "worker", Usage: "each command is a long-lived worker speaking the flybench worker protocol (man fb-worker(7)); --case picks its cases; Linux only"},
		&ucli.StringSliceFlag{Name: "case", Usage: "--worker: a case to run, in order (one command with several cases, several commands with one case, or one case per command)"},
		&ucli.DurationFlag{Name: "worker-timeout", Value: 60 * time.Second, Usage: "--worker: longest wait for one answer"},
		&ucli.DurationFlag{Name: "worker-start-timeout", Value: 10 * time.Second, Usage: "--worker: longest wait for the handshake"},
		&ucli.BoolFlag{Name: "gotest", Usage: "each command is BINARY:BenchmarkName of a compiled Go test binary (go test -c); Go's ns/op is the timer, B/op, allocs/op and ReportMetric units are custom axes (man fb-gotest(7))"},
		&ucli.StringFlag{Name: "gotest-bench", Usage: "--gotest: the benchmark for sides given as a bare binary"},
		&ucli.BoolFlag{Name: "gotest-benchmem", Value: true, Usage: "--gotest: pass -test.benchmem (B/op and allocs/op)"},
		&ucli.IntFlag{Name: "gotest-cpu", Usage: "--gotest: pass -test.cpu=K (GOMAXPROCS of the benchmark); 0 leaves it to the binary"},
		&ucli.StringFlag{Name: "gotest-dir", Usage: "--gotest: working directory of the test binaries (default: the current one)"},
	}
}

// side is one measured case: a command, and for workers the case in it.
type side struct {
	command string
	name    string // worker case
	worker  int    // which worker process: sides of one command share one
}

// modeOf reads which execution mode the flags select.
func modeOf(c *ucli.Context) (string, error) {
	var set []string
	for _, m := range []string{"batch", "worker", "gotest"} {
		if c.Bool(m) {
			set = append(set, m)
		}
	}
	switch {
	case len(set) > 1:
		return "", usageErrorf("--%s: choose one execution mode", strings.Join(set, " and --"))
	case len(set) == 0:
		if len(c.StringSlice("case")) > 0 {
			return "", usageErrorf("--case needs --worker")
		}
		return "exec", nil
	case set[0] == "gotest" && (c.Bool("shell") || c.Bool("ignore-failure")):
		return "", usageErrorf("--gotest runs test binaries directly: drop --shell and --ignore-failure")
	}
	return set[0], nil
}

// sidesOf pairs commands with worker cases: one command with several
// cases, several commands with one case (or none: the worker's only case),
// or one case per command.
func sidesOf(mode string, commands, cases []string) ([]side, error) {
	if mode != "worker" {
		out := make([]side, len(commands))
		for i, c := range commands {
			out[i] = side{command: c, worker: i}
		}
		return out, nil
	}
	switch {
	case len(commands) == 1 && len(cases) > 0:
		out := make([]side, len(cases))
		for i, k := range cases {
			out[i] = side{command: commands[0], name: k}
		}
		return out, nil
	case len(cases) <= 1 || len(cases) == len(commands):
		out := make([]side, len(commands))
		for i, c := range commands {
			out[i] = side{command: c, worker: i}
			if len(cases) == 1 {
				out[i].name = cases[0]
			} else if len(cases) > 1 {
				out[i].name = cases[i]
			}
		}
		return out, nil
	}
	return nil, usageErrorf("%d commands and %d --case values: give one command with several cases, several commands with one case, or one case per command", len(commands), len(cases))
}

// sideNames are the default case names: the command, or for a worker run
// with one command, the case.
func sideNames(sides []side) []string {
	out := make([]string, len(sides))
	oneCommand := len(sides) > 1 && sides[0].worker == sides[len(sides)-1].worker
	for i, s := range sides {
		switch {
		case s.name != "" && oneCommand:
			out[i] = s.name
		case s.name != "" && !sameCase(sides):
			out[i] = s.command + ":" + s.name
		default:
			out[i] = s.command
		}
	}
	return out
}

func sameCase(sides []side) bool {
	for _, s := range sides {
		if s.name != sides[0].name {
			return false
		}
	}
	return true
}

// discovered is what the first, untimed batch of every side declared.
type discovered struct {
	timer   *wproto.Timer
	elapsed bool // the sides report elapsed_ns
	axes    []custom.Descriptor
}

// agree checks that every side declared the same timer and axes, and that
// all or none report their elapsed time; it returns the run's timer.
func agree(names []string, found []discovered) (*ndjson.Timer, []custom.Descriptor, error) {
	first := found[0]
	for i, f := range found[1:] {
		if !reflect.DeepEqual(f.axes, first.axes) {
			return nil, nil, fmt.Errorf("%s declares other custom axes than %s: both sides must declare the same", names[i+1], names[0])
		}
		if f.elapsed != first.elapsed {
			return nil, nil, fmt.Errorf("%s and %s disagree on reporting elapsed_ns: the timer must be the same on every side", names[0], names[i+1])
		}
	}
	if err := custom.ValidateSet(first.axes); err != nil {
		return nil, nil, err
	}
	return timerOf(first), first.axes, nil
}

// timerOf is the run's timer: a primary custom axis, elapsed_ns, or wall.
func timerOf(f discovered) *ndjson.Timer {
	for _, d := range f.axes {
		if d.Primary {
			return &ndjson.Timer{Kind: "self", Axis: d.Name, Source: d.Source, ResolutionNS: d.Resolution}
		}
	}
	if !f.elapsed {
		return nil
	}
	t := &ndjson.Timer{Kind: "self", Axis: wproto.ElapsedField}
	if f.timer != nil {
		t.Source, t.ResolutionNS = f.timer.Source, f.timer.ResolutionNS
	}
	return t
}

// primaryOf is the primary custom axis's name, or "" for elapsed_ns.
func primaryOf(t *ndjson.Timer) string {
	if t == nil || t.Axis == wproto.ElapsedField {
		return ""
	}
	return t.Axis
}

// prepareBatch makes one batch process per case and runs each once (n=1)
// to learn what it reports.
func (m *measurement) prepareBatch(sides []side, names []string, clk probes.Clock) error {
	var found []discovered
	var ops []*batchOp
	for i, s := range sides {
		if m.ref != nil && i == len(sides)-1 {
			var err error
			if s, err = m.batchReference(s, found[0]); err != nil {
				return err
			}
		}
		cmd, argv, err := m.newCommand(i, s.command, runner.Options{Batch: true})
		if err != nil {
			return err
		}
		op := &batchOp{cmd: cmd, clk: clk}
		if _, err := op.Run(1); err != nil {
			return firstRunError(names[i], "first batch", err)
		}
		found = append(found, discovered{timer: op.last.Timer, elapsed: op.last.Done != nil && op.last.Done.ElapsedNS != nil, axes: op.last.Axes})
		ops = append(ops, op)
		m.addCase(names[i], s.command, argv, op, cmd)
		m.cases[len(m.cases)-1].WorkUnits = op.last.WorkUnits
	}
	timer, decls, err := agree(names, found)
	if err != nil {
		return withCode(ExitCommandFailed, err, "")
	}
	for i, op := range ops {
		op.primary = primaryOf(timer)
		m.sources[i] = op
	}
	m.setTimer(timer, decls, "wall time includes process start-up in every batch")
	return nil
}

// newCommand splits and prepares command i.
func (m *measurement) newCommand(i int, text string, opts runner.Options) (*runner.Command, []string, error) {
	argv, err := runner.Split(text, m.flags.shell)
	if err != nil {
		return nil, nil, withCode(ExitUsage, fmt.Errorf("command %d %q: %w", i+1, text, err), "")
	}
	opts.Argv, opts.ShowOutput, opts.Output = argv, m.flags.showOutput, stderrFile(m.env)
	opts.Env = m.commandEnv()
	opts.IgnoreFailure, opts.ReadIO = m.flags.ignoreFailure, m.wantsIO()
	opts.Contain = m.timing == timerCPU
	m.stdioOptions(&opts)
	cmd, err := runner.New(opts)
	if err != nil {
		return nil, nil, withCode(ExitCommandFailed, fmt.Errorf("command %d %q: %w", i+1, text, err), "")
	}
	m.commands = append(m.commands, cmd)
	return cmd, argv, nil
}

// addCase records a prepared case.
func (m *measurement) addCase(name, command string, argv []string, op collect.Operation, usage observe.UsageSource) {
	m.cases = append(m.cases, collect.Case{Name: name, Command: command, Argv: argv, Op: op})
	m.usages = append(m.usages, usage)
	m.sources = append(m.sources, nil)
}

// setTimer records the run's timer and custom axes. t is the timer the
// cases report themselves, or nil; --timer cpu replaces it with their CPU
// time and --timer wall with the harness's clock. A wall timer's note says
// what wall time includes (wallIncludes).
func (m *measurement) setTimer(t *ndjson.Timer, decls []custom.Descriptor, wallIncludes string) {
	m.customs = decls
	switch {
	case m.timing == timerCPU:
		t, m.customs = cpuTimer(m.mode, t), notPrimary(decls)
	case m.timing == timerWall && t != nil:
		m.timer, m.customs = &ndjson.Timer{Kind: "wall", Note: "--timer wall: " + wallIncludes + "; " + notUsed(t)}, notPrimary(decls)
		return
	case t == nil:
		t = &ndjson.Timer{Kind: "wall", Note: m.mode + " mode without a self-reported time: " + wallIncludes}
	}
	m.timer = t
}

// prepareGotest makes each side a Go test benchmark run per batch and runs
// it once (n=1) to learn its units.
func (m *measurement) prepareGotest(sides []side, names []string, clk probes.Clock) error {
	var results []gotest.Result
	var ops []*gotestOp
	for i, s := range sides {
		spec, err := m.gotestSpec(s.command)
		if err != nil {
			return withCode(ExitUsage, fmt.Errorf("side %d %q: %w", i+1, s.command, err), "")
		}
		argv := batchTemplate(spec)
		cmd, err := runner.New(runner.Options{Argv: argv, Dir: spec.Dir, Batch: true, OutputToReport: true, ReadIO: m.wantsIO()})
		if err != nil {
			return withCode(ExitCommandFailed, fmt.Errorf("side %d %q: %w", i+1, s.command, err), "")
		}
		m.commands = append(m.commands, cmd)
		op := &gotestOp{cmd: cmd, spec: spec, clk: clk}
		if _, err := op.Run(1); err != nil {
			return withCode(ExitCommandFailed, fmt.Errorf("%s: first batch: %w", names[i], err), "")
		}
		results, ops = append(results, op.last), append(ops, op)
		m.addCase(names[i], s.command, argv, op, cmd)
	}
	decls := gotest.Axes(results...)
	if err := custom.ValidateSet(decls); err != nil {
		return withCode(ExitCommandFailed, err, "")
	}
	for i, op := range ops {
		op.decls, m.sources[i] = decls, op
	}
	m.setTimer(&ndjson.Timer{Kind: "self", Axis: wproto.ElapsedField, Source: gotest.TimerSource,
		ResolutionNS: gotest.TimerResolutionNS, Note: gotest.TimerNote}, decls,
		"wall time includes the test binary's start-up in every batch")
	return nil
}

func (m *measurement) gotestSpec(arg string) (gotest.Spec, error) {
	spec, err := gotest.ParseSide(arg)
	if err != nil {
		return spec, err
	}
	if spec.Bench == "" {
		spec.Bench = m.flags.gotestBench
	}
	spec.Benchmem, spec.CPU, spec.Dir = m.flags.gotestBenchmem, m.flags.gotestCPU, m.flags.gotestDir
	return spec, spec.Validate()
}

// batchTemplate is the side's argv with {n} where the iteration count goes.
func batchTemplate(spec gotest.Spec) []string {
	argv := spec.Argv(1)
	for i, a := range argv {
		if a == "-test.benchtime=1x" {
			argv[i] = "-test.benchtime=" + runner.Placeholder + "x"
		}
	}
	return argv
}

// prepareWorker starts one worker per distinct command, checks the cases
// asked for, and runs each side once (n=1) to learn whether it reports its
// own time.
func (m *measurement) prepareWorker(sides []side, names []string, clk probes.Clock) error {
	started := map[int]*workerexec.Worker{}
	var found []discovered
	var sizeIndependent []bool
	for i, s := range sides {
		w, err := m.worker(started, s)
		if err != nil {
			return err
		}
		h := w.Handshake()
		if s.name == "" {
			if len(h.Cases) != 1 {
				return usageErrorf("worker %q offers %d cases (%s): name one with --case", s.command, len(h.Cases), strings.Join(h.Cases, ", "))
			}
			s.name = h.Cases[0]
		}
		if !h.HasCase(s.name) {
			return usageErrorf("worker %q has no case %q (it offers %s)", s.command, s.name, strings.Join(h.Cases, ", "))
		}
		op := &workerOp{name: s.name, clk: clk}
		op.setWorker(w)
		if m.timing == timerCPU {
			op.meter = &procMeter
		}
		if _, err := op.Run(1); err != nil {
			return firstRunError(names[i], "first request", err)
		}
		if op.meter != nil {
			if err := checkWorkerChildren(w); err != nil {
				return err
			}
		}
		found = append(found, discovered{timer: h.Timer, elapsed: op.last.ElapsedNS != nil, axes: h.Axes})
		sizeIndependent = append(sizeIndependent, h.EqualTime[s.name])
		m.cases = append(m.cases, collect.Case{Name: names[i], Command: s.command, Argv: w.Argv(), Op: op, WorkUnits: h.WorkUnits[s.name]})
		m.sources, m.pids = append(m.sources, op), append(m.pids, w.Pid())
	}
	timer, decls, err := agree(names, found)
	if err != nil {
		return withCode(ExitCommandFailed, err, "")
	}
	for _, c := range m.cases {
		c.Op.(*workerOp).primary = primaryOf(timer)
	}
	m.resolveBatching(sizeIndependent)
	m.setTimer(timer, decls, "wall time includes each request's round trip")
	return nil
}

// worker starts the side's worker once and reuses it for the other cases
// of the same command argument.
func (m *measurement) worker(started map[int]*workerexec.Worker, s side) (*workerexec.Worker, error) {
	if w := started[s.worker]; w != nil {
		return w, nil
	}
	command := s.command
	argv, err := runner.Split(command, m.flags.shell)
	if err != nil {
		return nil, withCode(ExitUsage, fmt.Errorf("worker %q: %w", command, err), "")
	}
	w, err := workerexec.Start(workerexec.Options{
		Argv: argv, StartTimeout: m.flags.workerStart, RequestTimeout: m.flags.workerRequest,
		ShowStderr: m.flags.showOutput, Stderr: stderrFile(m.env),
	})
	if err != nil {
		return nil, withCode(ExitCommandFailed, err, "")
	}
	started[s.worker] = w
	m.workers = append(m.workers, w)
	return w, nil
}
