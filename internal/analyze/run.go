package analyze

import (
	"fmt"
	"slices"
	"sync"

	"github.com/flybench/flybench/internal/field"
	"github.com/flybench/flybench/pkg/ndjson"
	"github.com/flybench/flybench/pkg/stats"
)

// point is the part of a sample the analysis uses.
type point struct {
	unit, pos int32
	// block and attempt name the process block of the sample (--invocations);
	// block is -1 without one.
	block, attempt int32
	ax             int32 // the sample's axis values start at runData.vals[ax]; -1 when none
	iter           int64
	wall           int64
	op             float64
	tele           *ndjson.Telemetry
	overlap        float32 // a duet sample's overlap with its other side; -1 when none
}

// runData accumulates one run's samples, per case in stream order.
type runData struct {
	run   ndjson.Run
	extra []ndjson.AxisInfo // requested axes besides wall time
	cases [][]point
	vals  []axisVal // every sample's extra axes, len(extra) per sample
	host  hostRecords
	looks []ndjson.Look // the looks of a stopping rule
	// calibrations are the run's calibration records.
	calibrations []ndjson.Calibration
	// notes are warnings about the input, e.g. that it ended mid-record.
	notes []string
	// counters are the run's counter records (exact.go).
	counters []ndjson.Counter
	// blocks are the run's process-block records (--invocations; process.go).
	blocks []ndjson.Block
	// names spells the fields the warnings name (Options.Names).
	names field.Names
}

func newRunData(run ndjson.Run, names field.Names) *runData {
	d := &runData{run: run, extra: extraAxes(run), cases: make([][]point, len(run.Cases)), names: names}
	for c := range d.cases {
		d.cases[c] = make([]point, 0, min(max(run.Config.Samples, 0), 100_000))
	}
	return d
}

// add keeps a sample; its axes must match the run's.
func (d *runData) add(s ndjson.Sample) error {
	vals, err := sampleAxes(d.extra, s)
	if err != nil {
		return err
	}
	p := point{unit: int32(s.Unit), pos: int32(s.Pos), ax: -1, block: -1, iter: s.Iter, wall: s.WallNS, op: s.OpNS, tele: s.Tele, overlap: -1}
	if s.Overlap != nil {
		p.overlap = float32(*s.Overlap)
	}
	if s.Proc != nil {
		p.block, p.attempt = int32(s.Proc.Block), int32(s.Proc.Attempt)
	}
	if len(vals) > 0 {
		p.ax = int32(len(d.vals))
		d.vals = append(d.vals, vals...)
	}
	d.cases[s.Case] = append(d.cases[s.Case], p)
	return nil
}

// val is axis i of the sample p.
func (d *runData) val(p point, i int) axisVal {
	return d.vals[int(p.ax)+i]
}

// analyze produces the analysis, summary and comparison records of the run.
func (d *runData) analyze(end *ndjson.End, opt Options) []ndjson.Record {
	head := &ndjson.Analysis{
		RunID: d.run.RunID, Analyzer: opt.Analyzer, Seed: opt.Seed, Resamples: opt.Resamples,
		ConfidencePct: opt.Confidence, ThresholdPct: opt.ThresholdPct, BlockRule: stats.BlockRule,
		IntervalMethod: stats.IntervalMethod,
	}
	if !opt.legacy() {
		head.IntervalMethod, head.Estimator = stats.LocationMethod, string(opt.bootstrap().Estimator)
		if head.Estimator == "" {
			head.Estimator = string(stats.EstimatorRobust)
		}
	}
	head.Complete, head.Warnings = d.completeness(end)
	head.Warnings = append(head.Warnings, d.dropIncompleteBlocks()...)
	head.Warnings = append(head.Warnings, d.escapeWarnings(end)...)
	if t := d.run.Timer; t != nil && t.Kind == ndjson.TimerWall && t.Note != "" {
		head.Warnings = append(head.Warnings, t.Note)
	}
	if d.run.Timer.KindOf() == ndjson.TimerCPU {
		head.Warnings = append(head.Warnings, cpuTimerWarning(d.names))
	}
	if d.run.Design == ndjson.DesignSequential {
		d.trimToCommonCount()
	}
	seq, copt, fam, famWarnings := d.levels(end, opt)
	head.Family = fam
	if seq != nil {
		head.Warnings = append(head.Warnings, d.untilWarnings(opt)...)
	}
	head.Warnings = append(head.Warnings, famWarnings...)
	head.Warnings = append(head.Warnings, d.notes...)
	k := len(d.cases)
	summaries := make([]*ndjson.Summary, k)
	comparisons := make([]*ndjson.Comparison, k)
	failures := make([]error, k)
	// Every summary and comparison is independent and uses its own random
	// stream, so they are computed concurrently and gathered in case order:
	// the output does not depend on scheduling.
	var wg sync.WaitGroup
	for c := 0; c < k; c++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			summaries[c] = d.summary(c, opt)
		}()
		if d.compared(c) {
			wg.Add(1)
			go func() {
				defer wg.Done()
				comparisons[c], failures[c] = d.compare(c, copt)
				if comparisons[c] != nil && seq != nil {
					comparisons[c].Sequential = seq
				}
			}()
		}
	}
	wg.Wait()
	normalize(summaries, referenceCase(d.run))
	recs := []ndjson.Record{head}
	for _, s := range summaries {
		if s != nil {
			recs = append(recs, s)
		}
	}
	for c := 1; c < k; c++ {
		if !d.compared(c) {
			continue
		}
		if failures[c] != nil {
			head.Warnings = append(head.Warnings, fmt.Sprintf("%s vs %s not compared: %v", d.name(0), d.name(c), failures[c]))
			continue
		}
		recs = append(recs, comparisons[c])
	}
	return append(recs, d.environment(end))
}

