package measure

import (
	"fmt"
	"sync"

	"github.com/flybench/flybench/internal/collect"
	"github.com/flybench/flybench/internal/field"
	"github.com/flybench/flybench/internal/workerexec"
)

// checkInvocations refuses process blocks in exec mode, which starts a
// fresh process for every operation already.
func (p *plan) checkInvocations() error {
	if k := p.Invocations; k > 1 && p.Mode == ModeExec {
		return field.Errorf("Invocations", k, "%s %d: exec mode already starts a fresh process per operation; use %s, %s or %s for process blocks",
			field.Name("Invocations"), k, modeName(ModeWorker), modeName(ModeGotest), modeName(ModeBatch))
	}
	return nil
}

// resolveRotation settles Rotate: automatic rotation applies only where
// it can (worker mode, no process blocks, not sequential); a number of
// units per block is refused elsewhere.
func (p *plan) resolveRotation() error {
	n, rotate := p.Rotate, field.Name("Rotate")
	blocked := p.Mode != ModeWorker || p.Invocations > 1 || p.Sequential
	switch {
	case n == collect.AutoRotation && blocked:
		p.Rotate = 0
	case n <= 0:
	case p.Mode != ModeWorker:
		return field.Errorf("Rotate", n, "%s %d: only worker mode keeps a process for the whole run; the other modes start one per batch", rotate, n)
	case p.Invocations > 1:
		return field.Errorf("Rotate", n, "%s %d with %s %d: the blocks start fresh workers already; drop one", rotate, n, field.Name("Invocations"), p.Invocations)
	case p.Sequential:
		return field.Errorf("Rotate", n, "%s %d with %s: process blocks are collected paired or in rounds", rotate, n, field.Name("Sequential"))
	}
	return nil
}

// processPlan is the block plan of a run with process blocks, or nil. In
// worker mode every block starts fresh workers (blockStarter); batch and
// gotest start a process per batch anyway, and their blocks redo warm-up
// and calibration.
func (m *measurement) processPlan(e *collect.Engine, obs *observer) *collect.ProcessPlan {
	if m.Invocations <= 1 {
		return nil
	}
	p := &collect.ProcessPlan{Blocks: collect.Blocks(len(m.cases), m.Invocations, m.Seed)}
	if m.Mode == ModeWorker {
		p.Start = m.blockStarter(e, obs)
	}
	return p
}

// blockStarter restarts the workers for a block and observes the new ones.
func (m *measurement) blockStarter(e *collect.Engine, obs *observer) func(collect.Block) ([]int, error) {
	return func(b collect.Block) ([]int, error) {
		pids, err := m.restartWorkers(b.Order)
		if err != nil {
			return nil, err
		}
		(*obs).Close()
		*obs = m.observer()
		e.Observer = *obs
		return pids, nil
	}
}

// restartWorkers stops every worker and starts fresh ones, a worker at the
// first of its cases in order, and returns each case's worker PID.
func (m *measurement) restartWorkers(order []int) ([]int, error) {
	for _, w := range m.workers {
		_ = w.Close() // a worker's exit on quit is not this block's concern
	}
	m.workers = nil
	started := map[int]*workerexec.Worker{}
	pids := make([]int, len(m.cases))
	for _, c := range order {
		w, err := m.worker(started, m.sides[c])
		if err != nil {
			return nil, err
		}
		op := m.cases[c].Op.(*workerOp)
		if !w.Handshake().HasCase(op.name) {
			return nil, fmt.Errorf("restarted worker %q no longer offers case %q", m.sides[c].command, op.name)
		}
		op.setWorker(w)
		pids[c] = w.Pid()
	}
	m.pids = pids
	return pids, nil
}

// workerRef is a worker that a block restart may replace while Kill, from
// the signal handler's goroutine, reaches for it.
type workerRef struct {
	mu sync.Mutex
	w  *workerexec.Worker
}

func (r *workerRef) get() *workerexec.Worker {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.w
}

func (r *workerRef) set(w *workerexec.Worker) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.w = w
}
