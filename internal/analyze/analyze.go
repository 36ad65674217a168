// Package analyze turns a measurement stream into analysis records. Every
// input record is passed through in order (earlier analysis records are
// dropped, since they are being replaced), and each run's analysis follows
// its end record. The output is a pure function of the input and Options.
package analyze

import (
	"errors"
	"io"

	"github.com/flybench/flybench/internal/field"
	"github.com/flybench/flybench/internal/runs"
	"github.com/flybench/flybench/pkg/ndjson"
	"github.com/flybench/flybench/pkg/stats"
)

// Options are the analysis settings.
type Options struct {
	Seed      uint64
	Resamples int
	// ProcessResamples is the resample count of process-level intervals
	// (BCa over whole process blocks); 0 means stats.DefaultRunResamples.
	ProcessResamples int
	Confidence       float64 // percent
	ThresholdPct     float64
	// Estimator is the decision estimate of every comparison; "" is the
	// default, stats.EstimatorRobust.
	Estimator stats.Estimator
	// Analyzer identifies the analyzing tool and version in the output.
	Analyzer string
	// Baseline, when set, adds to each run's analysis the comparison of
	// its cases with the baseline's cases of the same name.
	Baseline *Baseline
	// Family is the multiplicity rule of each run's comparisons (family.go).
	Family FamilyOptions
	// Suite, when set, gathers every run's time comparisons for the
	// suite record written after the input (suite.go).
	Suite *SuiteBuilder
	// AA, when set, gathers the comparisons of A/A series (fb-pair --aa)
	// for the aa records written after every input.
	AA *AABuilder
	// Outcome filters the spans of recordings: "all" (or empty) or one
	// span outcome (recording.go).
	Outcome string
	// Names spells the fields the warnings name (fb-pair's request
	// fields, such as "MinSample", and this package's Field constants) as
	// the user knows them; nil spells their paths.
	Names field.Names
	// Recordings, when set, gathers every recording's benchmarks for the
	// span comparisons the caller writes after all inputs; when nil,
	// Stream compares the recordings of its own input at its end.
	Recordings *SpanComparer
}

// DefaultOptions are the defaults: seed 1, 2000 resamples, 95%
// confidence, a 1% practical threshold.
var DefaultOptions = Options{Seed: 1, Resamples: 2000, Confidence: 95, ThresholdPct: 1}

// The fields of Options as its field errors name them.
const (
	FieldResamples        = "analyze.Resamples"
	FieldProcessResamples = "analyze.ProcessResamples"
	FieldConfidence       = "analyze.Confidence"
	FieldThreshold        = "analyze.ThresholdPct"
	FieldOutcome          = "analyze.Outcome"
	FieldMultiplicity     = "analyze.Family.Multiplicity"
	FieldFamily           = "analyze.Family.Scope"
	FieldFamilyConfidence = "analyze.Family.ConfidencePct"
	FieldAllowMismatch    = "analyze.AllowMismatch"
	FieldEstimator        = "analyze.Estimator"
	FieldSeed             = "analyze.Seed"
	FieldBaseline         = "analyze.Baseline"
)

// fb-pair's request fields that warnings name, by their paths in
// measure.Request.
const (
	pairMinSample     = "MinSample"
	pairBatching      = "Batching"
	pairMaxSampling   = "MaxSampling"
	pairTimer         = "Timer"
	pairReference     = "Reference"
	pairUntil         = "Until.Rule"
	pairMaxIterations = "MaxIterations"
	pairPageCache     = "KeepPageCache"
)