// EscapeWarning says that n runs of a case left processes behind, for
// the producer's stderr and the analysis alike (end.escaped).
func EscapeWarning(name string, n int64) string {
	runs := "runs"
	if n == 1 {
		runs = "run"
	}
	return fmt.Sprintf("%s: %d %s left processes of their group running when they exited (a background job, or a child not waited for); "+
		"they were killed, and the work they did is not in the times", name, n, runs)
}

// escapeWarnings are the EscapeWarnings of the cases the end record counts.
func (d *runData) escapeWarnings(end *ndjson.End) []string {
	var w []string
	if end == nil {
		return nil
	}
	for c, n := range end.Escaped {
		if n > 0 && c < len(d.run.Cases) {
			w = append(w, EscapeWarning(d.name(c), n))
		}
	}
	return w
}

// completeness says whether the run ended normally, and why not.
func (d *runData) completeness(end *ndjson.End) (bool, []string) {
	n := 0
	for _, c := range d.cases {
		n += len(c)
	}
	switch {
	case end == nil:
		return false, []string{fmt.Sprintf("the stream was cut short (no end record); analyzing the %d samples present", n)}
	case end.Reason == ndjson.EndBudget && end.Until != nil:
		return true, nil // the comparisons say that the run hit its limit
	case end.Reason == ndjson.EndBudget:
		return true, []string{fmt.Sprintf("%s stopped sampling after %d of %d planned units", d.names.Spell(pairMaxSampling), end.Units, d.plannedUnits())}
	case end.Reason != ndjson.EndCompleted:
		msg := fmt.Sprintf("run ended %s after %d units", end.Reason, end.Units)
		if end.Error != "" {
			msg += ": " + end.Error
		}
		return false, []string{msg}
	}
	return true, nil
}

// plannedUnits is the run's sample count: configured, or, when chosen
// automatically, as its calibration records give it.
func (d *runData) plannedUnits() int {
	if n := d.run.Config.Samples; n > 0 || len(d.calibrations) == 0 {
		return n
	}
	return d.calibrations[0].Samples
}

// sliceNS is the run's batch target: configured, or from its calibration.
func (d *runData) sliceNS() int64 {
	if s := d.run.Config.SliceNS; s > 0 || len(d.calibrations) == 0 {
		return s
	}
	return d.calibrations[0].TargetNS
}

// trimToCommonCount keeps, for a sequential run, the first samples of each
// case up to the count every case completed: only those are comparable.
func (d *runData) trimToCommonCount() {
	m := len(d.cases[0])
	for _, c := range d.cases {
		m = min(m, len(c))
	}
	for i := range d.cases {
		d.cases[i] = d.cases[i][:m]
	}
}

func (d *runData) name(c int) string {
	return d.run.Cases[c].Name
}

func (d *runData) ops(c int) []float64 {
	x := make([]float64, len(d.cases[c]))
	for i, p := range d.cases[c] {
		x[i] = p.op
	}
	return x
}

// summary describes case c, or returns nil when it has no samples.
func (d *runData) summary(c int, opt Options) *ndjson.Summary {
	pts := d.cases[c]
	if len(pts) == 0 {
		return nil
	}
	x := d.ops(c)
	s := stats.Summarize(x)
	rec := &ndjson.Summary{
		RunID: d.run.RunID, Case: c, Name: d.name(c), N: s.N,
		Min: s.Min, Median: s.Median, Mean: s.Mean, P95: s.P95, P99: s.P99, Max: s.Max,
		SD: s.SD, MAD: s.MAD, CVPct: s.CVPct, Lag1: s.Lag1,
		Outliers: ndjson.Outliers{LowSevere: s.Outliers.LowSevere, LowMild: s.Outliers.LowMild,
			HighMild: s.Outliers.HighMild, HighSevere: s.Outliers.HighSevere},
	}
	lo, hi, block := opt.bootstrap().MeanIntervalAuto(x, fmt.Sprintf("mean/%d", c))
	rec.BlockLen = block
	rec.MeanCI = [2]float64{lo, hi}
	d.batchFacts(rec, pts, opt)
	if len(d.run.Axes) > 0 {
		rec.Axes = d.axisSummaries(c, rec, opt)
	}
	rec.Telemetry = d.telemetry(c)
	if !opt.legacy() {
		rec.Tail = d.tail(c)
		rec.Throughput = d.throughput(c, rec)
	}
	return rec
}

// batchFacts fills the batch-size, batch-duration and timer facts.
func (d *runData) batchFacts(rec *ndjson.Summary, pts []point, opt Options) {
	walls := make([]float64, len(pts))
	iters := make([]int64, len(pts))
	for i, p := range pts {
		walls[i] = float64(p.wall)
		iters[i] = p.iter
		rec.TimedNS += p.wall
	}
	rec.MedianBatchNS = stats.Median(walls)
	slices.Sort(iters)
	rec.Iterations = iters[len(iters)/2]
	rec.FloorNS = d.run.TimerFloorNS(rec.Iterations)
	if lo, hi := iters[0], iters[len(iters)-1]; lo != hi && !opt.legacy() {
		rec.SizeRange = &[2]int64{lo, hi}
		rec.SizeSlope = caseSizeSlope(pts, opt.Confidence)
	}
}

// cpuTimerWarning says, in every report, that times are CPU time and what
// that leaves out; the run's timer note says the rest.
func cpuTimerWarning(names field.Names) string {
	return "times per operation are CPU time (user+system, " + names.Spell(pairTimer) + " cpu), not elapsed time: " +
		"waiting (sleep, I/O, locks, the run queue) is not in them; wall time is the axis wall"
}
