package model

import (
	"errors"
	"io"
	"math"

	"github.com/flybench/flybench/internal/runs"
	"github.com/flybench/flybench/pkg/ndjson"
)

// Load reads a whole stream, grouped into runs and recordings the way
// fb-analyze groups it (package runs; fb-stream(5)). A run_id that
// appears on more than one run record gives as many runs, each with its
// own analysis. Unknown record types are skipped. Errors are the reader's
// *ndjson.SyntaxError and *ndjson.VersionError, or a *ndjson.SyntaxError
// for a record that does not fit the runs around it. A last line cut
// short ends the stream: the run or recording it followed gets a warning
// in StreamWarnings. Of the samples, the runs keep what keep asks for.
func Load(r *ndjson.Reader, keep Keep) (*Stream, error) {
	g := runs.NewReader(r)
	ld := &loader{keep: keep, byRun: map[*runs.Run]*Run{}, byRec: map[*runs.Recording]*Recording{},
		points: map[*Run]*pointSampler{}}
	for {
		rec, err := g.Next()
		if err != nil {
			return ld.stop(g, err)
		}
		switch rec.Type {
		case ndjson.TypeSuite:
			err = ld.addSuite(r, rec)
		case ndjson.TypeAA:
			err = ld.addAA(r, rec)
		case ndjson.TypeSeries:
			err = ld.addSeries(r, rec)
		default:
			err = ld.add(rec)
		}
		if err != nil {
			return nil, err
		}
	}
}

// loader keeps the records of each run and recording.
type loader struct {
	keep  Keep
	runs  []*Run
	byRun map[*runs.Run]*Run
	recs  []*Recording
	byRec map[*runs.Recording]*Recording
	// series are fb-history's records, which belong to no run.
	series []ndjson.Series
	// points samples each run's units for its figures (KeepPoints).
	points map[*Run]*pointSampler
}

// stop ends the input at a reader error: the end of the input, a torn
// last line (a warning on the run or recording before it), or a bad line.
func (ld *loader) stop(g *runs.Reader, err error) (*Stream, error) {
	for run, ps := range ld.points {
		run.Points, run.Thinned = ps.points(), ps.thinned
	}
	s := &Stream{Runs: ld.runs, Recordings: ld.recs, Series: ld.series}
	var torn *ndjson.TornError
	switch {
	case errors.As(err, &torn):
		s.Torn = torn.Warning()
		if last := ld.byRec[g.LastRecording()]; last != nil {
			last.StreamWarnings = append(last.StreamWarnings, torn.Warning())
		} else if last := ld.byRun[g.Last()]; last != nil {
			last.StreamWarnings = append(last.StreamWarnings, torn.Warning())
		}
	case !errors.Is(err, io.EOF):
		return nil, err
	}
	return s, nil
}

// add keeps a record of a run or a recording.
func (ld *loader) add(rec runs.Record) error {
	if rec.Recording != nil {
		ld.addRecording(rec)
		return nil
	}
	if v, ok := rec.Value.(*ndjson.Run); ok {
		run := &Run{Run: *v, Lock: rec.Run.Lock, Gate: rec.Run.Gate, Exact: declaredExact(v)}
		ld.runs = append(ld.runs, run)
		ld.byRun[rec.Run] = run
		return nil
	}
	run := ld.byRun[rec.Run]
	if run == nil {
		return nil // lock and gate records wait for their run; unknown types are skipped
	}
	switch v := rec.Value.(type) {
	case *ndjson.Calibration:
		run.Calibrations = append(run.Calibrations, *v)
	case *ndjson.Sample:
		return ld.addSample(run, v)
	case *ndjson.Window:
		run.Windows = append(run.Windows, *v)
	case *ndjson.Look:
		run.Looks = append(run.Looks, *v)
	case *ndjson.End:
		run.End = v
	case *ndjson.Analysis:
		run.Analysis = v
	case *ndjson.Summary:
		run.Summaries = append(run.Summaries, *v)
	case *ndjson.Comparison:
		if v.Design == ndjson.DesignIndependent {
			run.Baseline = append(run.Baseline, *v)
			return nil
		}
		run.Comparisons = append(run.Comparisons, *v)
	case *ndjson.Environment:
		run.Environment = v
	case *ndjson.Counter:
		if v.RunID != "" && v.Axis != "" {
			run.Exact[v.Axis] = true
		}
	}
	return nil
}

