package stats

import "math"

// MaxComparisonConfidence is the highest per-comparison level a family
// correction may ask for: the range Bootstrap.Validate accepts. Beyond it
// the tails the interval reads are a handful of resamples.
const MaxComparisonConfidence = 99.9

// BonferroniConfidence returns the per-comparison confidence level, in
// percent, that gives m comparisons a family confidence of at least
// familyPct: 1 - (1 - familyPct/100)/m (Bonferroni's inequality: the
// chance that any interval misses is at most the sum of the m chances,
// whatever the dependence between them). m of 1 or less returns familyPct
// itself. The level is rounded to 1e-9 percent, as LookConfidence's is,
// and ok is false when it would exceed MaxComparisonConfidence, which
// level then is.
func BonferroniConfidence(familyPct float64, m int) (level float64, ok bool) {
	if m <= 1 {
		return familyPct, true
	}
	level = math.Round((100-(100-familyPct)/float64(m))*1e9) / 1e9
	if level > MaxComparisonConfidence {
		return MaxComparisonConfidence, false
	}
	return level, true
}

// FamilyConfidence returns the confidence, in percent, that Bonferroni's
// inequality guarantees for m comparisons each at level percent: at least
// 1 - m(1 - level/100), and never below 0.
func FamilyConfidence(level float64, m int) float64 {
	return math.Max(0, math.Round((100-float64(max(m, 1))*(100-level))*1e9)/1e9)
}
