package stats

import (
	"math"
	"math/rand/v2"
)

// The noise models of the coverage simulation: paired times shaped like
// what real machines do to a paired benchmark. Each model draws n pairs
// whose true log-ratio ln(ref/con) is delta, given who ran first in each
// pair (the real schedule's order), on a common drifting base that the
// pairing should cancel. sigma is the clean log-ratio noise.
type noiseModel struct {
	name string
	// draw returns the n pairs.
	draw func(r *rand.Rand, n int, delta float64, refFirst []bool) (ref, con []float64)
	// truth is the true mean log-ratio for delta, when it is not delta
	// itself (quantized times); nil means delta.
	truth func(delta float64) float64
}

const simSigma = 0.03 // clean log-ratio noise: 3%, a single-run pair of a ~10 ms program

// noiseModels returns the simulation's models.
func noiseModels() []noiseModel {
	return []noiseModel{
		{name: "independent", draw: logRatioModel(func(r *rand.Rand, n int, _ []bool) []float64 {
			return normals(r, n, simSigma)
		})},
		{name: "AR(1) phi=0.5", draw: logRatioModel(stationaryAR(0.5))},
		{name: "AR(1) phi=0.8", draw: logRatioModel(stationaryAR(0.8))},
		{name: "contaminated 5%", draw: logRatioModel(contaminated(0.05))},
		{name: "contaminated 10%", draw: logRatioModel(contaminated(0.10))},
		{name: "leader 3%", draw: logRatioModel(leader(0.03))},
		{name: "leader 10%", draw: logRatioModel(leader(0.10))},
		{name: "drift+phases", draw: driftPhases},
		{name: "ties", draw: quantized, truth: quantizedTruth},
		{name: "layout lottery", draw: logRatioModel(layoutLottery(0.25, 0.6))},
	}
}

// layoutLottery is clean noise where each run of a pair, independently,
// is slowed by the factor 1+slow with probability p: a memory layout
// that a fresh process draws at random (the stack's alignment under
// --randomize-layout or the kernel's stack randomization) and that some
// loop's loads straddle cache lines in. The log-ratio noise is a
// three-point mixture, symmetric about zero, far wider than the clean
// noise: examples/align (issue 14) at one alignment in four.
func layoutLottery(p, slow float64) func(*rand.Rand, int, []bool) []float64 {
	return func(r *rand.Rand, n int, _ []bool) []float64 {
		d := normals(r, n, simSigma)
		for i := range d {
			if r.Float64() < p {
				d[i] += math.Log1p(slow) // the reference's run drew the slow layout
			}
			if r.Float64() < p {
				d[i] -= math.Log1p(slow)
			}
		}
		return d
	}
}

// logRatioModel makes a model from a generator of log-ratio noise: the
// pairs' log-ratios are delta plus that noise, on a common drifting base.
func logRatioModel(noise func(r *rand.Rand, n int, refFirst []bool) []float64) func(*rand.Rand, int, float64, []bool) ([]float64, []float64) {
	return func(r *rand.Rand, n int, delta float64, refFirst []bool) ([]float64, []float64) {
		d := noise(r, n, refFirst)
		for i := range d {
			d[i] += delta
		}
		return pairsFromLogRatios(r, d)
	}
}

func normals(r *rand.Rand, n int, sigma float64) []float64 {
	x := make([]float64, n)
	for i := range x {
		x[i] = sigma * r.NormFloat64()
	}
	return x
}

// stationaryAR is AR(1) noise with coefficient phi and stationary
// standard deviation simSigma: drift that one side feels more than the
// other (a phase that slows one build's memory access more), serially
// dependent in the ratios themselves.
func stationaryAR(phi float64) func(*rand.Rand, int, []bool) []float64 {
	return func(r *rand.Rand, n int, _ []bool) []float64 {
		return ar1(r, n, phi, simSigma*math.Sqrt(1-phi*phi))
	}
}

// contaminated is clean noise where a share p of the pairs had one side,
// either with equal chance, slowed by 10% to 50%: what a preemption or an
// interrupt storm does to one run of a pair.
func contaminated(p float64) func(*rand.Rand, int, []bool) []float64 {
	return func(r *rand.Rand, n int, _ []bool) []float64 {
		d := normals(r, n, simSigma)
		for i := range d {
			if r.Float64() < p {
				hit := math.Log(1 + 0.1 + 0.4*r.Float64())
				if r.IntN(2) == 0 {
					hit = -hit // the contender was hit: ln(ref/con) falls
				}
				d[i] += hit
			}
		}
		return d
	}
}

