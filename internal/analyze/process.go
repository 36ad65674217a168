package analyze

import (
	"cmp"
	"errors"
	"fmt"
	"math"
	"slices"

	"github.com/flybench/flybench/pkg/ndjson"
	"github.com/flybench/flybench/pkg/stats"
)

// Process-level inference (seed 002): in a run collected with
// --invocations, each complete process block is one experimental unit.
// The per-run statistic of a case is the mean time per operation of its
// samples in that block; the comparison with the reference is the
// bias-corrected and accelerated bootstrap over complete blocks, paired
// (both members ran in the same block) and stratified by the block's
// orientation, of the direction-aware improvement of the medians.

// perBlockMeans is case c's mean time per operation in each complete block.
func (d *runData) perBlockMeans(c int, complete map[blockKey]int) map[blockKey]float64 {
	sum, n := map[blockKey]float64{}, map[blockKey]int{}
	for _, p := range d.cases[c] {
		k := blockKey{p.block, p.attempt}
		if _, ok := complete[k]; ok && p.block >= 0 {
			sum[k] += p.op
			n[k]++
		}
	}
	out := make(map[blockKey]float64, len(sum))
	for k, s := range sum {
		out[k] = s / float64(n[k])
	}
	return out
}

// processLevel is the process-level comparison of case c with case 0, nil
// for a run without process blocks.
func (d *runData) processLevel(c int, opt Options) *ndjson.ProcessLevel {
	confidence := opt.Confidence
	if d.run.Config.Invocations < 2 || len(d.blocks) == 0 {
		return nil
	}
	complete := d.completeBlocks()
	ref, con := d.perBlockMeans(0, complete), d.perBlockMeans(c, complete)
	keys := make([]blockKey, 0, len(ref))
	for k := range ref {
		if _, ok := con[k]; ok {
			keys = append(keys, k)
		}
	}
	slices.SortFunc(keys, func(a, b blockKey) int {
		return cmp.Or(cmp.Compare(a.block, b.block), cmp.Compare(a.attempt, b.attempt))
	})
	base, cand, strata := make([]float64, len(keys)), make([]float64, len(keys)), make([]int, len(keys))
	for i, k := range keys {
		base[i], cand[i], strata[i] = ref[k], con[k], complete[k]
	}
	pl := &ndjson.ProcessLevel{Statistic: "mean time per operation of each process block", Design: "paired", Runs: len(keys), ConfidencePct: confidence}
	res, err := stats.CompareRunsPaired(base, cand, strata, stats.LowerIsBetter,
		stats.RunBootstrap{Seed: opt.Seed, Stream: fmt.Sprintf("process/0/%d", c), Confidence: confidence})
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
	pl.Verdict = res.Verdict(opt.ThresholdPct).String()
	return pl
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