// addSample keeps of a sample what the load asks for.
func (ld *loader) addSample(run *Run, s *ndjson.Sample) error {
	if ld.keep&KeepSamples != 0 {
		if run.Samples == nil {
			run.Samples = &SampleStore{}
		}
		if err := run.Samples.add(s); err != nil {
			return err
		}
	}
	if ld.keep&KeepTimes != 0 {
		run.Times = append(run.Times, Time{Case: s.Case, Seq: s.Seq, OpNS: s.OpNS, PeakBytes: s.Axes["rss_peak"].V})
	}
	if ld.keep&KeepPoints != 0 {
		ps := ld.points[run]
		if ps == nil {
			ps = newPointSampler(&run.Run)
			ld.points[run] = ps
		}
		ps.add(s)
	}
	return nil
}

// addRecording keeps a record of a recording.
func (ld *loader) addRecording(rec runs.Record) {
	if v, ok := rec.Value.(*ndjson.Recording); ok {
		r := &Recording{Record: *v}
		ld.recs = append(ld.recs, r)
		ld.byRec[rec.Recording] = r
		return
	}
	r := ld.byRec[rec.Recording]
	switch v := rec.Value.(type) {
	case *ndjson.Span:
		r.Spans++
		if v.WallNS != nil {
			r.SpanTimes = append(r.SpanTimes, SpanTime{B: v.Benchmark, StartNS: v.StartNS, WallNS: *v.WallNS})
		}
	case *ndjson.ProcessUsage:
		r.Processes = append(r.Processes, *v)
	case *ndjson.RecordingEnd:
		r.End = v
	case *ndjson.SpanSummary:
		r.Summaries = append(r.Summaries, *v)
	case *ndjson.SpanComparison:
		r.Comparisons = append(r.Comparisons, *v)
	}
}

// addSuite keeps a suite record with the run read last: fb-analyze writes
// it after every run it analysed. A suite before any run has no runs to
// summarize and is skipped.
func (ld *loader) addSuite(r *ndjson.Reader, rec runs.Record) error {
	if len(ld.runs) == 0 {
		return nil
	}
	s := &ndjson.Suite{}
	if err := decodeValid(r, rec.Line, s); err != nil {
		return err
	}
	last := ld.runs[len(ld.runs)-1]
	last.Suites = append(last.Suites, *s)
	return nil
}

// addSeries keeps a series record.
func (ld *loader) addSeries(r *ndjson.Reader, rec runs.Record) error {
	var s ndjson.Series
	if err := r.Decode(rec.Line, &s); err != nil {
		return err
	}
	if s.Series != ndjson.SeriesLevels && s.Series != ndjson.SeriesChain {
		return r.Errorf(rec.Line, "bad series record: series %q: this fb-report knows %q and %q", s.Series, ndjson.SeriesLevels, ndjson.SeriesChain)
	}
	for i, p := range s.Points {
		if math.IsNaN(p.Value) || math.IsInf(p.Value, 0) || p.N < 0 || (p.CI != nil && !(p.CI[0] <= p.CI[1])) {
			return r.Errorf(rec.Line, "bad series record: point %d (run %s) has no usable value, n or interval", i, p.RunID)
		}
	}
	for _, c := range s.Changes {
		if c.Index < 1 || c.Index >= len(s.Points) {
			return r.Errorf(rec.Line, "bad series record: a change at point %d of %d", c.Index, len(s.Points))
		}
		if g := c.Range; g != nil && (g.From < 1 || g.From > c.Index || c.Index > g.To || g.To >= len(s.Points)) {
			return r.Errorf(rec.Line, "bad series record: the change at point %d has the range %d to %d of %d points", c.Index, g.From, g.To, len(s.Points))
		}
	}
	for _, d := range s.Drifts {
		if d.From < 0 || d.To <= d.From || d.To >= len(s.Points) {
			return r.Errorf(rec.Line, "bad series record: a drift from point %d to %d of %d", d.From, d.To, len(s.Points))
		}
	}
	ld.series = append(ld.series, s)
	return nil
}

// addAA keeps an aa record with the run read last: fb-analyze writes them
// after every run of the input.
func (ld *loader) addAA(r *ndjson.Reader, rec runs.Record) error {
	if len(ld.runs) == 0 {
		return nil
	}
	a := &ndjson.AA{}
	if err := decodeValid(r, rec.Line, a); err != nil {
		return err
	}
	last := ld.runs[len(ld.runs)-1]
	last.AAs = append(last.AAs, *a)
	return nil
}

// decodeValid decodes a suite or aa record and refuses values fb-analyze
// never writes (ndjson's Validate), as package runs does for the records
// it places.
func decodeValid(r *ndjson.Reader, l ndjson.Line, v interface{ Validate() error }) error {
	if err := r.Decode(l, v); err != nil {
		return err
	}
	if err := v.Validate(); err != nil {
		return r.Errorf(l, "bad %s record: %v", l.Type, err)
	}
	return nil
}
