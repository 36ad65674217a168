package analyze

import (
	"fmt"

	"github.com/flybench/flybench/pkg/ndjson"
	"github.com/flybench/flybench/pkg/stats"
)

// sequential returns, for a run that sampled until a decision or a width,
// what its comparisons carry about it and the options to compare with:
// under a decision rule the confidence is the final look's share of
// opt.Confidence (stats.LookConfidence over the recorded look times), so
// the verdict keeps the error rate the looks were allowed. A run without
// a rule, and the legacy estimator, get nil and opt unchanged.
func (d *runData) sequential(end *ndjson.End, opt Options) (*ndjson.Sequential, Options) {
	u := d.run.Config.Until
	if u == nil || opt.legacy() {
		return nil, opt
	}
	seq := &ndjson.Sequential{Rule: u.Rule, OverallConfidencePct: opt.Confidence, Looks: len(d.looks), Reason: ndjson.UntilCut}
	if end != nil && end.Until != nil {
		seq.Settled, seq.Reason = end.Until.Settled, end.Until.Reason
	}
	if u.Rule == ndjson.UntilDecision {
		opt.Confidence = finalLookLevel(d.looks, opt.Confidence)
	}
	return seq, opt
}

// finalLookLevel replays the spending of the recorded looks at overall
// confidence: the level of the look that ended the run (one that met the
// rule, or the final one), or, when the stream ends before such a look, of
// a final look now, which spends whatever the looks left.
func finalLookLevel(looks []ndjson.Look, overall float64) float64 {
	tPrev := 0.0
	for _, l := range looks {
		if !l.Spent {
			continue
		}
		if l.Met || l.Final {
			level, _ := stats.LookConfidence(overall, tPrev, l.Fraction, l.Final)
			return min(level, stats.MaxLookConfidence) // only a re-analysis at another level can exceed it
		}
		tPrev = l.Fraction
	}
	level, _ := stats.LookConfidence(overall, tPrev, 1, true)
	return level
}

// untilWarnings say when this analysis judges with other settings than
// the stopping rule did.
func (d *runData) untilWarnings(opt Options) []string {
	u := d.run.Config.Until
	est := string(opt.Estimator)
	if est == "" {
		est = string(stats.EstimatorRobust)
	}
	if u.ConfidencePct == opt.Confidence && u.ThresholdPct == opt.ThresholdPct && u.Estimator == est &&
		u.Seed == opt.Seed && u.Resamples == opt.Resamples {
		return nil
	}
	return []string{fmt.Sprintf("the run stopped by its rule (%s %s) judged at %g%% confidence, threshold %g%%, estimator %s, seed %d, %d resamples; this analysis uses %g%%, %g%%, %s, seed %d, %d resamples, so its verdicts may differ from the one that stopped the run",
		d.names.Spell(pairUntil), untilText(u), u.ConfidencePct, u.ThresholdPct, u.Estimator, u.Seed, u.Resamples,
		opt.Confidence, opt.ThresholdPct, est, opt.Seed, opt.Resamples)}
}

func untilText(u *ndjson.Until) string {
	if u.Rule == ndjson.UntilWidth {
		return fmt.Sprintf("width=%g%%", u.WidthPct)
	}
	return u.Rule
}
