package stats

import "math"

// SpendingRule describes in one line how a run that samples until a
// decision spends its error rate over its looks, for output records;
// limit is what the user calls the time limit.
func SpendingRule(limit string) string {
	return "linear alpha spending in elapsed time: by the fraction t of " + limit + ", at most t*alpha has been spent; look k uses alpha*(t_k - t_(k-1)) (Bonferroni over looks, valid whatever the dependence between them), a look at the time limit everything left; looks at doubling elapsed times from 1/32 of the budget and 20 units"
}

// MaxLookConfidence is the highest per-look confidence a look may use: a
// look whose share of the error rate is smaller spends nothing and cannot
// stop the run. 2000 resamples, the default, resolve a 0.05% tail by
// their most extreme values; a smaller share would be noise.
const MaxLookConfidence = 99.9

// LookConfidence returns the confidence level, in percent, of a sequential
// look at time fraction t (0..1 of the run's time budget) after the
// previous spending look at tPrev, for an overall confidence overall
// (percent), under linear spending: the look may spend α·(t - tPrev) of
// α = 1 - overall/100, or, when final (at the time limit), all that is
// left, α·(1 - tPrev).
//
// Linear spending with looks at doubling times gives the final look half
// of α (at 95% overall, a 97.5% interval: 14% wider than a fixed design's)
// and each earlier look half of what follows it, so a clear difference
// stops the run early and a small one still gets a nearly fixed-design
// interval at the limit. Each look is Bonferroni-adjusted on its own, so
// the chance that any look's interval misses the truth, and with it any
// false verdict, stays at most α, whatever the dependence between looks.
//
// The level is rounded to 1e-9 percent, so that the last bit of a
// subtraction cannot move an interval. ok is false when the look's share
// would ask for more than MaxLookConfidence: it then spends nothing.
func LookConfidence(overall, tPrev, t float64, final bool) (level float64, ok bool) {
	alpha := (100 - overall) / 100
	t, tPrev = min(max(t, 0), 1), min(max(tPrev, 0), 1)
	if final {
		t = 1
	}
	share := alpha * (t - tPrev)
	level = math.Round((100-100*share)*1e9) / 1e9
	return level, level <= MaxLookConfidence
}
