package stats

import "math"

// Summary describes one sample series: location, tails, spread,
// serial correlation and outlier counts.
type Summary struct {
	N                                                      int
	Min, Max, Mean, Median, P95, P99, SD, MAD, CVPct, Lag1 float64
	Outliers                                               Outliers
}

// Summarize describes x, keeping every sample. CVPct is 100*SD/|Mean|, or
// 0 when the mean is 0. An empty x gives the zero Summary, so nothing
// unencodable (NaN) reaches a record.
func Summarize(x []float64) Summary {
	if len(x) == 0 {
		return Summary{}
	}
	s := sortedCopy(x)
	sum := Summary{
		N:        len(x),
		Min:      s[0],
		Max:      s[len(s)-1],
		Mean:     Mean(x),
		Median:   Percentile(s, 50),
		P95:      Percentile(s, 95),
		P99:      Percentile(s, 99),
		SD:       SD(x),
		MAD:      MAD(x),
		Lag1:     Lag1(x),
		Outliers: Tukey(x),
	}
	if sum.Mean != 0 {
		sum.CVPct = 100 * sum.SD / math.Abs(sum.Mean)
	}
	return sum
}
