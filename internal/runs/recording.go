package runs

import (
	"github.com/flybench/flybench/pkg/ndjson"
)

// Recording is one recording as it appears in a stream: its recording
// record and, once read, its recording_end record. A recording is a unit
// of its own beside runs: span, process and recording_end records belong
// to the open recording (the latest recording record, until its
// recording_end closes it), span_summary and span_comparison records name
// theirs by run_id. A run record closes an open recording, and a
// recording record an open run, as a run record closes another run.
type Recording struct {
	Record ndjson.Recording
	// End is nil until the recording_end record is read, and stays nil for
	// a recording cut short.
	End *ndjson.RecordingEnd
	// Seen counts the recording records with this run_id so far, this one
	// included.
	Seen int
	// Line is the recording record's line number.
	Line int
	// what the recording has received by run_id, to refuse a second one
	summaries   map[int]bool
	comparisons map[[2]string]bool // reference run_id, benchmark name
}

// ID is the recording's run_id.
func (r *Recording) ID() string { return r.Record.RunID }

// OpenRecording is the recording that is open (no recording_end yet), or
// nil.
func (g *Reader) OpenRecording() *Recording { return g.openRec }

// LastRecording is the latest recording the stream opened when it came
// after the latest run record, else nil: the unit a torn last line
// follows.
func (g *Reader) LastRecording() *Recording {
	if g.recLater {
		return g.lastRec
	}
	return nil
}

// recording opens a recording, closing an open run or recording.
func (g *Reader) recording(rec *Record) error {
	v := &ndjson.Recording{}
	if err := g.r.Decode(rec.Line, v); err != nil {
		return err
	}
	switch {
	case v.RunID == "":
		return g.r.Errorf(rec.Line, "recording record has no run_id")
	case len(v.Benchmarks) == 0:
		return g.r.Errorf(rec.Line, "recording %s lists no benchmarks", v.RunID)
	}
	for i, b := range v.Benchmarks {
		if b.Index != i || b.Name == "" {
			return g.r.Errorf(rec.Line, "recording %s: benchmark %d has index %d and name %q; number them from 0 in order, each with a name", v.RunID, i, b.Index, b.Name)
		}
	}
	r := &Recording{Record: *v, Seen: 1, Line: rec.No}
	if prev := g.recByID[v.RunID]; prev != nil {
		r.Seen = prev.Seen + 1
	}
	g.open = nil
	g.openRec, g.lastRec, g.recByID[v.RunID], g.recLater = r, r, r, true
	rec.Recording, rec.Value = r, v
	return nil
}

// inRecording places a span, process or recording_end record in the open
// recording.
func (g *Reader) inRecording(rec *Record) error {
	r, err := g.currentRecording(rec.Line)
	if err != nil {
		return err
	}
	rec.Recording = r
	switch rec.Type {
	case ndjson.TypeSpan:
		return g.addSpan(rec, r)
	case ndjson.TypeProcess:
		v := &ndjson.ProcessUsage{}
		rec.Value = v
		if err := g.r.Decode(rec.Line, v); err != nil {
			return err
		}
		return g.sameRecording(rec.Line, r, v.RunID)
	}
	return g.addRecordingEnd(rec, r)
}

// currentRecording is the open recording, or an error saying why there
// is none.
func (g *Reader) currentRecording(l ndjson.Line) (*Recording, error) {
	switch {
	case g.openRec != nil:
		return g.openRec, nil
	case g.lastRec == nil:
		return nil, g.r.Errorf(l, "%s record before any recording record", l.Type)
	case l.Type == ndjson.TypeRecordingEnd && g.recLater:
		return nil, g.r.Errorf(l, "second recording_end record for recording %s", g.lastRec.ID())
	}
	return nil, g.r.Errorf(l, "%s record outside a recording (after the recording_end of %s, or inside a run); a recording record must come first", l.Type, g.lastRec.ID())
}

// sameRecording refuses a record that names another recording than the
// open one.
func (g *Reader) sameRecording(l ndjson.Line, r *Recording, id string) error {
	if id != "" && id != r.ID() {
		return g.r.Errorf(l, "%s record for recording %s inside recording %s", l.Type, id, r.ID())
	}
	return nil
}

// checkBenchmark refuses a benchmark index the recording does not have.
func (g *Reader) checkBenchmark(l ndjson.Line, r *Recording, b int) error {
	if n := len(r.Record.Benchmarks); b < 0 || b >= n {
		return g.r.Errorf(l, "%s record for benchmark %d, but recording %s has %d benchmarks (0 to %d)", l.Type, b, r.ID(), n, n-1)
	}
	return nil
}

// knownOutcome reports whether o is one of the span outcomes.
func knownOutcome(o string) bool {
	switch o {
	case ndjson.OutcomeSuccess, ndjson.OutcomeFailure, ndjson.OutcomeTimeout, ndjson.OutcomeCancelled:
		return true
	}
	return false
}

func (g *Reader) addSpan(rec *Record, r *Recording) error {
	v := &ndjson.Span{}
	rec.Value = v
	if err := g.r.Decode(rec.Line, v); err != nil {
		return err
	}
	if err := g.sameRecording(rec.Line, r, v.RunID); err != nil {
		return err
	}
	if err := g.checkBenchmark(rec.Line, r, v.Benchmark); err != nil {
		return err
	}
	switch {
	case v.Obs < 1:
		return g.r.Errorf(rec.Line, "span with observation number %d; observations count from 1", v.Obs)
	case !knownOutcome(v.Outcome):
		return g.r.Errorf(rec.Line, "span with outcome %q; use success, failure, timeout or cancelled", v.Outcome)
	case v.WallNS != nil && *v.WallNS < 0:
		return g.r.Errorf(rec.Line, "span with negative wall_ns %d", *v.WallNS)
	}
	return nil
}

// addRecordingEnd closes the open recording; its tallies must name the
// recording's benchmarks.
func (g *Reader) addRecordingEnd(rec *Record, r *Recording) error {
	v := &ndjson.RecordingEnd{}
	if err := g.r.Decode(rec.Line, v); err != nil {
		return err
	}
	if err := g.sameRecording(rec.Line, r, v.RunID); err != nil {
		return err
	}
	for _, t := range v.Benchmarks {
		if err := g.checkBenchmark(rec.Line, r, t.Index); err != nil {
			return err
		}
	}
	rec.Value, r.End, g.openRec = v, v, nil
	return nil
}
