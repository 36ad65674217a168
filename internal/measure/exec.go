package measure

import (
	"fmt"

	"github.com/flybench/flybench/internal/collect"
	"github.com/flybench/flybench/internal/observe"
	"github.com/flybench/flybench/internal/runner"
	"github.com/flybench/flybench/pkg/probes"
)

// prepareExec makes each command a child process per logical operation.
func (m *measurement) prepareExec(clk probes.Clock) error {
	for i, s := range m.sides {
		cmd, argv, err := m.newCommand(i, s.command, runner.Options{})
		if err != nil {
			return err
		}
		m.addCase(m.caseNames[i], s.command, argv, "", execOp{cmd: cmd, clk: clk}, cmd)
	}
	if m.Timer == TimerCPU {
		m.setTimer(nil, nil, "")
	}
	return nil
}

// newCommand splits and prepares command i.
func (m *measurement) newCommand(i int, text string, opts runner.Options) (*runner.Command, []string, error) {
	argv, err := runner.Split(text, m.Command.Shell)
	if err != nil {
		return nil, nil, m.errorf("Commands", text, "command %d %q: %v", i+1, text, runner.Spelled(err, m.env.Names))
	}
	opts.Argv, opts.ShowOutput, opts.Output = argv, m.Command.ShowOutput, m.env.stderrFile()
	opts.Env = m.commandEnv()
	opts.IgnoreFailure, opts.ReadIO, opts.Peak, opts.Charged = m.Command.IgnoreFailure, m.wantsIO(), m.wantsPeak(), m.wantsCharged()
	opts.Contain, opts.KillSurvivors = m.Timer == TimerCPU, true
	m.stdioOptions(&opts)
	cmd, err := runner.New(opts)
	if err != nil {
		return nil, nil, &CommandError{Err: fmt.Errorf("command %d %q: %w", i+1, text, err)}
	}
	m.commands = append(m.commands, cmd)
	return cmd, argv, nil
}

// addCase records a prepared case whose argv starts in the working
// directory dir ("" for this process's).
func (m *measurement) addCase(name, command string, argv []string, dir string, op collect.Operation, usage observe.UsageSource) {
	m.cases = append(m.cases, collect.Case{Name: name, Command: command, Argv: argv, Op: op, Program: programOf(argv, dir)})
	m.usages = append(m.usages, usage)
	m.sources = append(m.sources, nil)
}
