package report

import (
	"errors"
	"io"

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
}

// Load reads a whole stream. Measurement and window records belong to the
// run record before them; lock and gate records to the run record after
// them (and are dropped when none follows); analysis and environment
// records name their run by id. Unknown record types are skipped. Errors
// are the reader's *ndjson.SyntaxError and *ndjson.VersionError, or a
// *ndjson.SyntaxError for a record that does not fit the runs around it.
func Load(r *ndjson.Reader) ([]*Run, error) {
	ld := &loader{r: r, byID: map[string]*Run{}}
	for {
		l, err := r.Next()
		if errors.Is(err, io.EOF) {
			return ld.runs, nil
		}
		if err != nil {
			return nil, err
		}
		if err := ld.add(l); err != nil {
			return nil, err
		}
	}
}

// loader assembles runs from records in stream order.
type loader struct {
	r    *ndjson.Reader
	runs []*Run
	byID map[string]*Run
	cur  *Run // the run measurement records belong to
	// lock and gate wait for the run record they precede.
	lock *ndjson.Lock
	gate *ndjson.Gate
}

func (ld *loader) add(l ndjson.Line) error {
	switch l.Type {
	case ndjson.TypeRun:
		return ld.addRun(l)
	case ndjson.TypeCalibration:
		return ld.addCalibration(l)
	case ndjson.TypeSample:
		return ld.addSample(l)
	case ndjson.TypeEnd:
		return ld.addEnd(l)
	case ndjson.TypeAnalysis:
		return ld.addAnalysis(l)
	case ndjson.TypeSummary:
		return ld.addSummary(l)
	case ndjson.TypeComparison:
		return ld.addComparison(l)
	case ndjson.TypeLock:
		return ld.addLock(l)
	case ndjson.TypeGate:
		return ld.addGate(l)
	case ndjson.TypeWindow:
		return ld.addWindow(l)
	case ndjson.TypeEnvironment:
		return ld.addEnvironment(l)
	case ndjson.TypeLook:
		return ld.addLook(l)
	}
	return nil
}

func (ld *loader) addRun(l ndjson.Line) error {
	run := &Run{}
	if err := ld.r.Decode(l, &run.Run); err != nil {
		return err
	}
	id := run.Run.RunID
	switch {
	case id == "":
		return ld.r.Errorf(l, "run record has no run_id")
	case ld.byID[id] != nil:
		return ld.r.Errorf(l, "run %s appears twice in the stream", id)
	case len(run.Run.Cases) == 0:
		return ld.r.Errorf(l, "run %s lists no cases", id)
	}
	run.Lock, run.Gate, ld.lock, ld.gate = ld.lock, ld.gate, nil, nil
	ld.runs = append(ld.runs, run)
	ld.byID[id] = run
	ld.cur = run
	return nil
}

// current is the open run a calibration, sample or end record belongs to.
func (ld *loader) current(l ndjson.Line) (*Run, error) {
	if ld.cur == nil {
		return nil, ld.r.Errorf(l, "%s record before any run record", l.Type)
	}
	return ld.cur, nil
}

// owner is the run an analysis record names.
func (ld *loader) owner(l ndjson.Line, id string) (*Run, error) {
	if id == "" {
		return nil, ld.r.Errorf(l, "%s record has no run_id", l.Type)
	}
	run := ld.byID[id]
	if run == nil {
		return nil, ld.r.Errorf(l, "%s record for run %s, which no run record in the stream opened", l.Type, id)
	}
	return run, nil
}

// checkCase rejects a case index the run does not have.
func (ld *loader) checkCase(l ndjson.Line, run *Run, c int) error {
	if c < 0 || c >= len(run.Run.Cases) {
		return ld.r.Errorf(l, "%s record for case %d, but run %s has %d cases",
			l.Type, c, run.Run.RunID, len(run.Run.Cases))
	}
	return nil
}
