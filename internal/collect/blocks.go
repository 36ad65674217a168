package collect

import (
	"errors"
	"fmt"
	"slices"

	"github.com/flybench/flybench/internal/schedule"
	"github.com/flybench/flybench/pkg/ndjson"
)

// Block is one attempt at one process block: the whole per-case
// collection (warm-up, calibration, samples) in fresh processes.
type Block struct {
	Block, Attempt int
	// Order is the case order: processes start in it and the block's
	// first pair or round runs in it. Orientation is recorded as given.
	Order       []int
	Orientation string
}

// BlockAt is attempt a at block b of a run of k cases, ordered by the
// process design (schedule.Block).
func BlockAt(k, b, a int, seed uint64) Block {
	o := schedule.Block(k, b, seed)
	return Block{Block: b, Attempt: a, Order: o.Order, Orientation: o.Orientation}
}

// Blocks are blocks 0 to n-1, first attempts.
func Blocks(k, n int, seed uint64) []Block {
	out := make([]Block, n)
	for b := range out {
		out[b] = BlockAt(k, b, 0, seed)
	}
	return out
}

// seed is the block's own schedule seed: its pairs or rounds are shuffled
// afresh in every block and every attempt.
func (b Block) seed(run uint64) uint64 {
	return run ^ (uint64(b.Block)+1)*0x9e3779b97f4a7c15 ^ uint64(b.Attempt)*0xbf58476d1ce4e5b9
}

// ProcessPlan is a run collected in process blocks (--invocations).
type ProcessPlan struct {
	// Blocks are collected in order; a block that fails or is interrupted
	// ends the run.
	Blocks []Block
	// Start, when set, starts the block before its warm-up: its fresh
	// processes in the block's order (worker mode), or a fresh read of
	// the programs' files (dropped from the page cache), and says what it
	// did for the block record. Where every batch starts its own process
	// the block is also the unit of schedule and calibration.
	Start func(b Block) (Started, error)
	// Resumed continues a run already in the stream: the run record is
	// not written again, Prior is what the stream's earlier sessions
	// kept (it is added to the end record), and units and seq continue
	// from FirstUnit and FirstSeq.
	Resumed             bool
	Prior               ndjson.End
	FirstUnit, FirstSeq int
}

// order is the order cases are warmed and calibrated in: the block's, or
// case order without blocks.
func (e *Engine) order() []int {
	if e.block != nil {
		return e.block.Order
	}
	out := make([]int, len(e.Cases))
	for i := range out {
		out[i] = i
	}
	return out
}

// collectBlocks is Collect for a run in process blocks: one run record
// (unless resumed), the setup hook once, every block with its block
// record, the cleanup hook once and one end record.
func (e *Engine) collectBlocks() (*ndjson.End, error) {
	k, p := len(e.Cases), e.Process
	if err := e.checkPadded(); err != nil {
		return nil, err
	}
	e.start = e.Clock.Now()
	e.unitBase, e.seqBase = p.FirstUnit, p.FirstSeq
	if !p.Resumed {
		e.fillRun()
		if err := e.Out.Write(&e.Run); err != nil {
			return nil, err
		}
	}
	end := priorEnd(e.Run.RunID, k, p.Prior)
	err := e.blocks(end)
	if cerr := e.cleanup(); cerr != nil && err == nil {
		err = cerr
	}
	e.finish(end, err)
	end.ElapsedNS += p.Prior.ElapsedNS
	if werr := e.Out.Write(end); werr != nil && err == nil {
		err = werr
	}
	e.report(Status{Phase: PhaseFinished, Done: end.Units})
	return end, err
}

// priorEnd is the end record to continue: the earlier sessions' counts.
func priorEnd(id string, k int, prior ndjson.End) *ndjson.End {
	end := &ndjson.End{RunID: id, Samples: make([]int, k), Units: prior.Units, Retakes: prior.Retakes,
		Pauses: prior.Pauses, PausedNS: prior.PausedNS, SamplingNS: prior.SamplingNS}
	copy(end.Samples, prior.Samples)
	if len(prior.Escaped) == k {
		end.Escaped = append([]int64(nil), prior.Escaped...)
	}
	return end
}

func (e *Engine) blocks(end *ndjson.End) error {
	if e.Hooks.Setup != nil {
		e.report(Status{Phase: "setup"})
		if err := e.Hooks.Setup(); err != nil {
			return &FailedError{Case: e.Names.Spell(HookSetup), Err: err}
		}
	}
	for i, b := range e.Process.Blocks {
		if e.stopped.Load() {
			return ErrInterrupted
		}
		if err := e.runBlock(b, end, i == 0 && !e.Process.Resumed); err != nil {
			return err
		}
	}
	return nil
}

// runBlock collects one block and writes its record, however it ends.
func (e *Engine) runBlock(b Block, end *ndjson.End, first bool) error {
	e.block, e.proc = &b, &ndjson.ProcessRef{Block: b.Block, Attempt: b.Attempt}
	defer func() { e.block, e.proc = nil, nil }()
	before := slices.Clone(end.Samples)
	var started Started
	var err error
	if e.Process.Start != nil {
		e.report(Status{Phase: "starting", Case: fmt.Sprintf("block %d", b.Block)})
		if started, err = e.Process.Start(b); err != nil && !e.stopped.Load() {
			err = &FailedError{Case: fmt.Sprintf("block %d", b.Block), Err: err}
		}
	}
	if err == nil && e.stopped.Load() {
		err = ErrInterrupted
	}
	if err == nil {
		err = e.blockPhases(end, first)
	}
	rec := &ndjson.Block{RunID: e.Run.RunID, Block: b.Block, Attempt: b.Attempt, Order: b.Order,
		Orientation: b.Orientation, Samples: make([]int, len(end.Samples)), PIDs: started.PIDs, Dropped: started.Dropped}
	for c := range rec.Samples {
		rec.Samples[c] = end.Samples[c] - before[c]
	}
	rec.Status, rec.Reason = e.blockStatus(err)
	if werr := e.Out.Write(rec); werr != nil && err == nil {
		err = werr
	}
	return err
}

// blockPhases are one block's warm-up, calibration, counting (in the
// run's first block only) and sampling. The sample count an automatic
// --samples chooses in the first block (calibrate plans and fits it)
// holds for every block.
func (e *Engine) blockPhases(end *ndjson.End, first bool) error {
	est, over, err := e.warmup()
	if err != nil {
		return err
	}
	if e.Warmed != nil {
		e.Warmed()
		e.Warmed = nil
	}
	iters, err := e.calibrate(est, over, e.Config.Samples == AutoSamples)
	if err != nil {
		return err
	}
	if first {
		if err := e.count(iters); err != nil {
			return err
		}
	}
	return e.sample(iters, end)
}

// blockStatus is a block record's status and reason for how it ended.
func (e *Engine) blockStatus(err error) (string, string) {
	switch {
	case err == nil:
		return ndjson.BlockComplete, ""
	case e.stopped.Load():
		reason, _ := e.reason.Load().(string)
		return ndjson.BlockInterrupted, reason
	case errors.Is(err, ErrInterrupted):
		return ndjson.BlockInterrupted, "interrupted"
	}
	return ndjson.BlockFailed, err.Error()
}
