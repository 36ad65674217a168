package stats

import (
	"fmt"
	"math"
)

// SuiteMethod describes in one line how CompareSuite bounds a suite's
// geometric mean, for output records and help text.
const SuiteMethod = "studentized bootstrap of the mean of the member mean log-ratios: each run resampled on its own with circular blocks of its own length (the members of one run together, unit by unit; the two sides of an independent design each on its own), t* from each resample's own block variances, the scale from the runs' flat-top lag-window variances"

// SuiteGroup is the data of the members of a suite that were measured in
// one run: Ref holds the reference's times per operation and Con[j]
// member j's contender's, in time order, all positive. When Paired, Ref[i]
// and every Con[j][i] are of the same unit (pair or round) and member j's
// log-ratios are ln(Ref[i]/Con[j][i]); the members are resampled together,
// unit by unit, so the reference they share stays shared in each
// resample. Otherwise (sequential blocks, an archived baseline) the sides
// were observed independently, member j's estimate is the difference of
// the mean log times, and each side is resampled on its own. Label names
// the group's random streams.
type SuiteGroup struct {
	Paired bool
	Ref    []float64
	Con    [][]float64
	Label  string
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
		total += len(g.Con)
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
	if len(g.Con) == 0 {
		return nil, nil, fmt.Errorf("no members")
	}
	if err := checkSide("reference", g.Ref); err != nil {
		return nil, nil, err
	}
	for j, con := range g.Con {
		if err := checkSide(fmt.Sprintf("contender %d", j), con); err != nil {
			return nil, nil, err
		}
		if g.Paired && len(con) != len(g.Ref) {
			return nil, nil, fmt.Errorf("contender %d has %d units, the reference %d: paired members share their units", j, len(con), len(g.Ref))
		}
	}
	if g.Paired {
		return g.pairedParts(total)
	}
	return g.independentParts(total)
}

// pairedParts is one series, unit by unit the mean over members of their
// log-ratios, at the weight of the group's members.
func (g SuiteGroup) pairedParts(total float64) ([]suitePart, []float64, error) {
	joint := make([]float64, len(g.Ref))
	means := make([]float64, len(g.Con))
	d := make([]float64, len(g.Ref))
	for j, con := range g.Con {
		for i := range d {
			d[i] = ln(g.Ref[i] / con[i])
			joint[i] += d[i]
		}
		means[j] = Mean(d)
	}
	k := float64(len(g.Con))
	for i := range joint {
		joint[i] /= k
	}
	return []suitePart{{x: joint, w: k / total, label: g.Label + "/pairs"}}, means, nil
}

// independentParts is the reference's log times at the weight of the
// group's members, and each contender's at minus one member's weight.
func (g SuiteGroup) independentParts(total float64) ([]suitePart, []float64, error) {
	lnRef := logs(g.Ref)
	parts := []suitePart{{x: lnRef, w: float64(len(g.Con)) / total, label: g.Label + "/ref"}}
	means := make([]float64, len(g.Con))
	for j, con := range g.Con {
		lnCon := logs(con)
		parts = append(parts, suitePart{x: lnCon, w: -1 / total, label: fmt.Sprintf("%s/con/%d", g.Label, j)})
		means[j] = Mean(lnRef) - Mean(lnCon)
	}
	return parts, means, nil
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
