package analyze

import (
	"fmt"
	"io"
	"math"

	"github.com/flybench/flybench/pkg/ndjson"
	"github.com/flybench/flybench/pkg/stats"
)

// PlanError is a run of a pilot stream that cannot be planned from.
type PlanError struct {
	RunID string
	Err   error
}

func (e *PlanError) Error() string { return fmt.Sprintf("run %s: %v", e.RunID, e.Err) }
func (e *PlanError) Unwrap() error { return e.Err }

// RunPlan is the precision plan for one run of a pilot stream: the units
// each comparison (or, for one case, its mean) needs for the target
// half-width, and what the pilot says a run of that size costs.
type RunPlan struct {
	Run   ndjson.Run
	Plans []CasePlan
	// Units is the largest plan's unit count.
	Units int
	// UnitNS is the pilot's sampling time per unit, overhead included;
	// SetupNS its time outside sampling (warm-up, calibration, hooks).
	UnitNS  float64
	SetupNS int64
	// SliceNS is the pilot's batch target.
	SliceNS int64
	// Complete is false when the pilot has no end record.
	Complete bool
	// ConfidencePct is the level each planned interval is at: the
	// family's per-comparison level when the run makes several
	// comparisons, as the analysis of the planned run will use.
	ConfidencePct float64
}

// CasePlan is the plan of one comparison (Contender > 0) or of a single
// case's mean (Contender 0).
type CasePlan struct {
	Contender int
	Name      string
	stats.Plan
}

// PlanStream reads a pilot stream and plans, for every run in it, a run
// of the same kind whose decision intervals have a half-width of at most
// halfWidthPct percent at opt.Confidence (stats.PlanUnits). It stops at
// the first bad line with that line's error.
func PlanStream(r *ndjson.Reader, opt Options, halfWidthPct float64) ([]RunPlan, error) {
	if err := opt.Validate(); err != nil {
		return nil, err
	}
	var plans []RunPlan
	a := newAnalyzer(r, ndjson.NewWriter(io.Discard), opt)
	a.onRun = func(d *runData, end *ndjson.End) error {
		p, err := d.plan(end, opt, halfWidthPct)
		if err != nil {
			return &PlanError{RunID: d.run.RunID, Err: err}
		}
		plans = append(plans, p)
		return nil
	}
	return plans, a.loop()
}

func (d *runData) plan(end *ndjson.End, opt Options, halfWidthPct float64) (RunPlan, error) {
	if d.run.Design == ndjson.DesignSequential {
		return RunPlan{}, fmt.Errorf("a sequential pilot has no pairs to plan from; collect the pilot paired")
	}
	rp := RunPlan{Run: d.run, Complete: end != nil, SliceNS: d.sliceNS()}
	if end != nil && end.Units > 0 {
		rp.UnitNS = float64(end.SamplingNS) / float64(end.Units)
		rp.SetupNS = end.ElapsedNS - end.SamplingNS
	}
	b := opt.bootstrap()
	if fam, _ := d.family(opt); fam != nil && !opt.legacy() {
		b.Confidence = fam.PerComparisonPct
	}
	rp.ConfidencePct = b.Confidence
	if d.measured() == 1 {
		x := d.ops(0)
		for i := range x {
			x[i] = math.Log(x[i])
		}
		mean := b
		mean.Estimator = stats.EstimatorLegacy // the summary's interval of the mean, as --until width judges it
		p, err := stats.PlanUnits(x, nil, mean, halfWidthPct)
		if err != nil {
			return rp, err
		}
		rp.Plans = append(rp.Plans, CasePlan{Name: d.name(0), Plan: p})
	}
	for c := 1; c < len(d.cases); c++ {
		if !d.compared(c) {
			continue
		}
		in := d.pairs(c)
		x := make([]float64, len(in.Ref))
		for i := range x {
			x[i] = math.Log(in.Ref[i] / in.Con[i])
		}
		p, err := stats.PlanUnits(x, in.RefFirst, b, halfWidthPct)
		if err != nil {
			return rp, fmt.Errorf("%s vs %s: %w", d.name(0), d.name(c), err)
		}
		rp.Plans = append(rp.Plans, CasePlan{Contender: c, Name: d.name(c), Plan: p})
	}
	for _, p := range rp.Plans {
		rp.Units = max(rp.Units, p.Units)
	}
	return rp, nil
}
