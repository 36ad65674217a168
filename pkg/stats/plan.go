package stats

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/stat/distuv"
)

// Plan is a fixed-design precision plan from a pilot: how many units a fresh run needs so that its interval's
// half-width is at most the target.
type Plan struct {
	PilotUnits int
	// SD is the pilot's long-run standard deviation of the decision
	// series per unit (log-ratio, or log of the mean for one case): its
	// standard error times √n, after the robust fit, the order groups and
	// serial dependence, so SD/√n is the standard error a run of n units
	// of the same kind would have.
	SD float64
	// HalfWidth is the target half-width on the log scale, ln(1 + w/100).
	HalfWidth float64
	// Unconstrained is the smallest n meeting the target; Units is it
	// raised to MinPlanUnits.
	Unconstrained, Units int
	// PilotHalfWidth is the pilot's own half-width (log scale), for
	// comparison.
	PilotHalfWidth float64
}

// MinPlanUnits is the fewest units a plan recommends: fewer leave the
// interval's own standard error too uncertain to trust.
const MinPlanUnits = 20

// maxPlanUnits bounds the search.
const maxPlanUnits = 100_000_000

// PlanUnits plans from the pilot series x (log-ratios of a paired
// comparison, in collection order, with first the order of each pair, or
// the logs of one case's per-operation times with first nil) the units a
// run needs for a decision interval of half-width halfWidthPct percent
// at b's confidence, under b's Estimator.
//
// The standard error of a run of n units is taken as SD/√n, SD the
// pilot's (the prewhitened standard error of its decision estimate times
// √n₀: the pilot's serial dependence and spread carry over), and the
// half-width as the Student-t quantile with n/3 degrees of freedom times
// that: the interval's resamples have about n/3 blocks for independent
// units, so its tails are about those of t with n/3 degrees of freedom.
// The plan plugs in the pilot's spread: a pilot of n₀ units knows it to
// about ±1/√(2n₀), so a short pilot gives a provisional plan.
func PlanUnits(x []float64, first []bool, b Bootstrap, halfWidthPct float64) (Plan, error) {
	if err := b.Validate(); err != nil {
		return Plan{}, err
	}
	if !(halfWidthPct > 0 && halfWidthPct < 100) {
		return Plan{}, fmt.Errorf("half-width %g%%: use a percentage above 0 and below 100", halfWidthPct)
	}
	if len(x) < MinPlanUnits/2 {
		return Plan{}, fmt.Errorf("a pilot of %d units is too short to plan from: collect at least %d", len(x), MinPlanUnits/2)
	}
	series := x
	if b.estimator() != EstimatorLegacy {
		series = Locate(x, first, b.estimator() == EstimatorRobust).Pseudo
	}
	a := newAutocovariance(series)
	block := 1
	if len(series) >= 8 {
		block = newLagWindow(a).blockLength()
	}
	se := math.Sqrt(prewhitenedVariance(a, newBlockSums(series, a, block)))
	p := Plan{PilotUnits: len(x), SD: se * math.Sqrt(float64(len(x))), HalfWidth: math.Log1p(halfWidthPct / 100)}
	if p.SD == 0 {
		return p, fmt.Errorf("the pilot's values do not vary: no width to plan")
	}
	q := (1 + b.Confidence/100) / 2
	p.PilotHalfWidth = studentQuantile(q, float64(len(x))/3) * se
	p.Unconstrained = smallestUnits(func(n int) bool {
		return studentQuantile(q, float64(n)/3)*p.SD/math.Sqrt(float64(n)) <= p.HalfWidth
	})
	p.Units = max(p.Unconstrained, MinPlanUnits)
	return p, nil
}

// smallestUnits is the smallest n in [2, maxPlanUnits] for which ok holds
// (ok is monotone), by doubling then bisection.
func smallestUnits(ok func(int) bool) int {
	hi := 2
	for !ok(hi) && hi < maxPlanUnits {
		hi *= 2
	}
	lo := hi / 2
	for lo+1 < hi {
		mid := (lo + hi) / 2
		if ok(mid) {
			hi = mid
		} else {
			lo = mid
		}
	}
	return hi
}

// studentQuantile is the p-quantile of Student's t with df degrees of
// freedom (df below 1 is taken as 1).
func studentQuantile(p, df float64) float64 {
	return distuv.StudentsT{Mu: 0, Sigma: 1, Nu: max(df, 1)}.Quantile(p)
}
