package stats

import (
	"fmt"
	"math"
	"slices"
)

// SuiteMethod describes in one line how CompareSuite bounds a suite's
// geometric mean, for output records and help text.
const SuiteMethod = "studentized bootstrap of the mean of the member mean log-ratios: each run resampled on its own with circular blocks of its own length (the members of one run together, unit by unit; the two sides of an independent design each on its own), t* from each resample's own block variances, the scale from the runs' flat-top lag-window variances"

// SuiteGroup is the data of the members of a suite that were measured in
// one run. Paired designs give LogRatios: member j's ln(ref/con) for each
// unit, every member the same units in time order, so the members' shared
// reference stays shared in each resample. Independent designs (sequential
// blocks, an archived baseline) give Ref, the reference's ln times, and
// Con, member j's contender ln times; each side is resampled on its own.
// Label names the group's random streams.
type SuiteGroup struct {
	LogRatios [][]float64
	Ref       []float64
	Con       [][]float64
	Label     string
}

// members is how many members the group holds.
func (g SuiteGroup) members() int {
	if g.LogRatios != nil {
		return len(g.LogRatios)
	}
	return len(g.Con)
}

// Suite is the geometric-mean speedup across the members of a suite,
// reference time / contender time (above 1: the contenders are faster),
// with its interval, as a change in percent, and the verdict of the
// change interval against the practical threshold. Members holds each
// member's geometric-mean speedup, in the order of the groups and their
// members.
type Suite struct {
	Speedup, SpeedupLo, SpeedupHi float64
	ChangePct, ChangeLo, ChangeHi float64
	Members                       []float64
	Verdict                       Verdict
}

// CompareSuite estimates the suite's geometric-mean speedup: the
// geometric mean over members of each member's geometric-mean speedup,
// exp of the mean over members of their mean log-ratios. Its interval is
// SuiteMethod's: a percentile interval of resampled means inherits the
// block bootstrap's variance bias under serial correlation, which
// averaging over members does not remove, so the interval is studentized
// as MeanInterval's is (TestSuiteCoverage measures both).
func CompareSuite(groups []SuiteGroup, b Bootstrap, thresholdPct float64) (Suite, error) {
	if err := checkSettings(b, thresholdPct); err != nil {
		return Suite{}, err
	}
	parts, means, err := suiteParts(groups)
	if err != nil {
		return Suite{}, err
	}
	if len(means) < 2 {
		return Suite{}, fmt.Errorf("%d members: a suite needs at least 2", len(means))
	}
	center := Mean(means)
	lo, hi := b.suiteInterval(center, parts)
	s := Suite{Speedup: exp(center), SpeedupLo: exp(lo), SpeedupHi: exp(hi),
		ChangePct: 100 * expm1(-center), ChangeLo: 100 * expm1(-hi), ChangeHi: 100 * expm1(-lo)}
	for _, m := range means {
		s.Members = append(s.Members, exp(m))
	}
	s.Verdict = Classify(s.ChangeLo, s.ChangeHi, thresholdPct)
	return s, nil
}

// suitePart is one independently resampled series whose mean enters the
// suite's log estimate with weight w.
type suitePart struct {
	x     []float64
	w     float64
	label string
}

// suiteParts returns every group's resampled series, weighted so that
// their weighted means add up to the mean over members of the member
// means, and each member's mean log-ratio.
func suiteParts(groups []SuiteGroup) ([]suitePart, []float64, error) {
	total := 0
	for _, g := range groups {
		total += g.members()
	}
	var parts []suitePart
	var means []float64
	for gi, g := range groups {
		p, m, err := g.parts(float64(total))
		if err != nil {
			return nil, nil, fmt.Errorf("suite group %d (%s): %w", gi, g.Label, err)
		}
		parts, means = append(parts, p...), append(means, m...)
	}
	return parts, means, nil
}

// parts splits one group into its resampled series, for a suite of total
// members.
func (g SuiteGroup) parts(total float64) ([]suitePart, []float64, error) {
	k := float64(g.members())
	if g.LogRatios != nil {
		joint, means, err := unitMeans(g.LogRatios)
		if err != nil {
			return nil, nil, err
		}
		return []suitePart{{x: joint, w: k / total, label: g.Label + "/pairs"}}, means, nil
	}
	if err := checkLogSeries("reference", g.Ref); err != nil {
		return nil, nil, err
	}
	parts := []suitePart{{x: g.Ref, w: k / total, label: g.Label + "/ref"}}
	means := make([]float64, len(g.Con))
	ref := Mean(g.Ref)
	for j, con := range g.Con {
		if err := checkLogSeries(fmt.Sprintf("contender %d", j), con); err != nil {
			return nil, nil, err
		}
		parts = append(parts, suitePart{x: con, w: -1 / total, label: fmt.Sprintf("%s/con/%d", g.Label, j)})
		means[j] = ref - Mean(con)
	}
	return parts, means, nil
}

