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
	// Block is optional (may be nil): the process block pair i ran in, in
	// a run whose processes were replaced every so many pairs. With at
	// least two blocks the decision interval is the clustered one
	// (ClusterMethod): the block is the replicate.
	Block []int32
}

// Paired is the result of a timing comparison. Speedup, its interval,
// the change and the verdict are the decision estimate's (Estimator);
// GeoSpeedup and the Geo change are the geometric mean of the per-pair
// ratios, the classic paired-benchmark statistic, reported beside it with
// its own interval.
// Under EstimatorLegacy the two are the same.
type Paired struct {
	N                                  int
	Estimator                          Estimator
	Speedup, SpeedupLo, SpeedupHi      float64 // decision estimate of ref/con and its interval; >1 means contender faster
	ChangePct, ChangeLo, ChangeHi      float64 // contender time relative to reference, percent: (1/speedup - 1)*100
	GeoSpeedup, MedianSpeedup          float64 // geometric mean and median of the per-pair ratios ref/con
	GeoSpeedupLo, GeoSpeedupHi         float64 // interval of the geometric mean
	GeoChangePct, GeoChangeLo          float64 // the geometric mean as a change, and its interval
	GeoChangeHi                        float64
	MeanDiff                           float64 // mean of con[i]-ref[i]
	OrderEffectPct                     float64 // (ref-first speedup / con-first speedup - 1)*100
	RefFirst, ConFirst                 int
	Lag1                               float64 // lag-one correlation of ln(ref/con)
	BlockLen                           int     // bootstrap block length for the log-ratio series
	ContenderWins, ReferenceWins, Ties int     // pairs with con<ref, ref<con, equal
	// Fit is the decision estimate's fit (zero under EstimatorLegacy and
	// for independent samples): rejected pairs, scale, leader.
	Fit Fit
	// Blocks is the number of process blocks the decision and geometric
	// intervals were computed over (ClusterMethod), 0 when they come from
	// the pairs as one series; then WithinLo and WithinHi are the change
	// interval the pairs as one series give, for comparison.
	Blocks             int
	WithinLo, WithinHi float64
	// Method is how the decision interval was computed: MethodLagZero,
	// MethodBlocks or MethodClustered; empty under EstimatorLegacy.
	Method string
	// EffectivePairs is how many independent pairs the decision
	// estimate's series is worth (EffectivePairs of its pseudo-values);
	// 0 under EstimatorLegacy.
	EffectivePairs float64
	// Short is the short-series rule's account of the decision interval
	// (a series of MinCheckedPairs to ShortSeriesPairs-1 pairs); nil
	// outside the rule and when process blocks gave the interval.
	Short   *ShortWidening
	Verdict Verdict
}

// Decision interval methods of a Paired, named as in the stream
// (comparison.interval.method).
const (
	MethodLagZero   = "lag zero"       // single values, the ordinary standard error (LagZeroRule)
	MethodBlocks    = "blocks"         // the block rule's blocks, the prewhitened standard error
	MethodClustered = "process blocks" // over process blocks (ClusterMethod)
)

