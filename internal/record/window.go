package record

import (
	"math"
	"slices"
)

// WindowSpans is how many of a benchmark's most recent finished spans
// (with a wall time, any outcome) the live display's rolling median and
// p95 describe.
const WindowSpans = 1000

// window is a ring of the last WindowSpans wall times. Its benchmark's
// lock guards it.
type window struct {
	vals [WindowSpans]int64
	n    int // filled slots
	next int
}

func (w *window) add(v int64) {
	w.vals[w.next] = v
	w.next = (w.next + 1) % WindowSpans
	if w.n < WindowSpans {
		w.n++
	}
}

// copyTo appends the window's values to buf.
func (w *window) copyTo(buf []int64) []int64 {
	return append(buf, w.vals[:w.n]...)
}

// Quantiles are the nearest-rank median and 95th percentile of vals,
// which they sort; ok is false when vals is empty.
func Quantiles(vals []int64) (median, p95 int64, ok bool) {
	if len(vals) == 0 {
		return 0, 0, false
	}
	slices.Sort(vals)
	return nearestRank(vals, 0.5), nearestRank(vals, 0.95), true
}

// nearestRank is the smallest value with at least p of sorted at or
// below it.
func nearestRank(sorted []int64, p float64) int64 {
	k := int(math.Ceil(p*float64(len(sorted)))) - 1
	return sorted[max(k, 0)]
}
