package collect

import (
	"context"
	"fmt"
	"time"

	"github.com/flybench/flybench/internal/axes"
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
			b := e.bracket(c)
			rec := p.Count(ctx, c, iters[c], b.prepare())
			if err := b.close(); err != nil && rec.Value != nil {
				rec.Status, rec.Reason, rec.Value, rec.Values = string(axes.ProbeFailed), err.Error(), nil, nil
			}
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

// bracket runs case c's prepare and conclude hooks around each execution
// of a probe that only announces its executions by calling prepare: each
// call concludes the previous execution, then prepares the next; close
// concludes the last.
type bracket struct {
	e       *Engine
	c       int
	started bool
}

func (e *Engine) bracket(c int) *bracket { return &bracket{e: e, c: c} }

// prepare is nil without hooks, as CounterProbe expects.
func (b *bracket) prepare() func() error {
	if b.e.Hooks.Prepare == nil && b.e.Hooks.Conclude == nil {
		return nil
	}
	return func() error {
		if err := b.close(); err != nil {
			return err
		}
		b.started = true
		if b.e.Hooks.Prepare == nil {
			return nil
		}
		return b.e.Hooks.Prepare(b.c)
	}
}

func (b *bracket) close() error {
	if !b.started || b.e.Hooks.Conclude == nil {
		b.started = false
		return nil
	}
	b.started = false
	if err := b.e.Hooks.Conclude(b.c); err != nil {
		return fmt.Errorf("%s: %w", b.e.Names.Spell(HookConclude), err)
	}
	return nil
}
