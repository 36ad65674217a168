package collect

import (
	"fmt"
	"slices"

	"github.com/flybench/flybench/pkg/ndjson"
)

// Rotation starts a new block every so many units, so that the run holds
// several process blocks: two processes of one binary differ by what each
// drew at start (its memory layout, its collector's phase, where the
// scheduler put it), and two copies of one program by how and where the
// page cache holds each file; every pair of one block shares that draw,
// and only with several blocks can the analysis see how much it matters
// (pkg/stats, process blocks as clusters). Each block after the first
// starts afresh (long-lived workers are replaced, in the orientation of
// schedule.Block; programs started per batch have their files dropped
// from the page cache), runs one untimed batch of every case to warm
// them, and carries on with the run's schedule and calibration.
// Samples name their block (ndjson.Sample.Proc) and a block record closes
// every block.

// Rotation settings: AutoRotation resolves the units per block once the
// sample count is known, so that a run holds about rotationBlocks blocks
// (rotationBlocksUntil under a stopping rule, which may stop after a part
// of its budget), none shorter than minRotationUnits units unless the
// engine allows shorter ones (Engine.RotateMin).
const (
	AutoRotation        = -1
	rotationBlocks      = 12
	rotationBlocksUntil = 24
	minRotationUnits    = 10
)

// RotationRule describes the automatic rotation in one line, for the run
// record: does says what starting a block does ("fresh processes"), least
// the fewest units a block holds.
func RotationRule(does string, least int) string {
	return fmt.Sprintf("auto: %s every max(%d, units/12) units (units/24 under a stopping rule), one untimed batch of every case after each start", does, least)
}

// Started is what starting a block did: the process IDs of its fresh
// processes, one per case (worker mode), and what dropping the programs'
// files from the page cache came to (nil when they were not dropped).
type Started struct {
	PIDs    []int
	Dropped *ndjson.Dropped
	// Release, when set, frees what the start held until the block's
	// untimed batches had run (the page-placement ballast, internal/pagecache).
	Release func()
}

// rotationUnits is the number of units per block for a run of samples
// units: Config.Rotate itself, or AutoRotation resolved with blocks of at
// least least units.
func (c Config) rotationUnits(samples, least int) int {
	if c.Rotate != AutoRotation {
		return c.Rotate
	}
	blocks := rotationBlocks
	if c.Until.Rule != "" {
		blocks = rotationBlocksUntil
	}
	return max(least, (samples+blocks-1)/blocks)
}

// rotateMin is the fewest units a block of the automatic rotation holds.
func (e *Engine) rotateMin() int {
	if e.RotateMin > 0 {
		return e.RotateMin
	}
	return minRotationUnits
}

// rotation is the state of a rotating run's sampling.
type rotation struct {
	every  int // units per block
	block  int // the block being collected
	units  int // units run in it so far
	before []int
	order  []int // the order its processes started in
	orient string
	start  Started // what starting it did (zero for block 0)
}

// startRotation opens block 0, whose processes are the ones warm-up and
// calibration used, for a run with Engine.Rotate set and a positive
// rotation.
func (s *sampler) startRotation() {
	e := s.e
	if e.Rotate == nil || e.Config.Rotate == 0 {
		return
	}
	first := BlockAt(len(e.Cases), 0, 0, e.Config.Seed)
	s.rot = &rotation{every: e.Config.rotationUnits(e.Config.Samples, e.rotateMin()), before: slices.Clone(s.end.Samples),
		order: e.order(), orient: first.Orientation}
	if !slices.Equal(first.Order, s.rot.order) {
		s.rot.orient = "" // the first processes started in case order, which is no design's row
	}
	e.proc = &ndjson.ProcessRef{Block: 0}
}

// rotate starts the next block when the current one has run its units,
// at a unit boundary outside any open watch window (a window's units
// stay in one block). It closes the current block with its record.
func (s *sampler) rotate() error {
	r, e := s.rot, s.e
	if r == nil || r.units < r.every || s.win != nil {
		return nil
	}
	if err := s.closeBlock(); err != nil {
		return err
	}
	r.before = slices.Clone(s.end.Samples) // closed: nothing more to record if the start fails
	b := BlockAt(len(e.Cases), r.block+1, 0, e.Config.Seed)
	e.report(Status{Phase: "starting", Case: fmt.Sprintf("block %d", b.Block)})
	started, err := e.Rotate(b)
	if err != nil {
		if e.stopped.Load() {
			return ErrInterrupted
		}
		return &FailedError{Case: fmt.Sprintf("block %d", b.Block), Err: err}
	}
	if started.Release != nil {
		defer started.Release()
	}
	for _, c := range b.Order { // one untimed batch of every case, in the block's order
		e.report(Status{Phase: "warming", Case: e.Cases[c].Name})
		if _, err := e.runBatch(c, s.iters[c], nil); err != nil {
			return err
		}
	}
	*r = rotation{every: r.every, block: b.Block, before: slices.Clone(s.end.Samples), order: b.Order, orient: b.Orientation, start: started}
	e.proc = &ndjson.ProcessRef{Block: b.Block}
	return nil
}

// closeBlock writes the record of the block being collected. Its units
// are whole whatever ended it, so it is complete unless it holds none.
func (s *sampler) closeBlock() error {
	r, e := s.rot, s.e
	rec := &ndjson.Block{RunID: e.Run.RunID, Block: r.block, Order: r.order, Orientation: r.orient,
		Samples: make([]int, len(s.end.Samples)), Status: ndjson.BlockComplete, PIDs: r.start.PIDs, Dropped: r.start.Dropped}
	for c := range rec.Samples {
		rec.Samples[c] = s.end.Samples[c] - r.before[c]
	}
	if !slices.ContainsFunc(rec.Samples, func(n int) bool { return n > 0 }) {
		return nil // a block that kept nothing leaves no record
	}
	return e.Out.Write(rec)
}

// endRotation closes the last block when sampling ends, however it ends.
func (s *sampler) endRotation() error {
	if s.rot == nil {
		return nil
	}
	err := s.closeBlock()
	s.rot, s.e.proc = nil, nil
	return err
}
