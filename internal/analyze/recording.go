package analyze

import (
	"fmt"

	"github.com/flybench/flybench/internal/runs"
	"github.com/flybench/flybench/pkg/ndjson"
)

// Outcome filters of span statistics (Options.Outcome): every span, or
// the spans with one outcome.
const OutcomeAll = "all"

// validOutcome reports whether o names a span filter.
func validOutcome(o string) bool {
	switch o {
	case "", OutcomeAll, ndjson.OutcomeSuccess, ndjson.OutcomeFailure, ndjson.OutcomeTimeout, ndjson.OutcomeCancelled:
		return true
	}
	return false
}

// outcome is the span filter, "all" when unset.
func (o Options) outcome() string {
	if o.Outcome == "" {
		return OutcomeAll
	}
	return o.Outcome
}

// spanRow is the part of a span the analysis uses: its outcome, its wall
// time when it has one, and its other axes in the recording's order.
type spanRow struct {
	outcome string
	wall    int64
	hasWall bool
	vals    []axisVal
}

// recData accumulates one recording's spans, per benchmark in stream
// order.
type recData struct {
	rec ndjson.Recording
	// seen tells apart recordings that share a run_id (their random
	// streams differ).
	seen  int
	extra []ndjson.AxisInfo // requested axes besides wall time
	spans [][]spanRow
	// notes are warnings about the input, e.g. that it ended mid-record.
	notes []string
}

func newRecData(r *runs.Recording) *recData {
	d := &recData{rec: r.Record, seen: r.Seen, extra: extraAxes(ndjson.Run{Axes: r.Record.Axes})}
	d.spans = make([][]spanRow, len(r.Record.Benchmarks))
	return d
}

// add keeps a span; its axes must match the recording's.
func (d *recData) add(s *ndjson.Span) error {
	vals, err := sampleAxes(d.extra, ndjson.Sample{Axes: s.Axes})
	if err != nil {
		return err
	}
	row := spanRow{outcome: s.Outcome, vals: vals}
	if s.WallNS != nil {
		row.wall, row.hasWall = *s.WallNS, true
	}
	d.spans[s.Benchmark] = append(d.spans[s.Benchmark], row)
	return nil
}

// label names the random stream of one benchmark's spans.
func (d *recData) label(b int, outcome string) string {
	return fmt.Sprintf("span/%s#%d/%s/%s", d.rec.RunID, d.seen, d.rec.Benchmarks[b].Name, outcome)
}

// recordingHook handles the records of recordings in analyzer.record: it
// reports whether rec was one, and what went wrong with it.
func (a *analyzer) recordingHook(rec runs.Record) (bool, error) {
	switch v := rec.Value.(type) {
	case *ndjson.Recording:
		if err := a.flush(nil); err != nil { // a run cut short by this recording
			return true, err
		}
		if err := a.closeRecording(nil); err != nil { // a recording cut short
			return true, err
		}
		a.recs.cur = newRecData(rec.Recording)
	case *ndjson.Span:
		if err := a.recs.cur.add(v); err != nil {
			return true, a.r.Errorf(rec.Line, "bad span record: %v", err)
		}
	case *ndjson.RecordingEnd:
		if err := a.w.WriteRaw(rec.Raw); err != nil {
			return true, err
		}
		return true, a.closeRecording(v)
	case *ndjson.ProcessUsage:
	default:
		return false, nil
	}
	return true, a.w.WriteRaw(rec.Raw)
}

// closeRecording writes the span summaries of the open recording, if
// any; end is nil when it was cut short. Its benchmarks are kept for the
// comparisons written after the input.
func (a *analyzer) closeRecording(end *ndjson.RecordingEnd) error {
	d := a.recs.cur
	if d == nil {
		return nil
	}
	a.recs.cur = nil
	sums, sides := d.analyze(end, a.opt)
	a.recs.compare.add(sides)
	for _, s := range sums {
		if err := a.w.Write(s); err != nil {
			return err
		}
	}
	return a.w.Flush()
}

// recordings is the analyzer's state of recordings: the open one, and the
// comparer gathering every recording's benchmarks.
type recordings struct {
	cur *recData
	// compare gathers the recordings of all inputs (Options.Recordings),
	// or of this input alone, which Stream then writes at its end.
	compare *SpanComparer
	own     bool
}