// leader slows whichever side runs first by the factor 1+l.
func leader(l float64) func(*rand.Rand, int, []bool) []float64 {
	return func(r *rand.Rand, n int, refFirst []bool) []float64 {
		d := normals(r, n, simSigma)
		for i := range d {
			if refFirst[i] {
				d[i] += math.Log1p(l)
			} else {
				d[i] -= math.Log1p(l)
			}
		}
		return d
	}
}

// driftPhases simulates the runs in time: run j of the schedule occupies
// [j, j+1). The machine's speed drifts slowly (a 40-pair sine of ±10%)
// and a periodic load makes it 30% slower, with twice the noise, in busy
// phases of 10 pairs out of every 20, starting at a random point; a phase
// change that lands inside a run slows it by the busy share of the run.
// So the edges of busy phases hit one side of a pair, and drift leaves a
// small penalty on whichever side runs later.
func driftPhases(r *rand.Rand, n int, delta float64, refFirst []bool) ([]float64, []float64) {
	const period, busyShare, slow = 40.0, 0.5, 0.3
	offset, drift := r.Float64()*period, r.Float64()*2*math.Pi
	speed := func(j int) (factor, sigma float64) {
		t := float64(j)
		busy := busyTime(t+offset, period, busyShare) // busy part of [t, t+1)
		factor = math.Exp(0.1*math.Sin(drift+2*math.Pi*t/(2*period))) * (1 + slow*busy)
		return factor, simSigma / math.Sqrt2 * (1 + busy)
	}
	ref, con := make([]float64, n), make([]float64, n)
	for i := range ref {
		first, second := 2*i, 2*i+1
		rs, cs := first, second
		if !refFirst[i] {
			rs, cs = second, first
		}
		fr, sr := speed(rs)
		fc, sc := speed(cs)
		ref[i] = 1000 * fr * math.Exp(delta/2+sr*r.NormFloat64())
		con[i] = 1000 * fc * math.Exp(-delta/2+sc*r.NormFloat64())
	}
	return ref, con
}

// busyTime is the share of [t, t+1) that falls in the busy part (the
// first busyShare of each period) of a square wave.
func busyTime(t, period, busyShare float64) float64 {
	var busy float64
	for k := math.Floor(t/period) * period; k < t+1; k += period {
		if lo, hi := math.Max(t, k), math.Min(t+1, k+period*busyShare); hi > lo {
			busy += hi - lo
		}
	}
	return busy
}

// Quantized times: both sides are whole ticks of a coarse timer, about
// 25 ticks long, so about half the pairs tie exactly and the information
// is in how often each side is a tick or two longer.
const (
	tickBase  = 25.0
	tickSigma = simSigma / math.Sqrt2 // per-side noise before rounding
)

func quantized(r *rand.Rand, n int, delta float64, _ []bool) ([]float64, []float64) {
	ref, con := make([]float64, n), make([]float64, n)
	for i := range ref {
		ref[i] = tick(tickBase * math.Exp(delta/2+tickSigma*r.NormFloat64()))
		con[i] = tick(tickBase * math.Exp(-delta/2+tickSigma*r.NormFloat64()))
	}
	return ref, con
}

func tick(v float64) float64 { return math.Max(1, math.Round(v)) }

// quantizedTruth is E[ln(ref/con)] for the quantized model, summed
// exactly over the tick values each side can take.
func quantizedTruth(delta float64) float64 {
	return meanLogTick(delta/2) - meanLogTick(-delta/2)
}

// meanLogTick is E[ln tick] for a side with log-time offset mu.
func meanLogTick(mu float64) float64 {
	var e float64
	for k, p := range tickProbs(mu) {
		if p > 0 {
			e += p * math.Log(float64(k))
		}
	}
	return e
}

// tickProbs returns P(tick = k) for k below 2·tickBase, for a side whose
// log time is ln(tickBase)+mu plus N(0, tickSigma²) noise.
func tickProbs(mu float64) []float64 {
	p := make([]float64, int(2*tickBase))
	cdf := func(v float64) float64 {
		if v <= 0 {
			return 0
		}
		z := (math.Log(v/tickBase) - mu) / tickSigma
		return 0.5 * math.Erfc(-z/math.Sqrt2)
	}
	for k := 1; k < len(p); k++ {
		lo := float64(k) - 0.5
		if k == 1 {
			lo = 0
		}
		p[k] = cdf(float64(k)+0.5) - cdf(lo)
	}
	return p
}
