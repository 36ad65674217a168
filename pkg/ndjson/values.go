package ndjson

import (
	"fmt"
	"math"
)

// The analysis records a report prints and a gate judges are checked
// before they are used: counts are never negative, an interval's low end
// is not above its high end, a relative change of a time is above -100%,
// a confidence level lies between 0 and 100, a verdict is one of the
// schema's, and a comparison's change follows from its speedup. A field
// left out (zero) is not checked: older writers and tests leave some out. A record
// that fails was not written by fb-analyze as it stands (edited, or
// another writer's), and is refused rather than printed as given.

// ValueError is a field of a decoded record whose value the record cannot
// hold. It names the field as the stream spells it.
type ValueError struct {
	Field string
	Msg   string
}

func (e *ValueError) Error() string { return e.Field + " " + e.Msg }

// firstError returns the first non-nil error.
func firstError(errs ...error) error {
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

func count[T int | int64](field string, n T) error {
	if n < 0 {
		return &ValueError{field, fmt.Sprintf("is %d: a count is never negative", n)}
	}
	return nil
}

func nonNegative(field string, v float64) error {
	if v < 0 {
		return &ValueError{field, fmt.Sprintf("is %g: never negative", v)}
	}
	return nil
}

// interval refuses [lo, hi] with lo above hi.
func interval(field string, ci [2]float64) error {
	if ci[0] > ci[1] {
		return &ValueError{field, fmt.Sprintf("is [%g, %g]: its low end is above its high end", ci[0], ci[1])}
	}
	return nil
}

// change refuses a relative change of a time or a ratio of positive
// amounts at or below -100%: the contender would take no time at all.
func change(field string, v float64) error {
	if v < -100 {
		return &ValueError{field, fmt.Sprintf("is %g%%: a change of a time is above -100%%", v)}
	}
	return nil
}

// changeInterval is interval and change for both ends.
func changeInterval(field string, ci [2]float64) error {
	return firstError(interval(field, ci), change(field, ci[0]))
}

// level refuses a confidence level outside (0, 100); 0 stands for
// absent.
func level(field string, v float64) error {
	if v >= 0 && v < 100 {
		return nil
	}
	return &ValueError{field, fmt.Sprintf("is %g: a confidence level in percent lies between 0 and 100", v)}
}

// consistent refuses a change that does not follow from its speedup s
// (reference time / contender time): 100·(1/s − 1), within 1% of the
// ratio, as hand-rounded values stay.
func consistent(field string, changePct float64, speedupField string, s float64) error {
	if s <= 0 {
		return nil
	}
	if r := (1 + changePct/100) * s; math.Abs(r-1) > 0.01 {
		return &ValueError{field, fmt.Sprintf("%g%% does not follow from %s %g, which gives %.4g%%", changePct, speedupField, s, 100*(1/s-1))}
	}
	return nil
}

// Validate checks an analysis record's run-wide settings.
func (a *Analysis) Validate() error {
	return firstError(count("resamples", a.Resamples), level("confidence_pct", a.ConfidencePct),
		nonNegative("threshold_pct", a.ThresholdPct))
}

// Validate checks a summary's counts, times and intervals.
func (s *Summary) Validate() error {
	o := s.Outliers
	err := firstError(count("n", s.N), count("block_len", s.BlockLen), count("iterations", s.Iterations),
		count("timed_ns", s.TimedNS), count("outliers.low_severe", o.LowSevere), count("outliers.low_mild", o.LowMild),
		count("outliers.high_mild", o.HighMild), count("outliers.high_severe", o.HighSevere),
		nonNegative("min_ns", s.Min), nonNegative("sd_ns", s.SD), nonNegative("mad_ns", s.MAD),
		nonNegative("cv_pct", s.CVPct), nonNegative("floor_ns", s.FloorNS), nonNegative("median_batch_ns", s.MedianBatchNS),
		interval("mean_ci_ns", s.MeanCI), ordered(s))
	if err != nil {
		return err
	}
	for i, a := range s.Axes {
		if err := a.validate(fmt.Sprintf("axes[%d]", i)); err != nil {
			return err
		}
	}
	if t := s.Throughput; t != nil {
		err = firstError(nonNegative("throughput.units_per_sec", t.UnitsPerSec), interval("throughput.ci", t.CI))
	}
	if n := s.Normalized; n != nil && err == nil {
		err = interval("normalized.ci", n.CI)
	}
	return err
}

// ordered refuses statistics of a case out of their order: each of the
// median, mean, p95 and p99 between the minimum and the maximum (within
// rounding), and p95 not above p99. A summary without a minimum and a
// maximum (both 0) is not checked.
func ordered(s *Summary) error {
	if s.N == 0 || s.Min == 0 && s.Max == 0 {
		return nil
	}
	slack := 1e-9 * math.Max(math.Abs(s.Max), 1)
	for _, f := range []struct {
		name string
		v    float64
	}{{"median_ns", s.Median}, {"mean_ns", s.Mean}, {"p95_ns", s.P95}, {"p99_ns", s.P99}} {
		if f.v < s.Min-slack || f.v > s.Max+slack {
			return &ValueError{f.name, fmt.Sprintf("is %g, outside min_ns %g .. max_ns %g", f.v, s.Min, s.Max)}
		}
	}
	if s.P95 > s.P99+slack {
		return &ValueError{"p95_ns", fmt.Sprintf("is %g, above p99_ns %g", s.P95, s.P99)}
	}
	return nil
}

func (a *AxisSummary) validate(at string) error {
	err := firstError(count(at+".n", a.N), count(at+".missing", a.Missing))
	if err != nil || a.Stats == nil {
		return err
	}
	st := a.Stats
	if st.Min > st.Max {
		return &ValueError{at + ".stats.min", fmt.Sprintf("is %g, above max %g", st.Min, st.Max)}
	}
	return interval(at+".stats.mean_ci", st.MeanCI)
}

// Validate checks a comparison: its counts, its intervals, its level and
// verdict, and that its change follows from its speedup.
func (c *Comparison) Validate() error {
	speedField, speed := "geo_speedup", c.GeoSpeedup
	if c.Estimator != "" {
		speedField, speed = "speedup", c.Speedup
	}
	err := firstError(count("pairs", c.Pairs), count("reference_first", c.ReferenceFirst),
		count("contender_first", c.ContenderFirst), count("block_len", c.BlockLen),
		count("contender_wins", c.ContenderWins), count("reference_wins", c.ReferenceWins), count("ties", c.Ties),
		nonNegative("geo_speedup", c.GeoSpeedup), nonNegative("speedup", c.Speedup), interval("speedup_ci", c.SpeedupCI),
		change("change_pct", c.ChangePct), changeInterval("change_ci_pct", c.ChangeCI),
		consistent("change_pct", c.ChangePct, speedField, speed),
		level("confidence_pct", c.ConfidencePct), nonNegative("threshold_pct", c.ThresholdPct), timeVerdict("verdict", c.Verdict))
	if err != nil {
		return err
	}
	return c.validateViews()
}

// validateViews checks the parts of a comparison besides its estimate.
func (c *Comparison) validateViews() error {
	var errs []error
	if g := c.Geo; g != nil {
		errs = append(errs, change("geo.change_pct", g.ChangePct), changeInterval("geo.change_ci_pct", g.ChangeCI),
			interval("geo.speedup_ci", g.SpeedupCI))
	}
	if b := c.Blocked; b != nil {
		errs = append(errs, count("blocked.blocks", b.Blocks), interval("blocked.within_ci_pct", b.WithinCI))
	}
	if i := c.Interval; i != nil {
		errs = append(errs, i.validate(c.Verdict))
	}
	if t := c.Throughput; t != nil {
		errs = append(errs, interval("throughput.ci_pct", t.CI))
	}
	if p := c.Process; p != nil {
		errs = append(errs, p.validate("process"))
	}
	for i := range c.ProcessViews {
		errs = append(errs, c.ProcessViews[i].validate(fmt.Sprintf("process_views[%d]", i)))
	}
	if s := c.Sizes; s != nil {
		errs = append(errs, s.validate())
	}
	for i, a := range c.Axes {
		if r := a.Result; r != nil {
			at := fmt.Sprintf("axes[%d].result", i)
			errs = append(errs, count(at+".n", r.N), count(at+".block_len", r.BlockLen), count(at+".rejected", r.Rejected),
				interval(at+".ci", r.CI))
		}
	}
	return firstError(errs...)
}

func (p *ProcessLevel) validate(at string) error {
	errs := []error{count(at+".runs", p.Runs), count(at+".strata", p.Strata), count(at+".resamples", p.Resamples),
		interval(at+".ci_pct", p.CI), level(at+".confidence_pct", p.ConfidencePct)}
	if p.MCError != nil {
		errs = append(errs, nonNegative(at+".mc_error_pct[0]", p.MCError[0]), nonNegative(at+".mc_error_pct[1]", p.MCError[1]))
	}
	return firstError(errs...)
}

// validate checks an interval choice: a known status, and an
// inconclusive verdict where the evidence is insufficient.
func (i *IntervalChoice) validate(verdict Verdict) error {
	switch i.Status {
	case IntervalOK:
	case IntervalInsufficient:
		if verdict != VerdictInconclusive {
			return &ValueError{"verdict", fmt.Sprintf("is %q but interval.status is %q: it must be %q", verdict, i.Status, VerdictInconclusive)}
		}
	default:
		return &ValueError{"interval.status", fmt.Sprintf("is %q: want %q or %q", i.Status, IntervalOK, IntervalInsufficient)}
	}
	errs := []error{nonNegative("interval.effective_pairs", i.EffectivePairs)}
	if sh := i.Short; sh != nil {
		errs = append(errs, nonNegative("interval.short_series.effective_pairs_bound", sh.EffectivePairsBound))
		if !(sh.Lag1Bound >= -1 && sh.Lag1Bound <= 1) {
			errs = append(errs, &ValueError{"interval.short_series.lag1_bound", fmt.Sprintf("is %v: want a coefficient in [-1, 1]", sh.Lag1Bound)})
		}
		if !(sh.Widening >= 1) {
			errs = append(errs, &ValueError{"interval.short_series.widening", fmt.Sprintf("is %v: want 1 or more (the widened interval over the bootstrap's)", sh.Widening)})
		}
	}
	return firstError(errs...)
}

func (s *Sizes) validate() error {
	errs := []error{count("size.median[0]", s.Median[0]), count("size.median[1]", s.Median[1])}
	if s.Range[0] > s.Range[1] {
		errs = append(errs, &ValueError{"size.range", fmt.Sprintf("is [%d, %d]: its low end is above its high end", s.Range[0], s.Range[1])})
	}
	slopes := []struct {
		name string
		s    *SizeSlope
	}{{"size", s.SizeSlope}, {"size.pooled", s.Pooled}, {"size.reference", s.Reference}, {"size.contender", s.Contender}, {"size.change", s.Change}}
	for _, sl := range slopes {
		if sl.s != nil {
			errs = append(errs, interval(sl.name+".ci_pct", sl.s.CI), count(sl.name+".samples", sl.s.Samples))
		}
	}
	if s.BiasCI != nil {
		errs = append(errs, interval("size.bias_ci_pct", *s.BiasCI))
	}
	return firstError(errs...)
}

// timeVerdict refuses a verdict that is not one of a time comparison's.
func timeVerdict(field string, v Verdict) error {
	switch v {
	case "", VerdictContenderFaster, VerdictReferenceFaster, VerdictEquivalent, VerdictInconclusive:
		return nil
	}
	return &ValueError{field, fmt.Sprintf("%q is not one of %q, %q, %q, %q", v,
		VerdictContenderFaster, VerdictReferenceFaster, VerdictEquivalent, VerdictInconclusive)}
}

// Validate checks a suite's members, intervals, level and verdict.
func (s *Suite) Validate() error {
	errs := []error{nonNegative("geo_speedup", s.GeoSpeedup), interval("speedup_ci", s.SpeedupCI),
		change("change_pct", s.ChangePct), changeInterval("change_ci_pct", s.ChangeCI),
		consistent("change_pct", s.ChangePct, "geo_speedup", s.GeoSpeedup),
		level("confidence_pct", s.ConfidencePct), nonNegative("threshold_pct", s.ThresholdPct), timeVerdict("verdict", s.Verdict)}
	for i, m := range s.Members {
		errs = append(errs, count(fmt.Sprintf("members[%d].pairs", i), m.Pairs), nonNegative(fmt.Sprintf("members[%d].speedup", i), m.Speedup))
	}
	return firstError(errs...)
}

// Validate checks an A/A summary's counts and its interval of a rate.
func (a *AA) Validate() error {
	errs := []error{count("planned", a.Planned), count("runs", a.Runs), count("false", a.False), count("exclude_zero", a.ExcludeZero),
		count("size_significant", a.SizeSignificant), count("unequal_sizes", a.UnequalSizes), interval("false_rate_ci", a.FalseRateCI),
		nonNegative("max_abs_change_pct", a.MaxAbsChangePct), nonNegative("median_width_pct", a.MedianWidthPct),
		level("confidence_pct", a.ConfidencePct), nonNegative("threshold_pct", a.ThresholdPct)}
	if a.Spread != nil {
		errs = append(errs, nonNegative("spread", *a.Spread))
	}
	if a.SpreadCI != nil {
		errs = append(errs, interval("spread_ci", *a.SpreadCI))
	}
	if a.FalseRateCI[0] < 0 || a.FalseRateCI[1] > 1 {
		errs = append(errs, &ValueError{"false_rate_ci", fmt.Sprintf("is [%g, %g]: a rate lies between 0 and 1", a.FalseRateCI[0], a.FalseRateCI[1])})
	}
	for v, n := range a.Verdicts {
		errs = append(errs, count(fmt.Sprintf("verdicts[%q]", v), n))
	}
	return firstError(errs...)
}

// Validate checks a span summary's counts, tally and percentile intervals.
func (s *SpanSummary) Validate() error {
	errs := []error{count("n", s.N), level("confidence_pct", s.ConfidencePct)}
	for o, n := range s.Outcomes {
		errs = append(errs, count(fmt.Sprintf("outcomes[%q]", o), n))
	}
	for o, n := range s.RetainedOutcomes {
		errs = append(errs, count(fmt.Sprintf("retained_outcomes[%q]", o), n))
	}
	if t := s.Tally; t != nil {
		errs = append(errs, count("tally.observed", t.Observed), count("tally.retained", t.Retained),
			count("tally.omitted", t.Omitted), count("tally.unfinished", t.Unfinished))
	}
	if w := s.Wall; w != nil {
		for i, p := range w.Percentiles {
			if p.CI != nil {
				errs = append(errs, interval(fmt.Sprintf("wall.percentiles[%d].ci_ns", i), *p.CI))
			}
		}
	}
	for i, a := range s.Axes {
		errs = append(errs, a.validate(fmt.Sprintf("axes[%d]", i)))
	}
	return firstError(errs...)
}

// Validate checks a span comparison's changes and their intervals.
func (c *SpanComparison) Validate() error {
	errs := []error{level("confidence_pct", c.ConfidencePct), nonNegative("threshold_pct", c.ThresholdPct)}
	for i, ch := range c.Changes {
		at := fmt.Sprintf("changes[%d]", i)
		if ch.ChangePct != nil {
			errs = append(errs, change(at+".change_pct", *ch.ChangePct))
		}
		if ch.CI != nil {
			errs = append(errs, changeInterval(at+".ci_pct", *ch.CI))
		}
	}
	return firstError(errs...)
}

// Validate checks a noise profile's values: counts not negative, noise
// levels neither negative nor infinite, a known metric kind, and a change
// that names its reference.
func (n *Noise) Validate() error {
	if err := firstError(count("invocations", n.Invocations), count("min_runs", n.MinRuns),
		count("max_runs", n.MaxRuns), nonNegative("tolerance_pct", n.TolerancePct)); err != nil {
		return err
	}
	for i, m := range n.Metrics {
		at := fmt.Sprintf("metrics[%d].", i)
		if err := firstError(count(at+"n", m.N), nonNegative(at+"noise_pct", m.NoisePct)); err != nil {
			return err
		}
		switch {
		case math.IsInf(m.NoisePct, 0) || math.IsNaN(m.NoisePct):
			return &ValueError{at + "noise_pct", fmt.Sprintf("is %g: want a finite percentage", m.NoisePct)}
		case m.Kind != NoiseLevel && m.Kind != NoiseChange:
			return &ValueError{at + "kind", fmt.Sprintf("is %q: want %s or %s", m.Kind, NoiseLevel, NoiseChange)}
		case m.Kind == NoiseChange && m.Reference == "":
			return &ValueError{at + "reference", "is missing: a change is measured against a reference case"}
		}
	}
	return nil
}
