package measure

import (
	"strings"

	"github.com/flybench/flybench/internal/collect"
	"github.com/flybench/flybench/internal/field"
	"github.com/flybench/flybench/internal/runner"
	"github.com/flybench/flybench/internal/workerexec"
	"github.com/flybench/flybench/internal/wproto"
	"github.com/flybench/flybench/pkg/probes"
)

// prepareWorker starts one worker per distinct command, checks the cases
// asked for, and runs each side once (n=1) to learn whether it reports its
// own time.
func (m *measurement) prepareWorker(clk probes.Clock) error {
	started := map[int]*workerexec.Worker{}
	var found []discovered
	var sizeIndependent []bool
	for i, s := range m.sides {
		f, equal, err := m.prepareWorkerSide(i, s, started, clk)
		if err != nil {
			return err
		}
		found, sizeIndependent = append(found, f), append(sizeIndependent, equal)
	}
	timer, decls, err := agree(m.caseNames, found)
	if err != nil {
		return err
	}
	for _, c := range m.cases {
		c.Op.(*workerOp).primary = primaryOf(timer)
	}
	m.resolveBatching(sizeIndependent)
	m.setTimer(timer, decls, "wall time includes each request's round trip")
	return nil
}

// prepareWorkerSide makes side i a case of its worker and runs its first
// request: what it declared, and whether its cost is independent of the
// batch size.
func (m *measurement) prepareWorkerSide(i int, s side, started map[int]*workerexec.Worker, clk probes.Clock) (discovered, bool, error) {
	w, err := m.worker(started, s)
	if err != nil {
		return discovered{}, false, err
	}
	h := w.Handshake()
	if s.name, err = m.workerCase(s, h); err != nil {
		return discovered{}, false, err
	}
	op := &workerOp{name: s.name, clk: clk}
	op.setWorker(w)
	if m.Timer == TimerCPU {
		meter := procMeter
		meter.names, op.meter = m.env.Names, &meter
	}
	if _, err := op.Run(1); err != nil {
		return discovered{}, false, firstRunError(m.caseNames[i], "first request", err)
	}
	if op.meter != nil {
		if err := m.checkWorkerChildren(w); err != nil {
			return discovered{}, false, err
		}
	}
	m.cases = append(m.cases, collect.Case{Name: m.caseNames[i], Command: s.command, Argv: w.Argv(), Op: op, WorkUnits: h.WorkUnits[s.name],
		Program: programOf(w.Argv(), "")})
	m.sources, m.pids = append(m.sources, op), append(m.pids, w.Pid())
	return discovered{timer: h.Timer, elapsed: op.last.ElapsedNS != nil, axes: h.Axes}, h.EqualTime[s.name], nil
}

// workerCase is the side's case among those its worker offers: the one
// asked for, or the worker's only one.
func (m *measurement) workerCase(s side, h wproto.Handshake) (string, error) {
	offered := strings.Join(h.Cases, ", ")
	switch {
	case s.name == "" && len(h.Cases) != 1:
		return "", m.errorf("Cases", s.command, "worker %q offers %d cases (%s): name one with %s", s.command, len(h.Cases), offered, field.Name("Cases"))
	case s.name == "":
		return h.Cases[0], nil
	case !h.HasCase(s.name):
		return "", m.errorf("Cases", s.name, "worker %q has no case %q (it offers %s)", s.command, s.name, offered)
	}
	return s.name, nil
}

// worker starts the side's worker once and reuses it for the other cases
// of the same command argument.
func (m *measurement) worker(started map[int]*workerexec.Worker, s side) (*workerexec.Worker, error) {
	if w := started[s.worker]; w != nil {
		return w, nil
	}
	command := s.command
	argv, err := runner.Split(command, m.Command.Shell)
	if err != nil {
		return nil, m.errorf("Commands", command, "worker %q: %v", command, runner.Spelled(err, m.env.Names))
	}
	w, err := workerexec.Start(workerexec.Options{
		Argv: argv, StartTimeout: m.Command.WorkerStart, RequestTimeout: m.Command.WorkerRequest,
		ShowStderr: m.Command.ShowOutput, Stderr: m.env.stderrFile(),
	})
	if err != nil {
		return nil, &CommandError{Err: err}
	}
	started[s.worker] = w
	m.workers = append(m.workers, w)
	return w, nil
}
