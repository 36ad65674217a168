package stats

import (
	"cmp"
	"fmt"
	"maps"
	"math"
	"slices"

	"gonum.org/v1/gonum/stat/distuv"
)

// Process-level comparisons: every separately launched process
// run is one experimental unit, summarised by one per-run statistic (mean
// latency, mean throughput or p95 latency), and the interval comes from a
// bias-corrected and accelerated (BCa) bootstrap that resamples whole
// runs. Samples inside one process share its memory layout, JIT and GC
// state, so they are repeated measurements, not replicates; this interval
// covers the process-to-process variation that within-process intervals
// cannot see.

// DefaultRunResamples is the number of resamples of a run comparison when
// RunBootstrap.Resamples is zero. Seed 002 uses 50,000; 10,000 keeps an
// analysis of many cells fast (a 10-run comparison takes about 1.5 ms on
// one core: BenchmarkCompareRunsIndependent10) while the Monte Carlo
// error stays far below the sampling error: an empirical 2.5% quantile of B resamples
// has a standard error of sqrt(0.025·0.975/B)/φ(1.96) ≈ 0.027 bootstrap
// standard deviations at B = 10,000 (0.012 at 50,000), under 1% of a 95%
// interval's width of about 3.9 standard deviations, and the bias
// correction z0, estimated from the same resamples, has a standard error
// of sqrt(0.25/B)/φ(0) ≈ 0.0125. Raise it for high confidence levels
// (Bonferroni over many cells): at 99.9% each end has only 5 of 10,000
// resamples beyond it.
const DefaultRunResamples = 10000

// Evidence minimums of process-level inference: fewer units
// give an EvidenceError rather than an interval.
const (
	MinRunsPerSide = 2 // runs on each side of an independent comparison
	MinPairs       = 5 // complete (baseline, candidate) pairs of a paired one
)

// Interval methods of a RunComparison.
const (
	RunMethodBCa = "bca"
	// RunMethodPercentile is the labelled fallback when the BCa
	// adjustment is undefined: the delete-one jackknife is degenerate
	// (every deletion gives the same estimate), the acceleration is not
	// finite, or every resample lies on one side of the estimate.
	RunMethodPercentile = "percentile"
)

// RunBootstrap holds the settings of a run-level bootstrap. The same
// settings and data always give the same interval, whatever the order of
// the runs or pairs and the number of cores.
type RunBootstrap struct {
	Seed uint64
	// Stream names the comparison (the matrix cell: case, view, statistic)
	// and is hashed with Seed into the random streams, so every cell has a
	// stable seed of its own that does not depend on which cells are
	// analysed with it or in what order.
	Stream string
	// Resamples is 1,000 to 1,000,000, or 0 for DefaultRunResamples.
	Resamples int
	// Confidence is the two-sided level in percent, 50 to
	// MaxComparisonConfidence (the range of a family correction), or 0
	// for 95.
	Confidence float64
}

// withDefaults fills the zero settings and validates the rest.
func (b RunBootstrap) withDefaults() (RunBootstrap, error) {
	if b.Resamples == 0 {
		b.Resamples = DefaultRunResamples
	}
	if b.Confidence == 0 {
		b.Confidence = 95
	}
	if b.Resamples < 1000 || b.Resamples > 1_000_000 {
		return b, fmt.Errorf("resamples %d out of range: use 1000 to 1000000", b.Resamples)
	}
	if !(b.Confidence >= 50 && b.Confidence <= MaxComparisonConfidence) {
		return b, fmt.Errorf("confidence %g out of range: use 50 to %g percent", b.Confidence, MaxComparisonConfidence)
	}
	return b, nil
}

// EvidenceError says a comparison has fewer runs or complete pairs than
// process-level inference needs (MinRunsPerSide, MinPairs): report
// "insufficient evidence", not an interval.
type EvidenceError struct {
	Unit string // "baseline runs", "candidate runs" or "complete pairs"
	Have int
	Need int
}

func (e *EvidenceError) Error() string {
	return fmt.Sprintf("insufficient evidence: %d %s, process-level inference needs at least %d", e.Have, e.Unit, e.Need)
}

