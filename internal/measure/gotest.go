package measure

import (
	"fmt"

	"github.com/flybench/flybench/internal/custom"
	"github.com/flybench/flybench/internal/gotest"
	"github.com/flybench/flybench/internal/runner"
	"github.com/flybench/flybench/internal/wproto"
	"github.com/flybench/flybench/pkg/ndjson"
	"github.com/flybench/flybench/pkg/probes"
)

// prepareGotest makes each side a Go test benchmark run per batch and runs
// it once (n=1) to learn its units.
func (m *measurement) prepareGotest(clk probes.Clock) error {
	var results []gotest.Result
	var ops []*gotestOp
	for i, s := range m.sides {
		spec, err := m.gotestSpec(s.command)
		if err != nil {
			return m.errorf("Commands", s.command, "side %d %q: %v", i+1, s.command, err)
		}
		argv := batchTemplate(spec)
		cmd, err := runner.New(runner.Options{Argv: argv, Dir: spec.Dir, Batch: true, OutputToReport: true, ReadIO: m.wantsIO(), Peak: m.wantsPeak(), Charged: m.wantsCharged(), KillSurvivors: true})
		if err != nil {
			return &CommandError{Err: fmt.Errorf("side %d %q: %w", i+1, s.command, err)}
		}
		m.commands = append(m.commands, cmd)
		op := &gotestOp{cmd: cmd, spec: spec, clk: clk}
		if _, err := op.Run(1); err != nil {
			return &CommandError{Err: fmt.Errorf("%s: first batch: %w", m.caseNames[i], err)}
		}
		results, ops = append(results, op.last), append(ops, op)
		m.addCase(m.caseNames[i], s.command, argv, spec.Dir, op, cmd)
	}
	decls := gotest.Axes(results...)
	if err := custom.ValidateSet(decls); err != nil {
		return &CommandError{Err: err}
	}
	for i, op := range ops {
		op.decls, m.sources[i] = decls, op
	}
	m.setTimer(&ndjson.Timer{Kind: "self", Axis: wproto.ElapsedField, Source: gotest.TimerSource,
		ResolutionNS: gotest.TimerResolutionNS, Note: gotest.TimerNote}, decls,
		"wall time includes the test binary's start-up in every batch")
	return nil
}

// gotestSpec reads a side, BINARY or BINARY:BenchmarkName, with the
// options every test binary gets.
func (m *measurement) gotestSpec(arg string) (gotest.Spec, error) {
	spec, err := gotest.ParseSide(arg)
	if err != nil {
		return spec, err
	}
	if spec.Bench == "" {
		spec.Bench = m.Command.GotestBench
	}
	spec.Benchmem, spec.CPU, spec.Dir = m.Command.GotestBenchmem, m.Command.GotestCPU, m.Command.GotestDir
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
