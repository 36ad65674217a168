package check

import (
	"errors"
	"fmt"
	"io"

	"github.com/flybench/flybench/internal/runs"
	"github.com/flybench/flybench/pkg/ndjson"
)

// Run is what fb-check needs of one run of a stream: its run record, its
// analysis and comparisons, and which of its axes are deterministic
// counters.
type Run struct {
	Record ndjson.Run
	// Analysis is nil when the stream was not analyzed.
	Analysis    *ndjson.Analysis
	Comparisons []ndjson.Comparison
	// Exact names the axes measured as deterministic counts: those counter
	// records name, and custom axes the run declares with comparison
	// "exact". An unavailable one is still a counter to skip.
	Exact map[string]bool
	// Torn is the warning of a stream that ends mid-record after this run.
	Torn string
}

// Load reads a whole stream, grouped into runs by package runs (the rules
// of fb-stream(5)). Unknown record types are skipped; counter records mark
// their axis as exact in the latest run with their run_id. Errors are the
// reader's *ndjson.SyntaxError and *ndjson.VersionError; a torn last line
// ends the stream and is noted on the run before it.
func Load(r *ndjson.Reader) ([]*Run, error) {
	g := runs.NewReader(r)
	ld := loader{byRun: map[*runs.Run]*Run{}, byID: map[string]*Run{}}
	for {
		rec, err := g.Next()
		if err != nil {
			return ld.stop(g, err)
		}
		if err := ld.add(r, rec); err != nil {
			return nil, err
		}
	}
}

type loader struct {
	runs  []*Run
	byRun map[*runs.Run]*Run
	byID  map[string]*Run
}

func (ld *loader) stop(g *runs.Reader, err error) ([]*Run, error) {
	var torn *ndjson.TornError
	switch {
	case errors.As(err, &torn):
		if last := ld.byRun[g.Last()]; last != nil {
			last.Torn = torn.Warning()
		}
		return ld.runs, nil
	case errors.Is(err, io.EOF):
		return ld.runs, nil
	}
	return nil, err
}

func (ld *loader) add(r *ndjson.Reader, rec runs.Record) error {
	if rec.Type == ndjson.TypeCounter {
		return ld.counter(r, rec.Line)
	}
	if v, ok := rec.Value.(*ndjson.Run); ok {
		run := &Run{Record: *v, Exact: declaredExact(v)}
		ld.runs = append(ld.runs, run)
		ld.byRun[rec.Run], ld.byID[v.RunID] = run, run
		return nil
	}
	run := ld.byRun[rec.Run]
	if run == nil {
		return nil
	}
	switch v := rec.Value.(type) {
	case *ndjson.Analysis:
		run.Analysis = v
	case *ndjson.Comparison:
		run.Comparisons = append(run.Comparisons, *v)
	}
	return nil
}

// counter marks the axis of a counter record as exact in its run.
func (ld *loader) counter(r *ndjson.Reader, l ndjson.Line) error {
	var c ndjson.Counter
	if err := r.Decode(l, &c); err != nil {
		return err
	}
	if run := ld.byID[c.RunID]; run != nil && c.Axis != "" {
		run.Exact[c.Axis] = true
	}
	return nil
}

// declaredExact names the custom axes a run declares with comparison
// "exact".
func declaredExact(r *ndjson.Run) map[string]bool {
	exact := map[string]bool{}
	for _, a := range r.Axes {
		if a.Comparison == ndjson.AxisMethodExact {
			exact[a.Name] = true
		}
	}
	return exact
}

// NotAnalyzedError is an input fb-check cannot judge at all: no run, or a
// run without analysis records.
type NotAnalyzedError struct{ msg string }

func (e *NotAnalyzedError) Error() string { return e.msg }

// CheckAnalyzed refuses an empty input and a run fb-analyze did not
// analyze: the gate judges fb-analyze's records and computes no statistic
// of its own.
func CheckAnalyzed(all []*Run) error {
	if len(all) == 0 {
		return &NotAnalyzedError{"the input holds no run records, nothing to check"}
	}
	for _, r := range all {
		if r.Analysis != nil {
			continue
		}
		msg := fmt.Sprintf("run %s was not analyzed: pipe the stream through fb-analyze first (fb-pair ... | fb-analyze | fb-check)",
			shortID(r.Record.RunID))
		if r.Torn != "" {
			msg = fmt.Sprintf("run %s has no analysis record: the %s", shortID(r.Record.RunID), r.Torn)
		}
		return &NotAnalyzedError{msg}
	}
	return nil
}

// shortID is the first 8 characters of a run id, as every report shows it.
func shortID(id string) string {
	if len(id) > 8 {
		return id[:8]
	}
	return id
}
