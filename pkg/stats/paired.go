package stats

import (
	"fmt"
	"math"
)

// PairedInput holds per-operation times aligned by pair index: Ref[i] and
// Con[i] ran adjacently.
type PairedInput struct {
	Ref, Con []float64 // per-operation times, all > 0
	RefFirst []bool    // optional (may be nil): whether the reference ran first in pair i
}

// Paired is the result of a timing comparison.
type Paired struct {
	N                                  int
	GeoSpeedup, MedianSpeedup          float64 // geometric mean and median of the per-pair ratios ref/con; >1 means contender faster
	SpeedupLo, SpeedupHi               float64 // bootstrap interval of the geometric-mean speedup
	ChangePct, ChangeLo, ChangeHi      float64 // contender time relative to reference, percent: (1/speedup - 1)*100
	MeanDiff                           float64 // mean of con[i]-ref[i]
	OrderEffectPct                     float64 // (ref-first geo speedup / con-first geo speedup - 1)*100
	RefFirst, ConFirst                 int
	Lag1                               float64 // lag-one correlation of ln(ref/con)
	BlockLen                           int     // bootstrap block length for the log-ratio series
	ContenderWins, ReferenceWins, Ties int     // pairs with con<ref, ref<con, equal
	Verdict                            Verdict
}

// ComparePaired compares contender to reference pair by pair. The
// statistic is the geometric mean of ref/con, the mean of the log-ratios
// d[i] = ln(ref[i]/con[i]); because each ratio is local in time, drift
// shared by both sides cancels. The interval is MeanInterval of d, the
// studentized circular-block bootstrap (IntervalMethod) with blocks of
// BlockLength(d), so residual serial dependence widens it as it should;
// the change interval is the same interval seen as contender time
// relative to reference. The verdict classifies that change interval
// against thresholdPct.
func ComparePaired(in PairedInput, b Bootstrap, thresholdPct float64, stream string) (Paired, error) {
	if err := checkSettings(b, thresholdPct); err != nil {
		return Paired{}, err
	}
	if err := checkPairs(in); err != nil {
		return Paired{}, err
	}
	d := make([]float64, len(in.Ref))
	ratio := make([]float64, len(in.Ref))
	diff := make([]float64, len(in.Ref))
	for i := range d {
		ratio[i] = in.Ref[i] / in.Con[i]
		d[i] = ln(ratio[i])
		diff[i] = in.Con[i] - in.Ref[i]
	}
	p := Paired{N: len(d), MeanDiff: Mean(diff), Lag1: Lag1(d)}
	p.MedianSpeedup = Percentile(order(ratio, 50), 50) // ratio is ours to reorder
	lo, hi, block := b.MeanIntervalAuto(d, stream)
	p.BlockLen = block
	p.setSpeedup(Mean(d), lo, hi)
	p.countWins(in.Ref, in.Con)
	p.setOrderEffect(d, in.RefFirst)
	p.Verdict = Classify(p.ChangeLo, p.ChangeHi, thresholdPct)
	return p, nil
}

// checkPairs rejects inputs that cannot form log-ratios.
func checkPairs(in PairedInput) error {
	if len(in.Ref) != len(in.Con) {
		return fmt.Errorf("reference has %d samples but contender has %d: pairs must align", len(in.Ref), len(in.Con))
	}
	if len(in.Ref) < 2 {
		return fmt.Errorf("%d pairs: need at least 2", len(in.Ref))
	}
	if in.RefFirst != nil && len(in.RefFirst) != len(in.Ref) {
		return fmt.Errorf("order flags cover %d pairs but there are %d", len(in.RefFirst), len(in.Ref))
	}
	if err := checkTimes("reference", in.Ref); err != nil {
		return err
	}
	return checkTimes("contender", in.Con)
}

// checkTimes rejects times that are not positive and finite.
func checkTimes(side string, x []float64) error {
	for i, v := range x {
		if !(v > 0) || math.IsInf(v, 1) {
			return fmt.Errorf("%s sample %d is %g: times must be positive and finite", side, i, v)
		}
	}
	return nil
}

// setSpeedup fills the speedup and change fields from the mean log-ratio
// ln(ref/con) and its interval [lo,hi]. Change is the inverse view, so its
// low end comes from the high end of the log-ratio interval.
func (p *Paired) setSpeedup(meanLog, lo, hi float64) {
	p.GeoSpeedup, p.SpeedupLo, p.SpeedupHi = exp(meanLog), exp(lo), exp(hi)
	p.ChangePct = 100 * expm1(-meanLog)
	p.ChangeLo = 100 * expm1(-hi)
	p.ChangeHi = 100 * expm1(-lo)
}

// countWins counts, index by index, which side took less time.
func (p *Paired) countWins(ref, con []float64) {
	for i := range ref {
		switch {
		case con[i] < ref[i]:
			p.ContenderWins++
		case ref[i] < con[i]:
			p.ReferenceWins++
		default:
			p.Ties++
		}
	}
}

// setOrderEffect compares the geometric speedup of pairs where the
// reference ran first with those where the contender ran first. A large
// difference means running first or second matters (warm caches,
// frequency ramps), which order balancing cancels only on average.
func (p *Paired) setOrderEffect(d []float64, refFirst []bool) {
	if refFirst == nil {
		return
	}
	var sumRef, sumCon float64
	for i, first := range refFirst {
		if first {
			p.RefFirst++
			sumRef += d[i]
		} else {
			p.ConFirst++
			sumCon += d[i]
		}
	}
	if p.RefFirst == 0 || p.ConFirst == 0 {
		return
	}
	gap := sumRef/float64(p.RefFirst) - sumCon/float64(p.ConFirst)
	p.OrderEffectPct = 100 * expm1(gap)
}
