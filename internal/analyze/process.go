package analyze

import (
	"cmp"
	"errors"
	"fmt"
	"math"
	"slices"

	"github.com/flybench/flybench/internal/field"
	"github.com/flybench/flybench/pkg/ndjson"
	"github.com/flybench/flybench/pkg/stats"
)

// Process-level inference: in a run collected with
// --invocations, each complete process block is one experimental unit.
// The per-run statistic of a case is the mean time per operation of its
// samples in that block; the comparison with the reference is the
// bias-corrected and accelerated bootstrap over complete blocks, paired
// (both members ran in the same block) and stratified by the block's
// orientation, of the direction-aware improvement of the medians.

// view is one of the three process-level views as a per-run statistic: what it
// is a statistic of, its direction, and how it is computed from one
// block's samples of a case (ok false when the block cannot give it).
type view struct {
	name, statistic string
	dir             stats.Direction
	stat            func(pts []point, c int) (float64, string)
}

// latencyView is the mean time per operation of the block.
var latencyView = view{name: ndjson.ProcessLatency, statistic: "mean time per operation of each process block", dir: stats.LowerIsBetter,
	stat: func(pts []point, _ int) (float64, string) { return meanOp(pts), "" }}

func meanOp(pts []point) float64 {
	sum := 0.0
	for _, p := range pts {
		sum += p.op
	}
	return sum / float64(len(pts))
}

// throughputView is work units per second over the block's mean time.
func (d *runData) throughputView() view {
	return view{name: ndjson.ProcessThroughput, statistic: "mean throughput (work units per second) of each process block", dir: stats.HigherIsBetter,
		stat: func(pts []point, c int) (float64, string) { return d.run.Cases[c].WorkUnits / meanOp(pts) * 1e9, "" }}
}

// tailView is the p95 of the block's single operations, which needs at
// least ndjson.MinTailObservations of them, each sample one operation.
var tailView = view{name: ndjson.ProcessTail, statistic: "p95 of the single operations of each process block", dir: stats.LowerIsBetter,
	stat: func(pts []point, _ int) (float64, string) {
		if len(pts) < ndjson.MinTailObservations {
			return 0, fmt.Sprintf("a block has %d single operations of a case; the tail view needs at least %d per block", len(pts), ndjson.MinTailObservations)
		}
		x := make([]float64, len(pts))
		for i, p := range pts {
			x[i] = p.op
		}
		slices.Sort(x)
		return stats.Percentile(x, 95), ""
	}}

// blockPoints groups case c's samples by complete block.
func (d *runData) blockPoints(c int, complete map[blockKey]int) map[blockKey][]point {
	out := map[blockKey][]point{}
	for _, p := range d.cases[c] {
		k := blockKey{p.block, p.attempt}
		if _, ok := complete[k]; ok && p.block >= 0 {
			out[k] = append(out[k], p)
		}
	}
	return out
}

// processLevel is the process-level comparison of case c with case 0 in
// the latency view, nil for a run without process blocks.
func (d *runData) processLevel(c int, opt Options) *ndjson.ProcessLevel {
	if d.run.Config.Invocations < 2 || len(d.blocks) == 0 {
		return nil
	}
	return d.processView(c, opt, latencyView)
}

// processViews are the other views a run supports: throughput when both
// cases declare work units, tail when every sample timed one operation.
func (d *runData) processViews(c int, opt Options) []ndjson.ProcessLevel {
	if d.run.Config.Invocations < 2 || len(d.blocks) == 0 {
		return nil
	}
	var out []ndjson.ProcessLevel
	if d.run.Cases[0].WorkUnits > 0 && d.run.Cases[c].WorkUnits > 0 {
		out = append(out, *d.processView(c, opt, d.throughputView()))
	}
	if d.singleOperations(0) && d.singleOperations(c) {
		out = append(out, *d.processView(c, opt, tailView))
	}
	return out
}

// singleOperations reports whether every sample of case c timed exactly
// one operation.
func (d *runData) singleOperations(c int) bool {
	return len(d.cases[c]) > 0 && !slices.ContainsFunc(d.cases[c], func(p point) bool { return p.iter != 1 })
}