// RunComparison is a process-level comparison of a candidate with a
// baseline.
type RunComparison struct {
	// Estimate is the direction-aware improvement in percent, positive
	// when the candidate is better: 100·(1 − c/b) when lower is better,
	// 100·(c/b − 1) when higher is better, b and c the medians of the
	// baseline's and the candidate's per-run statistics.
	Estimate float64
	// Lo and Hi bound Estimate at the configured confidence.
	Lo, Hi float64
	// Method is RunMethodBCa or RunMethodPercentile, or RunMethodT for a
	// paired comparison of fewer than MinBCaPairs pairs; under RunMethodT
	// Estimate is the crossover mean of the pairs' log-ratios as an
	// improvement, not the ratio of medians.
	Method    string
	Resamples int
	// BaseRuns and CandRuns count the runs of each side; in a paired
	// comparison both are the number of complete pairs.
	BaseRuns, CandRuns int
	// Strata is the number of orientation strata of a paired comparison,
	// 0 for an independent one. At 1 (no orientations given, or all
	// alike) the pairs are assumed exchangeable: report that.
	Strata int
	// Ties counts the resamples whose estimate equals Estimate (to one
	// part in 10¹² of the ratio c/b); they count half below and half
	// above in the bias correction (midrank).
	Ties int
	// Z0 is the bias correction and Accel the acceleration of the BCa
	// interval; both are 0 under RunMethodPercentile.
	Z0, Accel float64
	// MCError is the Monte-Carlo standard error of each end of a
	// bootstrap interval, in the units of Estimate (endpointMCError);
	// both 0 under RunMethodT, which draws nothing.
	MCError [2]float64
}

// Verdict judges the improvement interval against a symmetric practical
// threshold in percent, in the words of a timing comparison: the
// candidate (contender) is faster when the whole interval lies above
// +thresholdPct, the baseline (reference) when it lies below
// -thresholdPct, practically equivalent when it lies within ±thresholdPct,
// and inconclusive otherwise. It is Classify on the negated interval, for
// Classify takes a time change, negative when the contender is better.
func (c RunComparison) Verdict(thresholdPct float64) Verdict {
	return Classify(-c.Hi, -c.Lo, thresholdPct)
}

// CompareRunsIndependent compares two separately collected groups of
// per-run statistics (at least MinRunsPerSide each, finite and positive).
// Each resample draws each group's runs with replacement from that group
// alone, and the acceleration comes from deleting one run at a time from
// each group (runAcceleration). The runs are sorted first, so their order
// does not matter.
func CompareRunsIndependent(base, cand []float64, dir Direction, b RunBootstrap) (RunComparison, error) {
	b, err := checkRunComparison(base, cand, dir, b)
	if err != nil {
		return RunComparison{}, err
	}
	for _, s := range []struct {
		unit string
		runs []float64
	}{{"baseline runs", base}, {"candidate runs", cand}} {
		if len(s.runs) < MinRunsPerSide {
			return RunComparison{}, &EvidenceError{Unit: s.unit, Have: len(s.runs), Need: MinRunsPerSide}
		}
	}
	return independentDesign(base, cand, dir).compare(b), nil
}

