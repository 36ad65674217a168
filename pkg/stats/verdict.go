package stats

import (
	"fmt"
	"math"
)

// Verdict is the practical conclusion of a timing comparison.
type Verdict int

const (
	Inconclusive Verdict = iota
	Equivalent
	ContenderFaster
	ReferenceFaster
)

func (v Verdict) String() string {
	switch v {
	case Inconclusive:
		return "inconclusive"
	case Equivalent:
		return "practically equivalent"
	case ContenderFaster:
		return "contender faster"
	case ReferenceFaster:
		return "reference faster"
	}
	return fmt.Sprintf("Verdict(%d)", int(v))
}

// Classify judges an interval [lo,hi] of the contender's relative time
// change, in percent, against a symmetric practical threshold t: a
// direction is claimed only when the whole interval clears -t or +t, and
// equivalence only when the whole interval lies within ±t, so a noisy
// interval straddling a threshold stays inconclusive.
func Classify(lo, hi, thresholdPct float64) Verdict {
	t := thresholdPct
	switch {
	case hi < -t:
		return ContenderFaster
	case lo > t:
		return ReferenceFaster
	case lo >= -t && hi <= t:
		return Equivalent
	}
	return Inconclusive
}

// checkSettings validates the settings every comparison shares.
func checkSettings(b Bootstrap, thresholdPct float64) error {
	if err := b.Validate(); err != nil {
		return err
	}
	if !(thresholdPct >= 0) || math.IsInf(thresholdPct, 1) {
		return fmt.Errorf("threshold %g out of range: use a finite percent of 0 or more", thresholdPct)
	}
	return nil
}
