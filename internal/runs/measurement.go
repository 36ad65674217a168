package runs

import "github.com/flybench/flybench/pkg/ndjson"

// maxIndex bounds unit and position indices, which fb-analyze keeps as
// 32-bit integers.
const maxIndex = 1<<31 - 1

// measurement places a calibration, sample, window, look, counter, block or end record in
// the open run.
func (g *Reader) measurement(rec *Record) error {
	run, err := g.current(rec.Line)
	if err != nil {
		return err
	}
	rec.Run = run
	switch rec.Type {
	case ndjson.TypeSample:
		return g.addSample(rec, run)
	case ndjson.TypeCalibration:
		v := &ndjson.Calibration{}
		rec.Value = v
		if err := g.r.Decode(rec.Line, v); err != nil {
			return err
		}
		return g.checkCase(rec.Line, run, v.Case)
	case ndjson.TypeWindow:
		v := &ndjson.Window{}
		rec.Value = v
		return g.r.Decode(rec.Line, v)
	case ndjson.TypeLook:
		v := &ndjson.Look{}
		rec.Value = v
		if err := g.r.Decode(rec.Line, v); err != nil {
			return err
		}
		return g.sameRun(rec.Line, run, v.RunID)
	case ndjson.TypeCounter:
		return g.addCounter(rec, run)
	case ndjson.TypeBlock:
		return g.addBlock(rec, run)
	}
	return g.addEnd(rec, run)
}

// current is the open run, or an error saying why there is none.
func (g *Reader) current(l ndjson.Line) (*Run, error) {
	switch {
	case g.open != nil:
		return g.open, nil
	case g.last == nil:
		return nil, g.r.Errorf(l, "%s record before any run record", l.Type)
	case l.Type == ndjson.TypeEnd:
		return nil, g.r.Errorf(l, "second end record for run %s", g.last.ID())
	}
	return nil, g.r.Errorf(l, "%s record after the end record of run %s; a run record must come first", l.Type, g.last.ID())
}

// sameRun refuses a record that names another run than the open one.
func (g *Reader) sameRun(l ndjson.Line, run *Run, id string) error {
	if id != "" && id != run.ID() {
		return g.r.Errorf(l, "%s record for run %s inside run %s", l.Type, id, run.ID())
	}
	return nil
}

func (g *Reader) addSample(rec *Record, run *Run) error {
	s := &g.sample
	if err := g.r.DecodeSample(rec.Line, s); err != nil {
		return err
	}
	rec.Value = s
	if err := g.checkCase(rec.Line, run, s.Case); err != nil {
		return err
	}
	if s.Unit < 0 || s.Unit > maxIndex || s.Pos < 0 || s.Pos > maxIndex {
		return g.r.Errorf(rec.Line, "sample with unit %d and position %d; both count from 0", s.Unit, s.Pos)
	}
	if s.Iter < 1 {
		return g.r.Errorf(rec.Line, "sample with %d iterations; a batch has at least one", s.Iter)
	}
	return g.addUnit(rec, run, s.Case, s.Unit)
}

// addEnd closes the open run.
func (g *Reader) addEnd(rec *Record, run *Run) error {
	v := &ndjson.End{}
	if err := g.r.Decode(rec.Line, v); err != nil {
		return err
	}
	if err := g.sameRun(rec.Line, run, v.RunID); err != nil {
		return err
	}
	rec.Value, run.End, g.open = v, v, nil
	return nil
}

// addBlock places a block record in the open run: it must name that run,
// a block and attempt counted from 0, a known status and a count for each
// of the run's cases.
func (g *Reader) addBlock(rec *Record, run *Run) error {
	v := &ndjson.Block{}
	rec.Value = v
	if err := g.r.Decode(rec.Line, v); err != nil {
		return err
	}
	if err := g.sameRun(rec.Line, run, v.RunID); err != nil {
		return err
	}
	switch {
	case v.Block < 0 || v.Attempt < 0:
		return g.r.Errorf(rec.Line, "block record for block %d attempt %d; both count from 0", v.Block, v.Attempt)
	case len(v.Samples) != len(run.Record.Cases):
		return g.r.Errorf(rec.Line, "block record with %d sample counts, but run %s has %d cases", len(v.Samples), run.ID(), len(run.Record.Cases))
	}
	switch v.Status {
	case ndjson.BlockComplete, ndjson.BlockInterrupted, ndjson.BlockFailed:
		return nil
	}
	return g.r.Errorf(rec.Line, "block record with status %q; use complete, interrupted or failed", v.Status)
}