// CompareRunsPaired compares complete (baseline, candidate) pairs of
// per-run statistics: base[i] and cand[i] ran in the same block, and
// strata[i] (nil when unknown) is the block's orientation, AB = 0 and
// BA = 1 (any labels serve). Each resample draws whole pairs with
// replacement, so block-level noise shared by a pair stays in the
// analysis; with strata, each stratum's pairs are drawn from that stratum
// alone, keeping its count, and the jackknife deletes one pair at a time
// within its stratum. The pairs are sorted within their strata first, so
// the order they came in does not matter. The estimand stays the ratio of
// each side's median (pairing changes the resampling design,
// not the estimand). It needs at least MinPairs pairs.
//
// Its nominal 95% intervals cover less than that with few pairs
// (TestRunCoverage, lognormal runs with 3% spread): about 0.75 at 5
// pairs in AB/BA strata of 3 and 2, 0.88 to 0.91 at 10 and 0.91 to 0.95
// at 20, the lower figures with a block effect both runs of a pair
// share (0.82 at 5 pairs without strata). The percentile interval of the
// same resamples covers 0.82 to 0.86 at 5 pairs in strata (0.93 without)
// and 0.92 to 0.99 at 10 and 20: the bias correction,
// estimated from the lumpy bootstrap distribution of a median of few
// runs, is noisy and shifts the interval.
func CompareRunsPaired(base, cand []float64, strata []int, dir Direction, b RunBootstrap) (RunComparison, error) {
	b, err := checkRunComparison(base, cand, dir, b)
	if err != nil {
		return RunComparison{}, err
	}
	if len(base) != len(cand) {
		return RunComparison{}, fmt.Errorf("baseline has %d runs but candidate has %d: a paired comparison needs complete pairs", len(base), len(cand))
	}
	if strata != nil && len(strata) != len(base) {
		return RunComparison{}, fmt.Errorf("strata cover %d pairs but there are %d", len(strata), len(base))
	}
	if len(base) < MinPairs {
		return RunComparison{}, &EvidenceError{Unit: "complete pairs", Have: len(base), Need: MinPairs}
	}
	d := pairedDesign(base, cand, strata, dir)
	if len(base) >= MinBCaPairs {
		return d.compare(b), nil
	}
	c := d.observed()
	c.Method = RunMethodT
	c.Estimate, c.Lo, c.Hi = pairedT(base, cand, strata, dir, b.Confidence)
	return c, nil
}

// checkRunComparison validates what both designs share and returns the
// settings with their defaults.
func checkRunComparison(base, cand []float64, dir Direction, b RunBootstrap) (RunBootstrap, error) {
	b, err := b.withDefaults()
	if err != nil {
		return b, err
	}
	if dir != LowerIsBetter && dir != HigherIsBetter {
		return b, fmt.Errorf("direction %v: a run comparison needs lower or higher is better", dir)
	}
	for _, s := range []struct {
		side string
		runs []float64
	}{{"baseline", base}, {"candidate", cand}} {
		for i, v := range s.runs {
			if !(v > 0) || math.IsInf(v, 1) {
				return b, fmt.Errorf("%s run %d is %g: per-run statistics must be finite and positive", s.side, i, v)
			}
		}
	}
	return b, nil
}

// runUnit is one resampling unit: a baseline run, a candidate run, or a
// complete pair, given by the ranks of its values among its side's
// values; -1 marks the side a unit lacks.
type runUnit struct{ base, cand int }

// runDesign is a comparison's units in strata: a resample draws each
// stratum's count from that stratum, and the jackknife deletes one unit
// at a time. An independent comparison has two strata, the baseline's
// runs and the candidate's; a paired one has a stratum of pairs per
// orientation.
type runDesign struct {
	strata             [][]runUnit
	baseVals, candVals []float64 // each side's values, ascending
	dir                Direction
	paired             bool
}

// medianRank is where the type-7 median of n values lies: rank lo, and
// the fraction of the way to rank lo+1 (rank7).
type medianRank struct {
	n, lo int
	frac  float64
}

func newMedianRank(n int) medianRank {
	lo, frac := rank7(n, 50)
	return medianRank{n, lo, frac}
}

// independentDesign sorts each group's runs and makes each a unit.
func independentDesign(base, cand []float64, dir Direction) runDesign {
	d := runDesign{dir: dir, baseVals: slices.Sorted(slices.Values(base)), candVals: slices.Sorted(slices.Values(cand))}
	b, c := make([]runUnit, len(base)), make([]runUnit, len(cand))
	for i := range b {
		b[i] = runUnit{i, -1}
	}
	for i := range c {
		c[i] = runUnit{-1, i}
	}
	d.strata = [][]runUnit{b, c}
	return d
}