// Validate returns a field error naming a bad setting and its allowed
// range.
func (o Options) Validate() error {
	switch {
	case o.Resamples < 100 || o.Resamples > 10000:
		return field.Errorf(FieldResamples, o.Resamples, "%s %d out of range: use 100 to 10000", field.Name(FieldResamples), o.Resamples)
	case o.ProcessResamples != 0 && (o.ProcessResamples < 1000 || o.ProcessResamples > 1_000_000):
		return field.Errorf(FieldProcessResamples, o.ProcessResamples, "%s %d out of range: use 1000 to 1000000", field.Name(FieldProcessResamples), o.ProcessResamples)
	case !(o.Confidence >= 50 && o.Confidence <= 99.9):
		return field.Errorf(FieldConfidence, o.Confidence, "%s %g out of range: use 50 to 99.9 (percent)", field.Name(FieldConfidence), o.Confidence)
	case !(o.ThresholdPct >= 0 && o.ThresholdPct < 100):
		return field.Errorf(FieldThreshold, o.ThresholdPct, "%s %g out of range: use 0 up to (not including) 100 (percent)", field.Name(FieldThreshold), o.ThresholdPct)
	case !validOutcome(o.Outcome):
		return field.Errorf(FieldOutcome, o.Outcome, "%s %q: use success, failure, timeout, cancelled or all", field.Name(FieldOutcome), o.Outcome)
	}
	return o.Family.validate()
}

func (o Options) bootstrap() stats.Bootstrap {
	return stats.Bootstrap{Seed: o.Seed, Resamples: o.Resamples, Confidence: o.Confidence, Estimator: o.Estimator}
}

// legacy reports whether the analysis reproduces schema 1.2's.
func (o Options) legacy() bool { return o.Estimator == stats.EstimatorLegacy }

// Stream analyzes every run read from r and writes the result to w. It stops
// at the first bad line with that line's error; everything before it has
// been written, including the analysis of runs that ended earlier. A
// stream whose last line is a record cut short (an *ndjson.TornError) is
// analysed up to the record before it, and the analysis of the run it
// ends in says so.
func Stream(r *ndjson.Reader, w *ndjson.Writer, opt Options) error {
	if err := opt.Validate(); err != nil {
		return err
	}
	if opt.legacy() {
		w.Version = ndjson.LegacyVersion
	}
	a := newAnalyzer(r, w, opt)
	err := a.loop()
	if ferr := w.Flush(); err == nil {
		err = ferr
	}
	if err == nil {
		err = a.baselineErr
	}
	return err
}

func newAnalyzer(r *ndjson.Reader, w *ndjson.Writer, opt Options) *analyzer {
	a := &analyzer{r: r, g: runs.NewReader(r), w: w, opt: opt, recs: recordings{compare: opt.Recordings}}
	if a.recs.compare == nil {
		a.recs.compare, a.recs.own = NewSpanComparer(), true
	}
	return a
}

func (a *analyzer) loop() error {
	for {
		rec, err := a.g.Next()
		if err != nil {
			return a.stop(err)
		}
		if err := a.record(rec); err != nil {
			return err
		}
	}
}

// stop ends the input at a reader error: the end of the input, a torn
// last line (noted in the analysis it concerns), or a bad line, before
// which everything read has been written.
func (a *analyzer) stop(err error) error {
	var torn *ndjson.TornError
	switch {
	case errors.As(err, &torn):
		a.note(torn.Warning())
		return a.finish()
	case errors.Is(err, io.EOF):
		return a.finish()
	}
	if herr := a.writeHeld(); herr != nil {
		return herr
	}
	return err
}

type analyzer struct {
	r   *ndjson.Reader
	g   *runs.Reader
	w   *ndjson.Writer
	opt Options
	// cur is the data of the open run.
	cur *runData
	// held is the analysis of the run that ended last. It is written
	// before the next record that it does not replace, or at the end of
	// the input, so that a note about the end of the input joins it.
	held []ndjson.Record
	// onRun, when set, receives each complete run instead of its
	// analysis being written (precision planning).
	onRun func(d *runData, end *ndjson.End) error
	// baselineErr is the first run that could not be compared with the
	// baseline; its own analysis was written without that comparison.
	baselineErr error
	// recs is the state of recordings (recording.go).
	recs recordings
}

