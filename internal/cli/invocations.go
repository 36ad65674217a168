package cli

import (
	"fmt"
	"strconv"
	"sync"

	ucli "github.com/urfave/cli/v2"

	"github.com/flybench/flybench/internal/collect"
	"github.com/flybench/flybench/internal/workerexec"
)

// invocationsFlags repeat the collection in process blocks; fb-pair can
// also continue an interrupted collection.
func invocationsFlags(pair bool) []ucli.Flag {
	flags := []ucli.Flag{
		&ucli.IntFlag{Name: "invocations", Value: 1, Usage: "repeat the whole collection (warm-up, calibration, --samples per case) in K blocks of fresh processes: AB/BA blocks for two cases, a Williams order for three or more (man fb-pair(1), PROCESS BLOCKS); worker, gotest and batch modes"},
	}
	if pair {
		flags = append(flags,
			&ucli.StringFlag{Name: "rotate", Value: "auto", Usage: "worker mode: replace the workers with fresh processes every N pairs or rounds, so that the run holds several process blocks and the comparison's interval covers how two processes of one binary differ (auto: about 12 blocks of at least 10 units; off: one process per side for the whole run) (man fb-pair(1), PROCESS BLOCKS)"},
			&ucli.StringFlag{Name: "resume", Usage: "continue the interrupted --invocations collection archived in FILE, appending to it: the same commands and flags are checked against its run record, a partial block is abandoned, fresh blocks run until --invocations blocks are complete", TakesFile: true},
			&ucli.BoolFlag{Name: "retry-failed", Usage: "--resume: first append one fresh attempt (same block, next attempt) for each block that did not complete"},
		)
	}
	return flags
}

// invocationsOf reads --invocations; exec mode refuses more than one,
// since it starts a fresh process for every operation already.
func invocationsOf(c *ucli.Context, mode string) (int, error) {
	k := c.Int("invocations")
	if k > 1 && mode == "exec" {
		return 0, usageErrorf("--invocations %d: exec mode already starts a fresh process per operation; use --worker, --gotest or --batch for process blocks", k)
	}
	return k, nil
}

// rotateOf reads --rotate: the units per block of a worker-mode pair run
// (collect.AutoRotation for auto), 0 for none. Auto rotates only where it
// can: worker mode, two or more sides, no --invocations, not sequential.
func rotateOf(c *ucli.Context, mode string, cfg collect.Config) (int, error) {
	v := c.String("rotate")
	switch v {
	case "", "auto":
		if mode != "worker" || cfg.Invocations > 1 || cfg.Sequential {
			return 0, nil
		}
		return collect.AutoRotation, nil
	case "off", "0":
		return 0, nil
	}
	n, err := strconv.Atoi(v)
	switch {
	case err != nil || n < 1:
		return 0, usageErrorf("--rotate %q: use auto, off or a number of pairs or rounds per process block", v)
	case mode != "worker":
		return 0, usageErrorf("--rotate %d: only worker mode keeps a process for the whole run; the other modes start one per batch", n)
	case cfg.Invocations > 1:
		return 0, usageErrorf("--rotate %d with --invocations %d: the blocks start fresh workers already; drop one", n, cfg.Invocations)
	case cfg.Sequential:
		return 0, usageErrorf("--rotate %d with --sequential: process blocks are collected paired or in rounds", n)
	}
	return n, nil
}

// processPlan is the block plan of a run with --invocations, or nil. In
// worker mode every block starts fresh workers (blockStarter); batch and
// gotest start a process per batch anyway, and their blocks redo warm-up
// and calibration.
func (m *measurement) processPlan(e *collect.Engine, obs *observer) *collect.ProcessPlan {
	if m.cfg.Invocations <= 1 {
		return nil
	}
	p := &collect.ProcessPlan{Blocks: collect.Blocks(len(m.cases), m.cfg.Invocations, m.cfg.Seed)}
	if m.mode == "worker" {
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