// pairedDesign groups the pairs by stratum label in ascending label
// order, each stratum sorted by baseline then candidate value, so that
// the resampling does not depend on the order the pairs came in.
func pairedDesign(base, cand []float64, strata []int, dir Direction) runDesign {
	type pair struct{ b, c float64 }
	by := map[int][]pair{}
	for i := range base {
		label := 0
		if strata != nil {
			label = strata[i]
		}
		by[label] = append(by[label], pair{base[i], cand[i]})
	}
	var pairs []pair
	var sizes []int
	for _, label := range slices.Sorted(maps.Keys(by)) {
		pairs = append(pairs, slices.SortedFunc(slices.Values(by[label]), func(x, y pair) int {
			return cmp.Or(cmp.Compare(x.b, y.b), cmp.Compare(x.c, y.c))
		})...)
		sizes = append(sizes, len(by[label]))
	}
	d := runDesign{dir: dir, paired: true}
	var bRank, cRank []int
	d.baseVals, bRank = ranks(pairs, func(p pair) float64 { return p.b })
	d.candVals, cRank = ranks(pairs, func(p pair) float64 { return p.c })
	i := 0
	for _, n := range sizes {
		st := make([]runUnit, n)
		for j := range st {
			st[j] = runUnit{bRank[i], cRank[i]}
			i++
		}
		d.strata = append(d.strata, st)
	}
	return d
}

// ranks returns the values key takes on xs in ascending order, and for
// each x the position of its value there (equal values in xs's order).
func ranks[T any](xs []T, key func(T) float64) (vals []float64, rank []int) {
	idx := make([]int, len(xs))
	for i := range idx {
		idx[i] = i
	}
	slices.SortStableFunc(idx, func(i, j int) int { return cmp.Compare(key(xs[i]), key(xs[j])) })
	vals, rank = make([]float64, len(xs)), make([]int, len(xs))
	for r, i := range idx {
		vals[r], rank[i] = key(xs[i]), r
	}
	return vals, rank
}

// compare computes the comparison under b (with defaults filled).
func (d runDesign) compare(b RunBootstrap) RunComparison {
	c := d.observed()
	c.bca(d.replicates(b), d.jackknife(), b.Confidence)
	return c
}

// observed returns the comparison's estimate and counts, without an
// interval.
func (d runDesign) observed() RunComparison {
	s := d.newSample()
	for _, st := range d.strata {
		for _, u := range st {
			s.add(u)
		}
	}
	c := RunComparison{Estimate: d.estimate(s), BaseRuns: s.nBase, CandRuns: s.nCand}
	if d.paired {
		c.Strata = len(d.strata)
	}
	return c
}

// sample counts how often a resample holds each value of each side, so
// that its medians need no sorting. The median ranks are cached for the
// last count of values seen, which all resamples share.
type sample struct {
	base, cand         []int32
	nBase, nCand       int
	baseRank, candRank medianRank
}

func (d runDesign) newSample() *sample {
	return &sample{base: make([]int32, len(d.baseVals)), cand: make([]int32, len(d.candVals))}
}

func (s *sample) add(u runUnit) {
	if u.base >= 0 {
		s.base[u.base]++
		s.nBase++
	}
	if u.cand >= 0 {
		s.cand[u.cand]++
		s.nCand++
	}
}

func (s *sample) reset() {
	clear(s.base)
	clear(s.cand)
	s.nBase, s.nCand = 0, 0
}

// estimate returns the improvement of the values s holds.
func (d runDesign) estimate(s *sample) float64 {
	if s.baseRank.n != s.nBase {
		s.baseRank = newMedianRank(s.nBase)
	}
	if s.candRank.n != s.nCand {
		s.candRank = newMedianRank(s.nCand)
	}
	return improvement(countedMedian(d.baseVals, s.base, s.baseRank), countedMedian(d.candVals, s.cand, s.candRank), d.dir)
}

// countedMedian returns Median of the r.n > 0 values that count[i]
// copies of vals[i] make, vals ascending, by the same arithmetic as
// Percentile.
func countedMedian(vals []float64, count []int32, r medianRank) float64 {
	lo, frac := r.lo, r.frac
	i, seen := 0, int(count[0])
	for seen <= lo {
		i++
		seen += int(count[i])
	}
	v := vals[i]
	if frac == 0 {
		return v
	}
	for seen <= lo+1 {
		i++
		seen += int(count[i])
	}
	return v + float64(frac*(vals[i]-v))
}

