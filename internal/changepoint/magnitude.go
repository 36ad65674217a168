package changepoint

import (
	"math"
	"slices"
	"sort"

	"gonum.org/v1/gonum/stat/distuv"
)

// ConfidencePct is the confidence of each change point's interval.
const ConfidencePct = 95

// describe sets the levels either side of each change of cs from index
// from on, up to its neighbours, the interval of its magnitude and the
// range of its place (location.go).
func describe(x []float64, cs []Change, from int) {
	for i := from; i < len(cs); i++ {
		start, end := 0, len(x)
		if i > 0 {
			start = cs[i-1].Index
		}
		if i+1 < len(cs) {
			end = cs[i+1].Index
		}
		before, after := x[start:cs[i].Index], x[cs[i].Index:end]
		cs[i].Before, cs[i].After = median(before), median(after)
		cs[i].CI = ratioCI(before, after, ConfidencePct)
		r := locate(x[start:end], cs[i].Index-start)
		cs[i].Range = [2]int{start + r[0], start + r[1]}
	}
}

// ratioCI is Welch's t interval of the ratio of the means of after and
// before, as a change in percent: on the log scale, the delta method's
// standard error sqrt(va/(na·ma²) + vb/(nb·mb²)) with the
// Welch–Satterthwaite degrees of freedom, the ends exponentiated (so the
// interval is never below -100%). NaN ends when a mean is not positive or
// a side has fewer than 2 points.
func ratioCI(before, after []float64, confPct float64) [2]float64 {
	mb, vb := meanVar(before)
	ma, va := meanVar(after)
	if !(mb > 0 && ma > 0) || len(before) < 2 || len(after) < 2 {
		return [2]float64{math.NaN(), math.NaN()}
	}
	b := vb / (float64(len(before)) * mb * mb)
	a := va / (float64(len(after)) * ma * ma)
	d := math.Log(ma / mb)
	se := math.Sqrt(a + b)
	df := 1.0
	if a+b > 0 {
		df = (a + b) * (a + b) / (a*a/float64(len(after)-1) + b*b/float64(len(before)-1))
	}
	t := distuv.StudentsT{Mu: 0, Sigma: 1, Nu: max(df, 1)}.Quantile(1 - (1-confPct/100)/2)
	return [2]float64{(math.Exp(d-t*se) - 1) * 100, (math.Exp(d+t*se) - 1) * 100}
}

// meanVar is the mean and the sample variance of x (n-1 denominator).
func meanVar(x []float64) (mean, v float64) {
	for _, e := range x {
		mean += e
	}
	mean /= float64(len(x))
	for _, e := range x {
		v += (e - mean) * (e - mean)
	}
	if len(x) > 1 {
		v /= float64(len(x) - 1)
	}
	return mean, v
}

func median(x []float64) float64 {
	if len(x) == 0 {
		return 0
	}
	s := slices.Clone(x)
	sort.Float64s(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}
