// Package runs reads a stream as runs: it decodes every record it knows
// and places it in the run it belongs to, by the rules of fb-stream(5).
// fb-analyze and fb-report both read streams through it, so a stream one of
// them accepts the other groups the same way.
//
// The rules: lock and gate records belong to the next run record (a second
// one before it replaces the first; with no run record after them they
// belong to none). Calibration, sample, window, look, counter and block records belong to
// the open run: the latest run record, until its end record closes it. A
// run record closes an open run without one (that run was cut short).
// Analysis, summary, comparison and environment records name their run by
// run_id: they belong to the latest run record with that id before them,
// and a run has at most one of each (one summary per case, one comparison
// per pair of cases). A run_id may appear on more than one run record:
// each begins a run of its own, as when the same measurement was analysed
// twice with different flags and the two analyses were concatenated.
//
// Recordings (recording.go) are units beside runs: a recording record
// opens one as a run record opens a run, and span, process and
// recording_end records belong to it as samples and end records belong
// to a run; span_summary and span_comparison records name theirs by
// run_id, as summaries and comparisons do.
package runs

import (
	"github.com/flybench/flybench/pkg/ndjson"
)

// Run is one run as it appears in a stream: its run record, the lock and
// gate records before it and, once read, its end record.
type Run struct {
	Record ndjson.Run
	// Lock and Gate are nil when no such record preceded the run record.
	Lock *ndjson.Lock
	Gate *ndjson.Gate
	// End is nil until the run's end record is read, and stays nil for a
	// run cut short.
	End *ndjson.End
	// Seen counts the run records with this run_id so far in the stream,
	// this one included: 2 or more for a run that appears again.
	Seen int
	// Line is the run record's line number.
	Line int
	// what the run has received by run_id, to refuse a second one
	analysis, environment bool
	summaries             map[int]bool
	comparisons           map[[2]int]bool
	baselines             map[[2]int]bool // comparisons with a baseline run's case
	// units are the units each case has a sample for (units.go)
	units []*unitSet
}

// ID is the run's run_id.
func (r *Run) ID() string { return r.Record.RunID }

// Record is one record of the stream and the run it belongs to.
type Record struct {
	ndjson.Line
	// Run is the run the record belongs to: the run a run record opens,
	// the open run for calibration, sample, window, look, counter, block and end records,
	// the run an analysis, summary, comparison or environment record
	// names. It is nil for lock and gate records, which Reader keeps for
	// the next run record, and for record types it does not know.
	Run *Run
	// Recording is the recording a recording, span, process,
	// recording_end, span_summary or span_comparison record belongs to
	// (recording.go); nil for every other record.
	Recording *Recording
	// Value is the decoded record (*ndjson.Run, *ndjson.Sample, ...), nil
	// for record types Reader does not know. A *ndjson.Sample is reused
	// by the next call to Next.
	Value any
}

// Reader groups the records of one input into runs.
type Reader struct {
	r *ndjson.Reader
	// open is the run measurement records belong to; last is the latest
	// run; byID the latest run of each run_id.
	open, last *Run
	byID       map[string]*Run
	// lock and gate wait for the run record they precede.
	lock   *ndjson.Lock
	gate   *ndjson.Gate
	sample ndjson.Sample
	// openRec is the recording span records belong to, lastRec the
	// latest recording, recByID the latest of each run_id; recLater says
	// the latest recording came after the latest run (recording.go).
	openRec, lastRec *Recording
	recByID          map[string]*Recording
	recLater         bool
}

// NewReader reads the records r reads.
func NewReader(r *ndjson.Reader) *Reader {
	return &Reader{r: r, byID: map[string]*Run{}, recByID: map[string]*Recording{}}
}

// Open is the run that is open (no end record yet), or nil.
func (g *Reader) Open() *Run { return g.open }

// Last is the latest run the stream opened, or nil.
func (g *Reader) Last() *Run { return g.last }

// Next returns the next record, or the underlying reader's error: io.EOF,
// an *ndjson.TornError, *ndjson.SyntaxError or *ndjson.VersionError. A
// record that does not fit the runs around it is a *ndjson.SyntaxError.
func (g *Reader) Next() (Record, error) {
	l, err := g.r.Next()
	if err != nil {
		return Record{}, err
	}
	rec := Record{Line: l}
	switch l.Type {
	case ndjson.TypeRun:
		err = g.run(&rec)
	case ndjson.TypeLock, ndjson.TypeGate:
		err = g.host(&rec)
	case ndjson.TypeCalibration, ndjson.TypeSample, ndjson.TypeWindow, ndjson.TypeLook, ndjson.TypeCounter, ndjson.TypeBlock, ndjson.TypeEnd:
		err = g.measurement(&rec)
	case ndjson.TypeAnalysis, ndjson.TypeSummary, ndjson.TypeComparison, ndjson.TypeEnvironment:
		err = g.analysis(&rec)
	case ndjson.TypeRecording:
		err = g.recording(&rec)
	case ndjson.TypeSpan, ndjson.TypeProcess, ndjson.TypeRecordingEnd:
		err = g.inRecording(&rec)
	case ndjson.TypeSpanSummary, ndjson.TypeSpanComparison:
		err = g.recordingAnalysis(&rec)
	}
	if err != nil {
		return Record{}, err
	}
	return rec, nil
}

func (g *Reader) run(rec *Record) error {
	v := &ndjson.Run{}
	if err := g.r.Decode(rec.Line, v); err != nil {
		return err
	}
	switch {
	case v.RunID == "":
		return g.r.Errorf(rec.Line, "run record has no run_id")
	case len(v.Cases) == 0:
		return g.r.Errorf(rec.Line, "run %s lists no cases", v.RunID)
	}
	run := &Run{Record: *v, Lock: g.lock, Gate: g.gate, Seen: 1, Line: rec.No}
	if prev := g.byID[v.RunID]; prev != nil {
		run.Seen = prev.Seen + 1
	}
	g.lock, g.gate = nil, nil
	g.open, g.last, g.byID[v.RunID] = run, run, run
	g.openRec, g.recLater = nil, false // a run record closes an open recording
	rec.Run, rec.Value = run, v
	return nil
}

// host keeps a lock or gate record for the next run record.
func (g *Reader) host(rec *Record) error {
	if rec.Type == ndjson.TypeLock {
		v := &ndjson.Lock{}
		if err := g.r.Decode(rec.Line, v); err != nil {
			return err
		}
		g.lock, rec.Value = v, v
		return nil
	}
	v := &ndjson.Gate{}
	if err := g.r.Decode(rec.Line, v); err != nil {
		return err
	}
	g.gate, rec.Value = v, v
	return nil
}

// checkCase refuses a case index the run does not have.
func (g *Reader) checkCase(l ndjson.Line, run *Run, c int) error {
	if n := len(run.Record.Cases); c < 0 || c >= n {
		return g.r.Errorf(l, "%s record for case %d, but run %s has %d cases (0 to %d)", l.Type, c, run.ID(), n, n-1)
	}
	return nil
}
