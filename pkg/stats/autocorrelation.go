package stats

// Lag1 returns the lag-one autocorrelation of the time-ordered series x,
// sum((x[t]-m)(x[t+1]-m)) / sum((x[t]-m)^2), a quick drift diagnostic:
// values well above zero mean neighbouring samples move together.
// It is 0 when undefined (fewer than three values or zero variance).
func Lag1(x []float64) float64 {
	if len(x) < 3 {
		return 0
	}
	a := newAutocovariance(x)
	if a.at(0) == 0 {
		return 0
	}
	return a.at(1) / a.at(0)
}

// autocovariance evaluates sample autocovariances of a series around its
// mean, with the biased divisor n that keeps the sequence positive
// semi-definite, as the block-length rule assumes. Lags are computed on
// first use and cached, since each costs a pass over the series.
type autocovariance struct {
	dev []float64 // x minus its mean
	lag []float64 // lag[k] is the autocovariance at lag k, once computed
}

func newAutocovariance(x []float64) *autocovariance {
	m := Mean(x)
	dev := make([]float64, len(x))
	for i, v := range x {
		dev[i] = v - m
	}
	return &autocovariance{dev: dev}
}

// at returns the autocovariance at lag k (0 <= k < n).
func (a *autocovariance) at(k int) float64 {
	for len(a.lag) <= k {
		a.lag = append(a.lag, a.compute(len(a.lag)))
	}
	return a.lag[k]
}

func (a *autocovariance) compute(k int) float64 {
	n := len(a.dev)
	var s float64
	for t := 0; t+k < n; t++ {
		s += float64(a.dev[t] * a.dev[t+k])
	}
	return s / float64(n)
}
