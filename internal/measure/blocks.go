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

// resolveRotation settles Rotate: automatic rotation applies in worker
// mode (not with process blocks, not sequential). The modes that start a
// process per batch rotate only when asked for a number of units, and
// only when the run drops its programs' files from the page cache (a
// block is then a fresh read of them): after the first drop, a block
// effect of the draw was not found in exec, batch or gotest runs of real
// programs (README, "A program and its copy"), and the interval over the
// blocks costs 10-25% of width.
func (p *plan) resolveRotation() error {
	n, rotate := p.Rotate, field.Name("Rotate")
	switch {
	case n == collect.AutoRotation && (p.Invocations > 1 || p.Sequential || (p.Mode != ModeWorker && !p.dropsFiles())):
		p.Rotate = 0
	case n <= 0:
	case p.Mode != ModeWorker && !p.dropsFiles():
		return field.Errorf("Rotate", n, "%s %d with %s keep: every batch starts its own process and the programs' files stay cached as found, so a block would start nothing afresh", rotate, n, field.Name("KeepPageCache"))
	case p.Invocations > 1:
		return field.Errorf("Rotate", n, "%s %d with %s %d: the blocks start afresh already; drop one", rotate, n, field.Name("Invocations"), p.Invocations)
	case p.Sequential:
		return field.Errorf("Rotate", n, "%s %d with %s: process blocks are collected paired or in rounds", rotate, n, field.Name("Sequential"))
	}
	return nil
}

// processPlan is the block plan of a run with process blocks, or nil. In
// worker mode every block starts fresh workers (blockStarter); batch and
// gotest start a process per batch anyway, and their blocks redo warm-up
// and calibration, after the programs' files are dropped from the page
// cache when the run drops them (files).
func (m *measurement) processPlan(e *collect.Engine, obs *observer, files []string) *collect.ProcessPlan {
	if m.Invocations <= 1 {
		return nil
	}
	p := &collect.ProcessPlan{Blocks: collect.Blocks(len(m.cases), m.Invocations, m.Seed)}
	switch {
	case m.Mode == ModeWorker:
		p.Start = m.blockStarter(e, obs, files)
	case len(files) > 0:
		p.Start = m.fileRotation(files)
	}
	return p
}

// blockStarter restarts the workers for a block, dropping their files
// from the page cache between the old ones' exit and the new ones' start,
// and observes the new ones.
func (m *measurement) blockStarter(e *collect.Engine, obs *observer, files []string) func(collect.Block) (collect.Started, error) {
	return func(b collect.Block) (collect.Started, error) {
		started, err := m.restartWorkers(b.Order, files, b.Block)
		if err != nil {
			return started, err
		}
		(*obs).Close()
		*obs = m.observer()
		e.Observer = *obs
		return started, nil
	}
}

// restartWorkers stops every worker, drops files from the page cache, and
// starts fresh workers for block, a worker at the first of its cases in
// order; it returns each case's worker PID and what the drop came to.
// After a drop it holds the block's ballast pages (pagecache.Ballast)
// until the Started's Release, or until it fails.
func (m *measurement) restartWorkers(order []int, files []string, block int) (st collect.Started, err error) {
	for _, w := range m.workers {
		_ = w.Close() // a worker's exit on quit is not this block's concern
	}
	m.workers = nil
	if len(files) > 0 {
		st.Dropped, st.Release = dropWithBallast(files, ballastPages(m.Seed, block))
		defer func() {
			if err != nil {
				st.Release()
				st.Release = nil
			}
		}()
	}
	started := map[int]*workerexec.Worker{}
	pids := make([]int, len(m.cases))
	for _, c := range order {
		w, err := m.worker(started, m.sides[c])
		if err != nil {
			return st, err
		}
		op := m.cases[c].Op.(*workerOp)
		if !w.Handshake().HasCase(op.name) {
			return st, fmt.Errorf("restarted worker %q no longer offers case %q", m.sides[c].command, op.name)
		}
		op.setWorker(w)
		pids[c] = w.Pid()
	}
	m.pids, st.PIDs = pids, pids
	return st, nil
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