// unitMeans returns, unit by unit, the mean over members of their
// log-ratios, and each member's mean log-ratio.
func unitMeans(d [][]float64) ([]float64, []float64, error) {
	if len(d) == 0 {
		return nil, nil, fmt.Errorf("no members")
	}
	n := len(d[0])
	joint := make([]float64, n)
	means := make([]float64, len(d))
	for j, x := range d {
		if len(x) != n {
			return nil, nil, fmt.Errorf("member %d has %d units, member 0 has %d: members of one run share their units", j, len(x), n)
		}
		if err := checkLogSeries(fmt.Sprintf("member %d", j), x); err != nil {
			return nil, nil, err
		}
		means[j] = Mean(x)
		for u, v := range x {
			joint[u] += v
		}
	}
	for u := range joint {
		joint[u] /= float64(len(d))
	}
	return joint, means, nil
}

// checkLogSeries rejects a log series too short to resample or not finite.
func checkLogSeries(what string, x []float64) error {
	if len(x) < 2 {
		return fmt.Errorf("%s has %d values: need at least 2", what, len(x))
	}
	if i := slices.IndexFunc(x, func(v float64) bool { return math.IsNaN(v) || math.IsInf(v, 0) }); i >= 0 {
		return fmt.Errorf("%s value %d is %g: log times must be finite", what, i, x[i])
	}
	return nil
}

// suiteReplicates holds what the interval needs of every part: the
// resample moments, the estimated variance of the weighted mean, and the
// range of values the weighted mean can take.
type suiteReplicates struct {
	reps        [][]moment
	variance    float64
	floor, ceil float64
	degenerate  bool // every part is one block: resampling cannot vary it
}

func (b Bootstrap) suiteReplicates(parts []suitePart) suiteReplicates {
	r := suiteReplicates{degenerate: true}
	for _, p := range parts {
		a := newAutocovariance(p.x)
		block := 1
		if len(p.x) >= 8 {
			block = newLagWindow(a).blockLength()
		}
		bs := newBlockSums(p.x, a, block)
		r.variance += float64(p.w * p.w * meanVariance(a, bs))
		lo, hi := p.w*bs.floor, p.w*bs.ceil
		r.floor, r.ceil = r.floor+min(lo, hi), r.ceil+max(lo, hi)
		r.degenerate = r.degenerate && bs.count == 1
		r.reps = append(r.reps, b.replicates(bs, "suite/"+p.label))
	}
	return r
}

// deviation is resample i's weighted mean as a deviation from the
// estimate, and the variance the resample itself estimates for it.
func (r suiteReplicates) deviation(parts []suitePart, i int) (dev, variance float64) {
	for p, part := range parts {
		m := r.reps[p][i]
		dev += part.w * m.mean
		variance += float64(part.w * part.w * m.variance)
	}
	return dev, variance
}

// suiteInterval is the studentized interval of the suite's log estimate
// center: percentileT over t* = dev*/se*, scaled by the parts' combined
// lag-window standard error and clamped to the range the estimate can
// take. Parts with no spread give [center, center].
func (b Bootstrap) suiteInterval(center float64, parts []suitePart) (lo, hi float64) {
	r := b.suiteReplicates(parts)
	se := math.Sqrt(r.variance)
	if se == 0 || r.degenerate {
		return center, center
	}
	t := make([]float64, b.Resamples)
	for i := range t {
		t[i] = studentize(r.deviation(parts, i))
	}
	return b.percentileT(t, center, se, center+r.floor-weightedMean(parts), center+r.ceil-weightedMean(parts))
}

// weightedMean is the parts' weighted sum of means, the estimate the
// resample deviations are measured from; it equals CompareSuite's center
// up to rounding, and the clamp is shifted by the difference.
func weightedMean(parts []suitePart) float64 {
	var s float64
	for _, p := range parts {
		s += p.w * Mean(p.x)
	}
	return s
}
