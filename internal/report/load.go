package report

import (
	"errors"
	"io"

	"github.com/flybench/flybench/internal/runs"
	"github.com/flybench/flybench/pkg/ndjson"
)

// Run is everything the stream said about one measurement run.
type Run struct {
	Run          ndjson.Run
	Calibrations []ndjson.Calibration
	// Samples are kept so the JSON document can carry them and for sparklines.
	Samples []ndjson.Sample
	// End is nil when the stream was cut short.
	End *ndjson.End
	// Analysis is nil when the stream was not analyzed.
	Analysis    *ndjson.Analysis
	Summaries   []ndjson.Summary
	Comparisons []ndjson.Comparison
	// Baseline are the comparisons with an archived baseline run
	// (fb-analyze --baseline; Analysis.Baseline says which).
	Baseline []ndjson.Comparison
	// Lock and Gate are the host records that preceded the run record, nil
	// when the run was not started under fb-lock or fb-gate.
	Lock *ndjson.Lock
	Gate *ndjson.Gate
	// Windows are the interference-watch windows, discarded ones included.
	Windows []ndjson.Window
	// Looks are the checkpoints of a stopping rule (--until).
	Looks []ndjson.Look
	// Environment is fb-analyze's account of the host during the run.
	Environment *ndjson.Environment
	// StreamWarnings are what reading the stream found, e.g. that it ends
	// mid-record after this run: every format shows them with the
	// analysis's own warnings.
	StreamWarnings []string
	// Suites are the suite records that followed this run: fb-analyze
	// writes one after the last run of a suite (suite.go).
	Suites []ndjson.Suite
	// AAs are the aa records (A/A series, fb-pair --aa) that followed
	// this run (aa.go).
	AAs []ndjson.AA
	// repeat says which of several runs with this run_id in the report
	// this is ("2 of 2 with this id"); empty for a run that appears once.
	repeat string
}

// repeatNote is " (2 of 2 with this id)" for a run whose id repeats in
// the report, else empty.
func (r *Run) repeatNote() string {
	if r.repeat == "" {
		return ""
	}
	return " (" + r.repeat + ")"
}

// warnings are the run's warnings: the analysis's, then the stream's.
func (r *Run) warnings() []string {
	var all []string
	if r.Analysis != nil {
		all = append(all, r.Analysis.Warnings...)
	}
	return append(all, r.StreamWarnings...)
}

// Load reads a whole stream, grouped into runs the way fb-analyze groups
// it (package runs; fb-stream(5)). A run_id that appears on more than one
// run record gives as many runs, each with its own analysis. Unknown record
// types are skipped. Errors are the reader's *ndjson.SyntaxError and
// *ndjson.VersionError, or a *ndjson.SyntaxError for a record that does not
// fit the runs around it. A last line cut short ends the stream: the run
// it followed gets a warning in StreamWarnings.
// Recordings are skipped; LoadStream keeps them.
func Load(r *ndjson.Reader) ([]*Run, error) {
	s, err := LoadStream(r)
	if err != nil {
		return nil, err
	}
	return s.Runs, nil
}

// stop ends the input at a reader error: the end of the input, a torn
// last line (a warning on the run before it), or a bad line.
func (ld *loader) stop(g *runs.Reader, err error) ([]*Run, error) {
	var torn *ndjson.TornError
	switch {
	case errors.As(err, &torn):
		if last := ld.byRec[g.LastRecording()]; last != nil {
			last.StreamWarnings = append(last.StreamWarnings, torn.Warning())
		} else if last := ld.byRun[g.Last()]; last != nil {
			last.StreamWarnings = append(last.StreamWarnings, torn.Warning())
		}
		return ld.runs, nil
	case errors.Is(err, io.EOF):
		return ld.runs, nil
	}
	return nil, err
}

// loader keeps the records of each run and recording.
type loader struct {
	runs  []*Run
	byRun map[*runs.Run]*Run
	recs  []*Recording
	byRec map[*runs.Recording]*Recording
}

func (ld *loader) add(rec runs.Record) {
	if rec.Recording != nil {
		ld.addRecording(rec) // recording.go
		return
	}
	if v, ok := rec.Value.(*ndjson.Run); ok {
		run := &Run{Run: *v, Lock: rec.Run.Lock, Gate: rec.Run.Gate}
		ld.runs = append(ld.runs, run)
		ld.byRun[rec.Run] = run
		return
	}
	run := ld.byRun[rec.Run]
	if run == nil {
		return // lock and gate records wait for their run; unknown types are skipped
	}
	switch v := rec.Value.(type) {
	case *ndjson.Calibration:
		run.Calibrations = append(run.Calibrations, *v)
	case *ndjson.Sample:
		run.Samples = append(run.Samples, *v)
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
			return
		}
		run.Comparisons = append(run.Comparisons, *v)
	case *ndjson.Environment:
		run.Environment = v
	}
}
