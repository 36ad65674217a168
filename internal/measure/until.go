package measure

import (
	"github.com/flybench/flybench/internal/analyze"
	"github.com/flybench/flybench/internal/collect"
	"github.com/flybench/flybench/internal/field"
	"github.com/flybench/flybench/pkg/ndjson"
	"github.com/flybench/flybench/pkg/stats"
)

// resolveUntil checks what the looks of a stopping rule would analyse
// with: its estimator, confidence and threshold are checked with or
// without a rule, as fb-analyze checks its own, and settle the options
// the looks analyse with. The rule itself is collect.Until, checked with
// the rest of the policy.
func (p *plan) resolveUntil() error {
	u := p.Until
	switch {
	case u.Estimator != stats.EstimatorRobust && u.Estimator != stats.EstimatorMean:
		return field.Errorf("Until.Estimator", u.Estimator, "%s %q: use robust or mean", field.Name("Until.Estimator"), u.Estimator)
	case !(u.Confidence >= 50 && u.Confidence <= 99.9):
		return field.Errorf("Until.Confidence", u.Confidence, "%s %g out of range: use 50 to 99.9 (percent)", field.Name("Until.Confidence"), u.Confidence)
	case !(u.ThresholdPct >= 0 && u.ThresholdPct < 100):
		return field.Errorf("Until.ThresholdPct", u.ThresholdPct, "%s %g out of range: use 0 up to (not including) 100 (percent)", field.Name("Until.ThresholdPct"), u.ThresholdPct)
	}
	p.judged = analyze.DefaultOptions
	p.judged.Confidence, p.judged.ThresholdPct, p.judged.Estimator = u.Confidence, u.ThresholdPct, u.Estimator
	return nil
}

// untilRecord is the run record's description of the rule, or nil
// without one.
func untilRecord(u collect.Until, opt analyze.Options, names field.Names) *ndjson.Until {
	if u.Rule == "" {
		return nil
	}
	rec := &ndjson.Until{Rule: u.Rule, WidthPct: u.WidthPct, MaxTimeNS: int64(u.MaxTime),
		ConfidencePct: opt.Confidence, ThresholdPct: opt.ThresholdPct, Estimator: string(opt.Estimator),
		Seed: opt.Seed, Resamples: opt.Resamples}
	if u.Rule == ndjson.UntilDecision {
		rec.Spending = stats.SpendingRule(names.Spell("Until.MaxTime"))
	}
	return rec
}

// judge analyses the kept samples at a look exactly as fb-analyze would
// with opt at the look's confidence.
func judge(opt analyze.Options) collect.Judge {
	return func(run *ndjson.Run, kept []ndjson.Sample, confidence float64) ([]ndjson.LookInterval, error) {
		o := opt
		o.Confidence = confidence
		return analyze.Checkpoint(*run, kept, o)
	}
}
