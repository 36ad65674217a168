package measure

import (
	"github.com/flybench/flybench/internal/runner"
	"github.com/flybench/flybench/pkg/probes"
)

// prepareBatch makes one batch process per case and runs each once (n=1)
// to learn what it reports.
func (m *measurement) prepareBatch(clk probes.Clock) error {
	var found []discovered
	var ops []*batchOp
	for i, s := range m.sides {
		if m.ref != nil && i == len(m.sides)-1 {
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
			return firstRunError(m.caseNames[i], "first batch", err)
		}
		found = append(found, discovered{timer: op.last.Timer, elapsed: op.last.Done != nil && op.last.Done.ElapsedNS != nil, axes: op.last.Axes})
		ops = append(ops, op)
		m.addCase(m.caseNames[i], s.command, argv, "", op, cmd)
		m.cases[len(m.cases)-1].WorkUnits = op.last.WorkUnits
	}
	timer, decls, err := agree(m.caseNames, found)
	if err != nil {
		return err
	}
	for i, op := range ops {
		op.primary = primaryOf(timer)
		m.sources[i] = op
	}
	m.setTimer(timer, decls, "wall time includes process start-up in every batch")
	return nil
}
