package runs

import (
	"github.com/flybench/flybench/pkg/ndjson"
)

// recordingAnalysis places a span_summary in the recording its run_id
// names, and a span_comparison in its contender's recording (the
// reference must be a recording too); each must follow its recording's
// record. A recording has at most one summary per benchmark and one
// comparison per reference recording and benchmark name.
func (g *Reader) recordingAnalysis(rec *Record) error {
	if rec.Type == ndjson.TypeSpanSummary {
		v := &ndjson.SpanSummary{}
		if err := g.decodeValid(rec.Line, v); err != nil {
			return err
		}
		r, err := g.namedRecording(rec.Line, "run_id", v.RunID)
		if err != nil {
			return err
		}
		rec.Recording, rec.Value = r, v
		return g.spanSummary(rec.Line, r, v)
	}
	v := &ndjson.SpanComparison{}
	if err := g.decodeValid(rec.Line, v); err != nil {
		return err
	}
	if _, err := g.namedRecording(rec.Line, "reference_run", v.ReferenceRun); err != nil {
		return err
	}
	r, err := g.namedRecording(rec.Line, "contender_run", v.ContenderRun)
	if err != nil {
		return err
	}
	rec.Recording, rec.Value = r, v
	return g.spanComparison(rec.Line, r, v)
}

// namedRecording is the latest recording with run_id id, which the
// record's field names.
func (g *Reader) namedRecording(l ndjson.Line, field, id string) (*Recording, error) {
	if id == "" {
		return nil, g.r.Errorf(l, "%s record has no %s", l.Type, field)
	}
	r := g.recByID[id]
	if r == nil {
		return nil, g.r.Errorf(l, "%s record with %s %s, which no recording record before it opened", l.Type, field, id)
	}
	return r, nil
}

func (g *Reader) spanSummary(l ndjson.Line, r *Recording, s *ndjson.SpanSummary) error {
	if err := g.checkBenchmark(l, r, s.Benchmark); err != nil {
		return err
	}
	if r.summaries[s.Benchmark] {
		return g.r.Errorf(l, "second span_summary for benchmark %d of recording %s", s.Benchmark, r.ID())
	}
	if r.summaries == nil {
		r.summaries = map[int]bool{}
	}
	r.summaries[s.Benchmark] = true
	return nil
}

func (g *Reader) spanComparison(l ndjson.Line, r *Recording, c *ndjson.SpanComparison) error {
	if c.Name == "" {
		return g.r.Errorf(l, "span_comparison record has no benchmark name")
	}
	key := [2]string{c.ReferenceRun, c.Name}
	if r.comparisons[key] {
		return g.r.Errorf(l, "second span_comparison of %q in recording %s with recording %s", c.Name, r.ID(), c.ReferenceRun)
	}
	if r.comparisons == nil {
		r.comparisons = map[[2]string]bool{}
	}
	r.comparisons[key] = true
	return nil
}
