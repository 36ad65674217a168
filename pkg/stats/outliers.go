package stats

import "slices"

// Outliers counts samples beyond Tukey's fences. The counts are
// diagnostics for host noise or workload phases; no sample is removed.
type Outliers struct {
	LowSevere, LowMild, HighMild, HighSevere int
}

// Tukey classifies samples against fences built from type-7 quartiles:
// mild beyond 1.5 IQR outside the quartiles, severe beyond 3 IQR.
// A sample exactly on a fence is not counted.
func Tukey(x []float64) Outliers {
	return tukeyOrdered(order(slices.Clone(x), 25, 75))
}

// tukeyOrdered is Tukey for data in which Percentile gives the quartiles
// (sorted, or ordered by selectPercentiles); counting needs no order.
func tukeyOrdered(s []float64) Outliers {
	var o Outliers
	if len(s) == 0 {
		return o
	}
	q1, q3 := Percentile(s, 25), Percentile(s, 75)
	// Products are rounded before the add so that fused multiply-adds
	// cannot move a fence by one bit on some platforms.
	mild, severe := float64(1.5*(q3-q1)), float64(3*(q3-q1))
	for _, v := range s {
		switch {
		case v < q1-severe:
			o.LowSevere++
		case v < q1-mild:
			o.LowMild++
		case v > q3+severe:
			o.HighSevere++
		case v > q3+mild:
			o.HighMild++
		}
	}
	return o
}