// improvement is the direction-aware improvement in percent of a
// candidate median c over a baseline median b.
func improvement(b, c float64, dir Direction) float64 {
	if dir == HigherIsBetter {
		return 100 * (c/b - 1)
	}
	return 100 * (1 - c/b)
}

// units counts the units of every stratum.
func (d runDesign) units() int {
	n := 0
	for _, st := range d.strata {
		n += len(st)
	}
	return n
}

// replicates returns b.Resamples bootstrap estimates in chunk order:
// chunk k, resamples k·chunkSize onwards, is drawn from
// chunkStream(b.Seed, streamKey(b.Stream), k), so the result does not
// depend on how many goroutines draw them.
func (d runDesign) replicates(b RunBootstrap) []float64 {
	out := make([]float64, b.Resamples)
	key := streamKey(b.Stream)
	chunks := (len(out) + chunkSize - 1) / chunkSize
	draw := func(k int) {
		g := chunkStream(b.Seed, key, k)
		s := d.newSample()
		part := out[k*chunkSize : min((k+1)*chunkSize, len(out))]
		for i := range part {
			part[i] = d.resample(&g, s)
		}
	}
	if len(out)*d.units() < parallelDraws {
		for k := range chunks {
			draw(k)
		}
	} else {
		forEachConcurrently(chunks, draw)
	}
	return out
}

// resample draws each stratum's units with replacement from it and
// returns their estimate.
func (d runDesign) resample(g *wyrand, s *sample) float64 {
	s.reset()
	for _, st := range d.strata {
		n := uint64(len(st))
		for range st {
			s.add(st[g.index(n)])
		}
	}
	return d.estimate(s)
}

// jackknife returns, for each stratum, the estimates with one of its
// units deleted.
func (d runDesign) jackknife() [][]float64 {
	s := d.newSample()
	out := make([][]float64, len(d.strata))
	for k, st := range d.strata {
		out[k] = make([]float64, len(st))
		for j := range st {
			s.reset()
			for k2, st2 := range d.strata {
				for j2, u := range st2 {
					if k2 != k || j2 != j {
						s.add(u)
					}
				}
			}
			out[k][j] = d.estimate(s)
		}
	}
	return out
}

// tieTolerance is how close to θ̂ an estimate counts as equal: one part in
// 10¹² of the ratio r = c/b, since 100·r ≤ 100 + |θ̂| in either
// direction. Rounding makes equal ratios of different medians differ in
// the last bits.
func tieTolerance(theta float64) float64 {
	return 1e-12 * (100 + math.Abs(theta))
}

// bca sets the interval from the bootstrap estimates est (reordered) and
// the jackknife estimates, at confidence conf percent. When every resample
// ties with the estimate the interval is [Estimate, Estimate].
func (c *RunComparison) bca(est []float64, jack [][]float64, conf float64) {
	tol := tieTolerance(c.Estimate)
	var p float64
	p, c.Ties = midrank(est, c.Estimate, tol)
	c.Resamples = len(est)
	a, ok := runAcceleration(jack, tol)
	c.Method = RunMethodPercentile
	if ok {
		c.Method = RunMethodBCa
	}
	switch {
	case c.Ties == len(est):
		c.Lo, c.Hi = c.Estimate, c.Estimate
		if ok {
			c.Accel = a
		}
	case !ok || p == 0 || p == 1:
		c.Method = RunMethodPercentile
		c.Lo, c.Hi = percentileEnds(est, conf)
		tail := (100 - conf) / 2
		c.MCError = endpointMCError(est, tail, 100-tail)
	default:
		c.Accel, c.Z0 = a, distuv.UnitNormal.Quantile(p)
		z := distuv.UnitNormal.Quantile((100 - conf) / 200)
		pLo, pHi := 100*bcaLevel(c.Z0, a, z), 100*bcaLevel(c.Z0, a, -z)
		order(est, pLo, pHi)
		c.Lo, c.Hi = Percentile(est, pLo), Percentile(est, pHi)
		c.MCError = endpointMCError(est, pLo, pHi)
	}
}

