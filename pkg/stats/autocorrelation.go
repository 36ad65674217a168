package stats

// Lag1 returns the lag-one autocorrelation of the time-ordered series x,
// sum((x[t]-m)(x[t+1]-m)) / sum((x[t]-m)^2), a quick drift diagnostic:
// values well above zero mean neighbouring samples move together.
// It is 0 when undefined (fewer than three values or zero variance).
func Lag1(x []float64) float64 {
	if len(x) < 3 {
		return 0
	}
	// The sums of autocovariance's lags 0 and 1, in the same order, in one
	// pass and without a copy of the deviations.
	m := Mean(x)
	var s0, s1 float64
	prev := x[0] - m
	s0 = float64(prev * prev)
	for _, v := range x[1:] {
		d := v - m
		s0 += float64(d * d)
		s1 += float64(prev * d)
		prev = d
	}
	if s0 == 0 {
		return 0
	}
	n := float64(len(x))
	return (s1 / n) / (s0 / n)
}

// autocovariance evaluates sample autocovariances of a series around its
// mean, with the biased divisor n usual for lag-window estimates (it keeps
// the sequence positive semi-definite). Lags are computed on first use
// and cached, since each costs a pass over the series.
type autocovariance struct {
	mean float64   // Mean(x)
	dev  []float64 // x minus its mean, never modified
	lag  []float64 // lag[k] is the autocovariance at lag k, once computed
}

func newAutocovariance(x []float64) *autocovariance {
	m := Mean(x)
	dev := make([]float64, len(x))
	for i, v := range x {
		dev[i] = v - m
	}
	return &autocovariance{mean: m, dev: dev}
}

// at returns the autocovariance at lag k (0 <= k < n).
func (a *autocovariance) at(k int) float64 {
	for len(a.lag) <= k {
		a.extend()
	}
	return a.lag[k]
}

// extend computes the next lags, lagsPerPass per pass over the series
// when that many are left. Each lag is summed alone and in time order
// whatever the grouping, so its value never depends on the grouping.
func (a *autocovariance) extend() {
	k, n := len(a.lag), len(a.dev)
	if n-k < lagsPerPass {
		a.lag = append(a.lag, lagSum(a.dev, k, 0, 0)/float64(n))
		return
	}
	for _, s := range lagGroup(a.dev, k) {
		a.lag = append(a.lag, s/float64(n))
	}
}

// lagsPerPass is how many lags lagGroup sums in one pass: six sums, six
// products and the shared value fit the fifteen SSE registers Go's ABI
// leaves free, where eight spill a sum to memory every step and take
// twice as long.
const lagsPerPass = 6

// lagGroup returns the sums of d[t]·d[t+k+j] over t for j below
// lagsPerPass (k+lagsPerPass <= len(d)). One pass loads each value once
// for all the lags and keeps their sums in flight independently.
func lagGroup(d []float64, k int) [lagsPerPass]float64 {
	var s0, s1, s2, s3, s4, s5 float64
	t := 0
	for ; t+k+lagsPerPass <= len(d); t++ {
		v, w := d[t], d[t+k:t+k+lagsPerPass:t+k+lagsPerPass]
		s0 += float64(v * w[0])
		s1 += float64(v * w[1])
		s2 += float64(v * w[2])
		s3 += float64(v * w[3])
		s4 += float64(v * w[4])
		s5 += float64(v * w[5])
	}
	sums := [lagsPerPass]float64{s0, s1, s2, s3, s4, s5}
	for j := range sums {
		sums[j] = lagSum(d, k+j, t, sums[j])
	}
	return sums
}

// lagSum adds dev[t]·dev[t+k] for t = from, from+1, ... to the partial
// sum s, in time order.
func lagSum(dev []float64, k, from int, s float64) float64 {
	for t := from; t+k < len(dev); t++ {
		s += float64(dev[t] * dev[t+k])
	}
	return s
}
