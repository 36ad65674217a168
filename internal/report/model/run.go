package model

import (
	"fmt"
	"slices"
	"strings"

	"github.com/flybench/flybench/internal/axes"
	"github.com/flybench/flybench/internal/field"
	"github.com/flybench/flybench/pkg/ndjson"
)

// Run is everything the stream said about one measurement run.
type Run struct {
	Run ndjson.Run
	// Names spells the options the words name (Stream.Spell).
	Names        field.Names
	Calibrations []ndjson.Calibration
	// Samples are the run's sample records, kept in their stream form only
	// when the load asks for them (KeepSamples); nil otherwise.
	Samples *SampleStore
	// Times are every sample's time per operation, in stream order, kept
	// only when the load asks for them (KeepTimes).
	Times []Time
	// Points are what the figures draw of the samples, in stream order:
	// of every unit, or of a seeded sample of them when Thinned (points.go;
	// KeepPoints).
	Points []Point
	// Thinned says Points leave out some of the run's units (MaxPoints).
	Thinned bool
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
	// writes one after the last run of a suite.
	Suites []ndjson.Suite
	// AAs are the aa records (A/A series, fb-pair --aa) that followed
	// this run.
	AAs []ndjson.AA
	// Exact names the axes measured as deterministic counts: those the
	// run's counter records name, and the custom axes it declares with
	// comparison "exact". An unavailable one is still a count (fb-check
	// judges counts on their own terms).
	Exact map[string]bool
	// repeat says which of several runs with this run_id in the report
	// this is ("2 of 2 with this id"); empty for a run that appears once.
	repeat string
}

// Reference is the index of the case every contender is compared with.
const Reference = 0

// RepeatNote is " (2 of 2 with this id)" for a run whose id repeats in
// the report, else empty.
func (r *Run) RepeatNote() string {
	if r.repeat == "" {
		return ""
	}
	return " (" + r.repeat + ")"
}

// Warnings are the run's warnings: the analysis's, then the stream's.
func (r *Run) Warnings() []string {
	var all []string
	if r.Analysis != nil {
		all = append(all, r.Analysis.Warnings...)
	}
	return append(all, r.StreamWarnings...)
}

// CaseName is case i's name, or "case i" when the run record left it empty.
func (r *Run) CaseName(i int) string {
	if i >= 0 && i < len(r.Run.Cases) && r.Run.Cases[i].Name != "" {
		return r.Run.Cases[i].Name
	}
	return fmt.Sprintf("case %d", i)
}

// Summary is case i's summary, nil when the analysis has none.
func (r *Run) Summary(i int) *ndjson.Summary {
	for k := range r.Summaries {
		if r.Summaries[k].Case == i {
			return &r.Summaries[k]
		}
	}
	return nil
}

// Calibration is case i's calibration, nil when the stream has none.
func (r *Run) Calibration(i int) *ndjson.Calibration {
	for k := range r.Calibrations {
		if r.Calibrations[k].Case == i {
			return &r.Calibrations[k]
		}
	}
	return nil
}

// Against is the comparison of contender i against the reference, or nil.
func (r *Run) Against(i int) *ndjson.Comparison {
	for k := range r.Comparisons {
		c := &r.Comparisons[k]
		if c.Reference == Reference && c.Contender == i {
			return c
		}
	}
	return nil
}

// CPUTimed reports whether the run's per-operation times are CPU time
// (--timer cpu) rather than elapsed time.
func (r *Run) CPUTimed() bool { return r.Run.Timer.KindOf() == ndjson.TimerCPU }

// TimeLabel names the per-operation time in cards and tables: "cpu time"
// for a CPU-timed run, else what is given.
func (r *Run) TimeLabel(elapsed string) string {
	if r.CPUTimed() {
		return "cpu time"
	}
	return elapsed
}

// Incomplete says why a run did not complete, or "" when it did.
func (r *Run) Incomplete() string {
	switch {
	case r.End == nil:
		return "stream cut short (no end record)"
	case r.End.Reason == ndjson.EndCompleted:
		return ""
	case r.End.Reason == ndjson.EndBudget && r.End.Until != nil:
		return "" // a stopping rule's limit: the comparison says so
	case r.End.Reason == "":
		return "end record gives no reason"
	case r.End.Error != "":
		return r.End.Reason + " (" + r.End.Error + ")"
	}
	return r.End.Reason
}

// CILabel names the analysis confidence interval: "95% CI".
func (r *Run) CILabel() string {
	if r.Analysis == nil || r.Analysis.ConfidencePct == 0 {
		return "CI"
	}
	return Confidence(r.Analysis.ConfidencePct) + " CI"
}

// ReferenceWorkload is the index of the run's reference workload, or -1.
func (r *Run) ReferenceWorkload() int {
	for i, c := range r.Run.Cases {
		if c.Role == ndjson.RoleReferenceWorkload {
			return i
		}
	}
	return -1
}

// CaseParams is case i's parameter values as "k=v;k=v", names sorted;
// empty when the case has none.
func (r *Run) CaseParams(i int) string {
	if i < 0 || i >= len(r.Run.Cases) {
		return ""
	}
	params := r.Run.Cases[i].Params
	keys := make([]string, 0, len(params))
	for k := range params {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	parts := make([]string, len(keys))
	for j, k := range keys {
		parts[j] = k + "=" + params[k]
	}
	return strings.Join(parts, ";")
}

// AxisInfo is the provenance of the axis called name: the run's record of
// it, or the catalogue's entry for streams that recorded none.
func (r *Run) AxisInfo(name string) ndjson.AxisInfo {
	for _, a := range r.Run.Axes {
		if a.Name == name {
			return a
		}
	}
	a, ok := axes.Lookup(name)
	if !ok {
		return ndjson.AxisInfo{Name: name}
	}
	return ndjson.AxisInfo{Name: a.Name, Unit: a.Unit, Family: a.Family, Scope: a.Scope,
		Attribution: a.Attribution, Direction: string(a.Direction), Normalization: string(a.Normalization)}
}

// AllComparisons are the run's comparisons, then those with its baseline,
// in the order fb-analyze writes them.
func (r *Run) AllComparisons() []*ndjson.Comparison {
	ks := make([]*ndjson.Comparison, 0, len(r.Comparisons)+len(r.Baseline))
	for i := range r.Comparisons {
		ks = append(ks, &r.Comparisons[i])
	}
	for i := range r.Baseline {
		ks = append(ks, &r.Baseline[i])
	}
	return ks
}

// declaredExact names the custom axes a run record declares with
// comparison "exact".
func declaredExact(r *ndjson.Run) map[string]bool {
	exact := map[string]bool{}
	for _, a := range r.Axes {
		if a.Comparison == ndjson.AxisMethodExact {
			exact[a.Name] = true
		}
	}
	return exact
}