// ComparePaired compares contender to reference pair by pair, on the
// log-ratios d[i] = ln(ref[i]/con[i]): each ratio is local in time, so
// drift shared by both sides cancels.
//
// The decision estimate is b's Estimator: by default the robust crossover
// Location of d (biweight locations of the reference-first and
// contender-first pairs, averaged), with LocationInterval of its
// pseudo-values, the studentized circular-block bootstrap with a
// prewhitened standard error, so residual serial dependence widens it as
// it should. The geometric mean of the ratios is reported beside it, its
// interval from its own prewhitened standard error and the studentized
// resample means of the same resampling (borrowedInterval), which halves
// the cost of a comparison. The verdict classifies the decision
// change interval against thresholdPct. EstimatorLegacy is the method of
// schema 1.2 and earlier: the geometric mean with MeanIntervalAuto.
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
	p := Paired{N: len(d), Estimator: b.estimator(), MeanDiff: Mean(diff), Lag1: Lag1(d)}
	p.MedianSpeedup = Percentile(order(ratio, 50), 50) // ratio is ours to reorder
	if p.Estimator == EstimatorLegacy {
		lo, hi, block := b.MeanIntervalAuto(d, stream)
		p.BlockLen = block
		p.setSpeedup(Mean(d), lo, hi)
		p.setGeo(Mean(d), lo, hi)
		p.setOrderEffect(d, in.RefFirst)
	} else {
		loc := Locate(d, in.RefFirst, p.Estimator == EstimatorRobust)
		p.Fit = loc.Fit
		piv := b.locationPivot(loc.Pseudo, stream)
		p.BlockLen = piv.block
		p.setSpeedup(loc.Center, piv.lo, piv.hi)
		glo, ghi := b.borrowedInterval(d, piv, stream+"/geo")
		p.setGeo(Mean(d), glo, ghi)
		p.cluster(in.Block, loc.Pseudo, d, b.Confidence)
		p.setOrderEffect(d, in.RefFirst)
		if loc.Blocked {
			p.OrderEffectPct = 100 * expm1(2*loc.Leader)
		}
		p.EffectivePairs = piv.effective
		if p.Blocks == 0 {
			p.Short = piv.short
		}
		switch {
		case p.Blocks > 0:
			p.Method = MethodClustered
		case piv.lagZero:
			p.Method = MethodLagZero
		default:
			p.Method = MethodBlocks
		}
	}
	p.countWins(in.Ref, in.Con)
	p.Verdict = Classify(p.ChangeLo, p.ChangeHi, thresholdPct)
	return p, nil
}

// cluster replaces the decision and geometric intervals by the clustered
// ones when the pairs came from two or more process blocks, keeping the
// series interval as Within. From minPlainClusters blocks the clustered
// interval stands alone: its hull with the series interval covered
// 0.96-0.98 without block shifts at 5 to 20 blocks, where the clustered
// one covers 0.94-0.96, and every row of TestClusterTable covers
// 0.938-0.961 without it. Below that, outside the table, the hull stays:
// two or three blocks that happen to agree must not claim more than the
// pairs say.
func (p *Paired) cluster(block []int32, pseudo, d []float64, confidence float64) {
	if block == nil {
		return
	}
	_, lo, hi, k := clusterInterval(pseudo, block, confidence)
	if k < minClusters {
		return
	}
	p.Blocks, p.WithinLo, p.WithinHi = k, p.ChangeLo, p.ChangeHi
	_, glo, ghi, _ := clusterInterval(d, block, confidence)
	if k < minPlainClusters {
		lo, hi = min(lo, ln(p.SpeedupLo)), max(hi, ln(p.SpeedupHi))
		glo, ghi = min(glo, ln(p.GeoSpeedupLo)), max(ghi, ln(p.GeoSpeedupHi))
	}
	p.setSpeedup(ln(p.Speedup), lo, hi)
	p.setGeo(ln(p.GeoSpeedup), glo, ghi)
}

// minPlainClusters is the fewest process blocks whose clustered interval
// is reported without the series interval's hull: the smallest block
// count of TestClusterTable.
const minPlainClusters = 5

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
	if in.Block != nil && len(in.Block) != len(in.Ref) {
		return fmt.Errorf("process blocks cover %d pairs but there are %d", len(in.Block), len(in.Ref))
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

// setSpeedup fills the decision speedup and change fields from its
// log-ratio estimate ln(ref/con) and interval [lo,hi]. Change is the
// inverse view, so its low end comes from the high end of the log-ratio
// interval.
func (p *Paired) setSpeedup(est, lo, hi float64) {
	p.Speedup, p.SpeedupLo, p.SpeedupHi = exp(est), exp(lo), exp(hi)
	p.ChangePct = 100 * expm1(-est)
	p.ChangeLo = 100 * expm1(-hi)
	p.ChangeHi = 100 * expm1(-lo)
}

// setGeo fills the geometric-mean fields from the mean log-ratio and its
// interval.
func (p *Paired) setGeo(meanLog, lo, hi float64) {
	p.GeoSpeedup, p.GeoSpeedupLo, p.GeoSpeedupHi = exp(meanLog), exp(lo), exp(hi)
	p.GeoChangePct = 100 * expm1(-meanLog)
	p.GeoChangeLo = 100 * expm1(-hi)
	p.GeoChangeHi = 100 * expm1(-lo)
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

// setOrderEffect counts the orders and compares the geometric speedup of
// pairs where the reference ran first with those where the contender ran
// first. A large
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