// processView compares case c with case 0 over complete blocks in one view.
func (d *runData) processView(c int, opt Options, v view) *ndjson.ProcessLevel {
	complete := d.completeBlocks()
	ref, con := d.blockPoints(0, complete), d.blockPoints(c, complete)
	keys := make([]blockKey, 0, len(ref))
	for k := range ref {
		if _, ok := con[k]; ok {
			keys = append(keys, k)
		}
	}
	slices.SortFunc(keys, func(a, b blockKey) int {
		return cmp.Or(cmp.Compare(a.block, b.block), cmp.Compare(a.attempt, b.attempt))
	})
	pl := &ndjson.ProcessLevel{View: v.name, Statistic: v.statistic, Design: ndjson.DesignPaired, Runs: len(keys), ConfidencePct: opt.Confidence}
	base, cand, strata := make([]float64, len(keys)), make([]float64, len(keys)), make([]int, len(keys))
	for i, k := range keys {
		var why string
		if base[i], why = v.stat(ref[k], 0); why == "" {
			cand[i], why = v.stat(con[k], c)
		}
		if why != "" {
			pl.Status, pl.Reason = ndjson.ProcessInsufficient, why
			return pl
		}
		strata[i] = complete[k]
	}
	res, err := stats.CompareRunsPaired(base, cand, strata, v.dir,
		stats.RunBootstrap{Seed: opt.Seed, Stream: fmt.Sprintf("process/%s/0/%d", v.name, c), Resamples: opt.ProcessResamples, Confidence: opt.Confidence})
	var ee *stats.EvidenceError
	switch {
	case errors.As(err, &ee):
		pl.Status, pl.Reason = ndjson.ProcessInsufficient, ee.Error()
		return pl
	case err != nil:
		pl.Status, pl.Reason = ndjson.ProcessInsufficient, err.Error()
		return pl
	}
	pl.Status, pl.Method, pl.Resamples, pl.Strata = ndjson.ProcessOK, res.Method, res.Resamples, res.Strata
	pl.ImprovementPct, pl.CI = res.Estimate, [2]float64{res.Lo, res.Hi}
	pl.MCError = mcError(res)
	pl.Verdict = ndjson.Verdict(res.Verdict(opt.ThresholdPct).String())
	return pl
}

// mcErrorWarning says when an end of a bootstrap process-level interval
// would move by more than a tenth of its width between seeds (two
// Monte-Carlo standard errors): the bootstrap distribution of a median of
// few blocks is lumpy, and an end beside a gap may land on either side.
func mcErrorWarning(pl *ndjson.ProcessLevel, names field.Names) string {
	if pl == nil || pl.Status != ndjson.ProcessOK || pl.MCError == nil {
		return ""
	}
	w, e := pl.CI[1]-pl.CI[0], max(pl.MCError[0], pl.MCError[1])
	if w <= 0 || 2*e <= 0.1*w {
		return ""
	}
	return fmt.Sprintf("an end of the process-level interval has a Monte-Carlo standard error of %.2f points (%.0f%% of its width): the bootstrap distribution over %d blocks is lumpy; another %s may move it, more %s or blocks steady it",
		e, 100*e/w, pl.Runs, names.Spell(FieldSeed), names.Spell(FieldProcessResamples))
}

// processWarning says when the process-level and the within-process
// estimates disagree by more than the within-process half-width: the
// sign that process-to-process variation matters.
func processWarning(k *ndjson.Comparison) string {
	pl := k.Process
	if pl == nil || pl.Status != ndjson.ProcessOK {
		return ""
	}
	half := (k.ChangeCI[1] - k.ChangeCI[0]) / 2
	// The improvement is the negated change, to first order.
	if diff := math.Abs(-pl.ImprovementPct - k.ChangePct); diff > half {
		return fmt.Sprintf("the process-level estimate over %d blocks (%+.1f%% time) differs from the within-process one (%+.1f%%) by more than its half-width (±%.1f%%): process-to-process variation matters; the process-level interval is the one that covers it",
			pl.Runs, -pl.ImprovementPct, k.ChangePct, half)
	}
	return ""
}

// processIndependent compares, in the latency view, case c of cur with
// case bc of an archived baseline run over the complete blocks of each
// (nil unless both were collected in process blocks): two separately
// collected groups of runs, each resampled on its own.
func processIndependent(base *runData, bc int, cur *runData, c int, opt Options) *ndjson.ProcessLevel {
	if base.run.Config.Invocations < 2 || cur.run.Config.Invocations < 2 {
		return nil
	}
	pl := &ndjson.ProcessLevel{View: latencyView.name, Statistic: latencyView.statistic, Design: ndjson.DesignIndependent, ConfidencePct: opt.Confidence}
	ref, con := blockStats(base, bc), blockStats(cur, c)
	pl.Runs = min(len(ref), len(con))
	res, err := stats.CompareRunsIndependent(ref, con, stats.LowerIsBetter,
		stats.RunBootstrap{Seed: opt.Seed, Stream: "process/baseline/" + cur.name(c), Resamples: opt.ProcessResamples, Confidence: opt.Confidence})
	if err != nil {
		pl.Status, pl.Reason = ndjson.ProcessInsufficient, err.Error()
		return pl
	}
	pl.Status, pl.Method, pl.Resamples = ndjson.ProcessOK, res.Method, res.Resamples
	pl.ImprovementPct, pl.CI = res.Estimate, [2]float64{res.Lo, res.Hi}
	pl.MCError = mcError(res)
	pl.Verdict = ndjson.Verdict(res.Verdict(opt.ThresholdPct).String())
	return pl
}

// mcError is a bootstrap comparison's Monte-Carlo error of its ends, nil
// for the t interval, which draws nothing.
func mcError(res stats.RunComparison) *[2]float64 {
	if res.Method == stats.RunMethodT {
		return nil
	}
	e := res.MCError
	return &e
}

// blockStats is case c's mean time per operation in each complete block.
func blockStats(d *runData, c int) []float64 {
	var out []float64
	for _, pts := range d.blockPoints(c, d.completeBlocks()) {
		v, _ := latencyView.stat(pts, c)
		out = append(out, v)
	}
	slices.Sort(out) // map order must not reach the bootstrap
	return out
}