// record passes rec through, keeping what the analysis needs; earlier
// analysis records are dropped.
func (a *analyzer) record(rec runs.Record) error {
	if rec.Type == ndjson.TypeSuite || rec.Type == ndjson.TypeAA {
		return nil // replaced by this analysis's suite and A/A summaries
	}
	switch rec.Value.(type) {
	case *ndjson.Analysis, *ndjson.Summary, *ndjson.Comparison, *ndjson.Environment,
		*ndjson.SpanSummary, *ndjson.SpanComparison:
		return nil // replaced by this analysis
	}
	if err := a.writeHeld(); err != nil {
		return err
	}
	if ok, err := a.recordingHook(rec); ok {
		return err
	}
	switch v := rec.Value.(type) {
	case *ndjson.Run:
		if err := a.flush(nil); err != nil { // cut short by this run record
			return err
		}
		if err := a.closeRecording(nil); err != nil { // a recording cut short
			return err
		}
		if err := checkRoles(v.Cases); err != nil {
			return a.r.Errorf(rec.Line, "bad run record: %v", err)
		}
		a.cur = newRunData(*v, a.opt.Names)
		a.cur.host = hostRecords{lock: rec.Run.Lock, gate: rec.Run.Gate}
	case *ndjson.Sample:
		if err := a.cur.add(*v); err != nil {
			return a.r.Errorf(rec.Line, "bad sample record: %v", err)
		}
	case *ndjson.Calibration:
		a.cur.calibrations = append(a.cur.calibrations, *v)
	case *ndjson.Look:
		a.cur.looks = append(a.cur.looks, *v)
	case *ndjson.Counter:
		a.cur.counters = append(a.cur.counters, *v)
	case *ndjson.Block:
		a.cur.blocks = append(a.cur.blocks, *v)
	case *ndjson.Window:
		a.cur.host.windows = append(a.cur.host.windows, *v)
	case *ndjson.End:
		if err := a.w.WriteRaw(rec.Raw); err != nil {
			return err
		}
		return a.flush(v)
	}
	return a.w.WriteRaw(rec.Raw)
}

// note adds a warning about the input to the analysis of the run it
// concerns: the open run, or the one that ended last when its analysis is
// still held.
func (a *analyzer) note(warning string) {
	switch {
	case a.recs.cur != nil:
		a.recs.cur.notes = append(a.recs.cur.notes, warning)
	case a.cur != nil:
		a.cur.notes = append(a.cur.notes, warning)
	case len(a.held) > 0:
		head := a.held[0].(*ndjson.Analysis)
		head.Warnings = append(head.Warnings, warning)
	}
}

// finish ends the input: a run or recording still open was cut short.
// Then come the span comparisons of this input's recordings, unless the
// caller gathers them across inputs.
func (a *analyzer) finish() error {
	if err := a.flush(nil); err != nil {
		return err
	}
	if err := a.writeHeld(); err != nil {
		return err
	}
	if err := a.closeRecording(nil); err != nil {
		return err
	}
	if a.recs.own {
		return WriteSpanComparisons(a.w, a.recs.compare, a.opt)
	}
	return nil
}

// flush analyzes the current run, if any. end is nil when the run was cut
// short (another run began, or the stream ended); otherwise the analysis
// is held.
func (a *analyzer) flush(end *ndjson.End) error {
	if a.cur == nil {
		return nil
	}
	d := a.cur
	a.cur = nil
	if a.onRun != nil {
		return a.onRun(d, end)
	}
	a.held = d.analyze(end, a.opt)
	a.opt.Suite.add(d, a.held) // the run's own comparisons, before any with a baseline
	a.opt.AA.add(d, a.held)
	if a.opt.Baseline != nil {
		a.addBaseline(d)
	}
	if end != nil {
		return nil
	}
	return a.writeHeld()
}

func (a *analyzer) writeHeld() error {
	if len(a.held) == 0 {
		return nil
	}
	recs := a.held
	a.held = nil
	for _, rec := range recs {
		if err := a.w.Write(rec); err != nil {
			return err
		}
	}
	return a.w.Flush()
}
