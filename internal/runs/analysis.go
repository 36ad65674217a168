package runs

import (
	"github.com/flybench/flybench/pkg/ndjson"
)

// analysis places an analysis, summary, comparison or environment record
// in the run it names, refusing a second one of its kind.
func (g *Reader) analysis(rec *Record) error {
	switch rec.Type {
	case ndjson.TypeAnalysis:
		v := &ndjson.Analysis{}
		return g.named(rec, v, &v.RunID, func(run *Run) error {
			return g.once(rec.Line, &run.analysis, "second analysis record for run %s", run.ID())
		})
	case ndjson.TypeEnvironment:
		v := &ndjson.Environment{}
		return g.named(rec, v, &v.RunID, func(run *Run) error {
			return g.once(rec.Line, &run.environment, "second environment record for run %s", run.ID())
		})
	case ndjson.TypeSummary:
		v := &ndjson.Summary{}
		return g.named(rec, v, &v.RunID, func(run *Run) error { return g.summary(rec.Line, run, v) })
	}
	v := &ndjson.Comparison{}
	return g.named(rec, v, &v.RunID, func(run *Run) error { return g.comparison(rec.Line, run, v) })
}

// named decodes rec into v, finds the run *id names and checks the record
// against it.
func (g *Reader) named(rec *Record, v any, id *string, check func(*Run) error) error {
	if err := g.decodeValid(rec.Line, v); err != nil {
		return err
	}
	if *id == "" {
		return g.r.Errorf(rec.Line, "%s record has no run_id", rec.Type)
	}
	run := g.byID[*id]
	if run == nil {
		return g.r.Errorf(rec.Line, "%s record for run %s, which no run record in the stream opened", rec.Type, *id)
	}
	if err := check(run); err != nil {
		return err
	}
	rec.Run, rec.Value = run, v
	return nil
}

// once sets *seen, refusing a record the run already has.
func (g *Reader) once(l ndjson.Line, seen *bool, format string, args ...any) error {
	if *seen {
		return g.r.Errorf(l, format, args...)
	}
	*seen = true
	return nil
}

func (g *Reader) summary(l ndjson.Line, run *Run, s *ndjson.Summary) error {
	if err := g.checkCase(l, run, s.Case); err != nil {
		return err
	}
	if run.summaries[s.Case] {
		return g.r.Errorf(l, "second summary for case %d of run %s", s.Case, run.ID())
	}
	if run.summaries == nil {
		run.summaries = map[int]bool{}
	}
	run.summaries[s.Case] = true
	return nil
}

func (g *Reader) comparison(l ndjson.Line, run *Run, c *ndjson.Comparison) error {
	if c.Design == ndjson.DesignIndependent {
		return g.baseline(l, run, c)
	}
	if err := g.checkCase(l, run, c.Reference); err != nil {
		return err
	}
	if err := g.checkCase(l, run, c.Contender); err != nil {
		return err
	}
	key := [2]int{c.Reference, c.Contender}
	if run.comparisons[key] {
		return g.r.Errorf(l, "second comparison of case %d with case %d in run %s", c.Contender, c.Reference, run.ID())
	}
	if run.comparisons == nil {
		run.comparisons = map[[2]int]bool{}
	}
	run.comparisons[key] = true
	return nil
}

// baseline checks a comparison with a baseline run: its reference is a
// case of that other run, so only the contender is checked against this
// one; each contender is compared with the baseline once.
func (g *Reader) baseline(l ndjson.Line, run *Run, c *ndjson.Comparison) error {
	if err := g.checkCase(l, run, c.Contender); err != nil {
		return err
	}
	if c.Reference < 0 {
		return g.r.Errorf(l, "baseline comparison with a negative reference case %d", c.Reference)
	}
	key := [2]int{c.Reference, c.Contender}
	if run.baselines[key] {
		return g.r.Errorf(l, "second baseline comparison of case %d in run %s", c.Contender, run.ID())
	}
	if run.baselines == nil {
		run.baselines = map[[2]int]bool{}
	}
	run.baselines[key] = true
	return nil
}

// validator is an analysis record that checks its values (ndjson's
// Validate methods).
type validator interface{ Validate() error }

// decodeValid decodes l into v and, when v checks its values, refuses
// values no analysis gives: a negative count, an interval upside down, a
// change that does not follow from its speedup.
func (g *Reader) decodeValid(l ndjson.Line, v any) error {
	if err := g.r.Decode(l, v); err != nil {
		return err
	}
	if c, ok := v.(validator); ok {
		if err := c.Validate(); err != nil {
			return g.r.Errorf(l, "bad %s record: %v", l.Type, err)
		}
	}
	return nil
}
