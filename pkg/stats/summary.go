package stats

import (
	"math"
	"slices"
)

// Summary describes one sample series: location, tails, spread,
// serial correlation and outlier counts.
type Summary struct {
	N                                                      int
	Min, Max, Mean, Median, P95, P99, SD, MAD, CVPct, Lag1 float64
	Outliers                                               Outliers
}

// Summarize describes x, keeping every sample. CVPct is 100*SD/|Mean|, or
// 0 when the mean is 0. An empty x gives the zero Summary, so nothing
// unencodable (NaN) reaches a record. One copy, ordered by selection just
// enough for every percentile reported and the quartiles of the outlier
// fences, serves them all and then holds the deviations for MAD, so the
// summary never sorts.
func Summarize(x []float64) Summary {
	if len(x) == 0 {
		return Summary{}
	}
	s := order(slices.Clone(x), 0, 25, 50, 75, 95, 99, 100)
	sum := Summary{
		N:        len(x),
		Min:      Percentile(s, 0),
		Max:      Percentile(s, 100),
		Mean:     Mean(x),
		Median:   Percentile(s, 50),
		P95:      Percentile(s, 95),
		P99:      Percentile(s, 99),
		SD:       SD(x),
		Lag1:     Lag1(x),
		Outliers: tukeyOrdered(s),
	}
	sum.MAD = deviationMedian(x, sum.Median, s)
	if sum.Mean != 0 {
		sum.CVPct = 100 * sum.SD / math.Abs(sum.Mean)
	}
	return sum
}
