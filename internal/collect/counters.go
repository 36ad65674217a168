package collect

import (
	"context"
	"time"

	"github.com/flybench/flybench/pkg/ndjson"
)

// CounterProbe measures one deterministic count of each case outside the
// timed schedule (--metrics instructions_sim).
type CounterProbe interface {
	// Count measures case c, whose calibrated batch is iters operations.
	// prepare, when not nil, must run before every execution it makes
	// (the --prepare hook). It fills the record's axis, unit, status and
	// reason, value, values, source and runs; a count it could not take
	// has a status and a reason and no value.
	Count(ctx context.Context, c int, iters int64, prepare func() error) ndjson.Counter
}

// count runs every counter probe on every case, after calibration and
// before the first timed sample, and writes one counter record each. A
// count that fails is recorded as such; only Stop ends the step early.
func (e *Engine) count(iters []int64) error {
	if len(e.Counters) == 0 {
		return nil
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go e.cancelOnStop(ctx, cancel)
	for _, p := range e.Counters {
		for c := range e.Cases {
			e.report(Status{Phase: "counting", Case: e.Cases[c].Name})
			rec := p.Count(ctx, c, iters[c], e.Hooks.Prepare)
			if e.stopped.Load() {
				return ErrInterrupted
			}
			rec.RunID, rec.Case, rec.Name = e.Run.RunID, c, e.Cases[c].Name
			if err := e.Out.Write(&rec); err != nil {
				return err
			}
		}
	}
	return nil
}

// cancelOnStop cancels the counting context when Stop is called.
func (e *Engine) cancelOnStop(ctx context.Context, cancel func()) {
	tick := time.NewTicker(20 * time.Millisecond)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
			if e.stopped.Load() {
				cancel()
				return
			}
		}
	}
}