// endpointMCError returns the Monte-Carlo standard error of the
// percentiles pLo and pHi (percent) of the B bootstrap estimates est
// (reordered): half the distance between the percentiles one binomial
// standard error sqrt(p(1-p)/B) either side of each. It reads the
// bootstrap distribution itself, so where that is lumpy (the median of
// a few runs takes few values) and an end sits beside a gap, the error
// is as large as the gap: another seed may put the end across it.
func endpointMCError(est []float64, pLo, pHi float64) [2]float64 {
	b := float64(len(est))
	var out [2]float64
	for i, p := range []float64{pLo, pHi} {
		s := 100 * math.Sqrt(p/100*(1-p/100)/b)
		lo, hi := max(p-s, 0), min(p+s, 100)
		order(est, lo, hi)
		out[i] = (Percentile(est, hi) - Percentile(est, lo)) / 2
	}
	return out
}

// midrank returns the share of the estimates est below theta, ties (to
// tol) counting half, and the number of ties: Φ⁻¹ of the share is the
// BCa bias correction z0.
func midrank(est []float64, theta, tol float64) (share float64, ties int) {
	below := 0
	for _, v := range est {
		switch {
		case v < theta-tol:
			below++
		case v <= theta+tol:
			ties++
		}
	}
	return (float64(below) + 0.5*float64(ties)) / float64(len(est)), ties
}

// percentileEnds returns the percentile interval of the bootstrap
// estimates est (reordered) at confidence conf percent.
func percentileEnds(est []float64, conf float64) (lo, hi float64) {
	tail := (100 - conf) / 2
	order(est, tail, 100-tail)
	return Percentile(est, tail), Percentile(est, 100-tail)
}

// bcaLevel returns the BCa-adjusted level Φ(z0 + w/(1 − a·w)), w = z0 + z,
// of the nominal normal quantile z (Efron and Tibshirani 1993, §14.3).
// Where 1 − a·w ≤ 0 the adjustment has passed its pole and the level is
// its limit on that side, 1 or 0.
func bcaLevel(z0, a, z float64) float64 {
	w := z0 + z
	den := 1 - a*w
	if den <= 0 {
		if w > 0 {
			return 1
		}
		return 0
	}
	return distuv.UnitNormal.CDF(z0 + w/den)
}

// runAcceleration returns the BCa acceleration from delete-one jackknife
// estimates grouped by the sample or stratum the unit was deleted from,
// and false when it is undefined (every group's estimates equal, to tol,
// or a not finite).
//
// With the jackknife influence values U_gi = (n_g − 1)(θ̄_g − θ_(gi)) of
// group g's n_g units, a linear approximation of θ̂ over independent
// groups has variance Σ_g n_g⁻² Σ_i U_gi² and third central moment
// Σ_g n_g⁻³ Σ_i U_gi³, and a is one sixth of its skewness:
//
//	a = Σ_g n_g⁻³ Σ_i U_gi³ / (6 (Σ_g n_g⁻² Σ_i U_gi²)^(3/2))
//
// For one group this is Efron and Tibshirani's (1993, §14.3)
// Σ d³ / (6 (Σ d²)^(3/2)), d_i = θ̄ − θ_(i); for several it is the
// multi-sample form built on empirical influence values (Davison and
// Hinkley 1997, chapters 3 and 5), the one scipy.stats.bootstrap uses
// for multi-sample BCa. Each group is centred
// on its own mean and scaled by its own (n_g − 1)/n_g, so unequal group
// sizes weigh correctly; with equal sizes the factors cancel.
func runAcceleration(jack [][]float64, tol float64) (float64, bool) {
	var num, den float64
	for _, g := range jack {
		n := float64(len(g))
		var mean float64
		for _, v := range g {
			mean += v / n
		}
		scale := (n - 1) / n
		for _, v := range g {
			d := mean - v
			if math.Abs(d) <= tol {
				continue
			}
			u := scale * d
			num += u * u * u
			den += u * u
		}
	}
	if den == 0 {
		return 0, false
	}
	a := num / (6 * math.Pow(den, 1.5))
	return a, !math.IsNaN(a) && !math.IsInf(a, 0)
}
