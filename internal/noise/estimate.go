package noise

import (
	"math"

	"github.com/flybench/flybench/pkg/ndjson"
	"github.com/flybench/flybench/pkg/stats"
)

// Scale turns a median absolute deviation into a 95% half-width: 1.4826
// makes the MAD consistent with a normal standard deviation, 1.96 is the
// normal 95% quantile.
const Scale = 1.96 * 1.4826

// Deltas are the deltas of values[1:] against values[0]: relative, in
// percent, for a level; in percentage points for a change (a change is
// already a percentage, and a relative delta of a change near zero would
// be meaningless). The first invocation's own delta, 0 by definition, is
// not among them.
func Deltas(kind string, values []float64) []float64 {
	if len(values) < 2 {
		return nil
	}
	first := values[0]
	d := make([]float64, len(values)-1)
	for i, v := range values[1:] {
		if kind == ndjson.NoiseLevel {
			d[i] = 100 * (v - first) / first
		} else {
			d[i] = v - first
		}
	}
	return d
}

// Estimate is the noise of a metric observed as values, one per
// invocation: Scale × MAD of its deltas (about their median), in percent
// or percentage points. Fewer than two values give 0.
func Estimate(kind string, values []float64) float64 {
	d := Deltas(kind, values)
	if len(d) == 0 {
		return 0
	}
	return Scale * stats.MAD(d)
}

// settled reports whether an estimate moved by at most tol (a fraction)
// of its previous value; two zeros are settled.
func settled(old, new, tol float64) bool {
	return math.Abs(new-old) <= tol*old || (old == 0 && new == 0)
}

// change is how far an estimate moved relative to its previous value:
// +Inf from zero to non-zero.
func change(old, new float64) float64 {
	switch {
	case old == new:
		return 0
	case old == 0:
		return math.Inf(1)
	}
	return math.Abs(new-old) / old
}
