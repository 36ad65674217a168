package cli

import (
	"time"

	ucli "github.com/urfave/cli/v2"

	"github.com/flybench/flybench/internal/analyze"
	"github.com/flybench/flybench/internal/collect"
	"github.com/flybench/flybench/pkg/ndjson"
	"github.com/flybench/flybench/pkg/stats"
)

// defaultMaxTime is --max-time when --until is given without it.
const defaultMaxTime = 60 * time.Second

// untilFlags are the stopping-rule flags of fb-sample and fb-pair.
func untilFlags() []ucli.Flag {
	d := analyze.DefaultOptions
	return []ucli.Flag{
		&ucli.StringFlag{Name: "until", Usage: "sample until a decision (decision: every comparison's interval clears or fits inside the threshold, the error rate spent over the looks) or an interval width (width=P%: every half-width at most P percent), checking at growing looks, instead of a fixed --samples"},
		&ucli.DurationFlag{Name: "max-time", Value: defaultMaxTime, Usage: "with --until: the whole run's wall-time budget, warm-up included; a run that reaches it makes a final look and stops"},
		&ucli.Float64Flag{Name: "confidence", Value: d.Confidence, Usage: "with --until: the overall confidence of the intervals the looks judge (percent, 50 to 99.9)"},
		&ucli.Float64Flag{Name: "threshold", Value: d.ThresholdPct, Usage: "with --until decision: the practical threshold in percent"},
		&ucli.StringFlag{Name: "estimator", Value: string(stats.EstimatorRobust), Usage: "with --until: the decision estimate the looks judge (robust, mean; see fb-analyze(1))"},
	}
}

// untilFromFlags reads the stopping rule; parse errors surface in
// untilRecord, which runs before collection.
func untilFromFlags(c *ucli.Context) collect.Until {
	rule, width, _ := collect.ParseUntil(c.String("until"))
	return collect.Until{Rule: rule, WidthPct: width, MaxTime: c.Duration("max-time"), Confidence: c.Float64("confidence")}
}

// untilRecord checks the stopping-rule flags and returns the run record's
// description of the rule and the options its looks analyse with, or nil
// without --until.
func untilRecord(c *ucli.Context) (*ndjson.Until, analyze.Options, error) {
	if _, _, err := collect.ParseUntil(c.String("until")); err != nil {
		return nil, analyze.Options{}, fieldUsage(err)
	}
	est, err := stats.ParseEstimator(c.String("estimator"))
	if err != nil || est == stats.EstimatorLegacy {
		return nil, analyze.Options{}, usageErrorf("--estimator %q: use robust or mean", c.String("estimator"))
	}
	opt := analyze.DefaultOptions
	opt.Confidence, opt.ThresholdPct, opt.Estimator = c.Float64("confidence"), c.Float64("threshold"), est
	if err := opt.Validate(); err != nil {
		return nil, opt, withCode(ExitUsage, err, "")
	}
	u := untilFromFlags(c)
	if u.Rule == "" {
		return nil, opt, nil
	}
	rec := &ndjson.Until{Rule: u.Rule, WidthPct: u.WidthPct, MaxTimeNS: int64(u.MaxTime),
		ConfidencePct: opt.Confidence, ThresholdPct: opt.ThresholdPct, Estimator: string(est),
		Seed: opt.Seed, Resamples: opt.Resamples}
	if u.Rule == "decision" {
		rec.Spending = stats.SpendingRule
	}
	return rec, opt, nil
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
