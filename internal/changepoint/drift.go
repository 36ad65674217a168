package changepoint

import "math"

// Drift is a gradual change: two or more consecutive change points that
// move the level the same way, over a stretch a straight line describes
// better than their steps do. From is its first point and To one past its
// last; Start and End are the line's values at its first and last point.
type Drift struct {
	From, To   int
	Start, End float64
	// Changes is how many change points it stands for.
	Changes int
}

// Drifts separates the gradual changes from the steps among cs, the
// change points of x in index order (Segment, Detect): each maximal run
// of two or more consecutive changes in one direction is tried against a
// straight line over its stretch (from the change before it, or the
// first point, to the change after it, or the end), and becomes a Drift
// when the line has the lower Bayesian information criterion,
// n·log(RSS/n) + p·log n: RSS the squared deviations from the segments'
// means (p = 2k+1 for k changes: k+1 levels and k places) or from the
// least-squares line (p = 2), the line over the whole stretch or over
// the part slopeOnly keeps, with a level either side (a climb that
// starts or stops at a flat stretch). Two changes at least, because a
// single step and a short slope are alike to any criterion. The changes
// that no drift took are returned as steps.
//
// Measured on the labelled set (table_test.go): a linear drift of +5%
// over 60 points in 1% noise, cut into 183 change points in 100 series,
// left 31 change points and 72 drifts; two steps up of 3 SD each, 20
// points apart, were taken for a drift in 3 series of 100 (1 with the
// line over whole stretches only), and so were the changes of 1 series
// of 100 with a 3-SD step among 5% outliers.
func Drifts(x []float64, cs []Change) (drifts []Drift, steps []Change) {
	for i := 0; i < len(cs); {
		j := i + 1
		for j < len(cs) && up(cs[j]) == up(cs[i]) {
			j++
		}
		from, to := 0, len(x)
		if i > 0 {
			from = cs[i-1].Index
		}
		if j < len(cs) {
			to = cs[j].Index
		}
		if cuts := indexFrom(cs[i:j], from); j-i >= 2 && lineBetter(x[from:to], cuts) {
			lo, hi, _ := slopeOnly(x[from:to], cuts)
			from, to = from+lo, from+hi
			a, b := leastSquares(x[from:to])
			drifts = append(drifts, Drift{From: from, To: to, Start: a, End: a + b*float64(to-from-1), Changes: j - i})
		} else {
			steps = append(steps, cs[i:j]...)
		}
		i = j
	}
	return drifts, steps
}

func up(c Change) bool { return c.After > c.Before }

// indexFrom is the changes' indexes relative to from.
func indexFrom(cs []Change, from int) []int {
	out := make([]int, len(cs))
	for i, c := range cs {
		out[i] = c.Index - from
	}
	return out
}

// lineBetter says whether a line describes x better than levels that
// change at cuts (above): the line over the whole stretch, or over the
// part slopeOnly keeps with levels either side.
func lineBetter(x []float64, cuts []int) bool {
	n := float64(len(x))
	bounds := append(append([]int{0}, cuts...), len(x))
	var steps float64
	for i := 0; i+1 < len(bounds); i++ {
		steps += levelRSS(x[bounds[i]:bounds[i+1]])
	}
	if steps <= 0 {
		return false
	}
	_, _, line := slopeOnly(x, cuts)
	k := float64(len(cuts))
	return line < n*math.Log(steps/n)+(2*k+1)*math.Log(n)
}

// slopeOnly is the part [lo, hi) of a drift's stretch x that the line
// describes: the whole, or without its first segment (before cuts[0]),
// its last (from the last cut) or both, where those are better described
// as levels of their own — a climb that begins after, or ends before, a
// flat stretch. Chosen by the same criterion: each level cut off adds a
// level and a place (p + 2); the line keeps at least 3 points and one of
// the change points inside it (else the middle level of two steps would
// pass for a line).
func slopeOnly(x []float64, cuts []int) (lo, hi int, bic float64) {
	n := len(x)
	best := math.Inf(1)
	for _, l := range []int{0, cuts[0]} {
		for _, h := range []int{n, cuts[len(cuts)-1]} {
			if h-l < 3 || (l > 0 && h < n && len(cuts) < 3) {
				continue // the line must keep a change point inside it
			}
			rss := lineRSS(x[l:h]) + levelRSS(x[:l]) + levelRSS(x[h:])
			p := 2.0
			if l > 0 {
				p += 2
			}
			if h < n {
				p += 2
			}
			if rss <= 0 {
				continue
			}
			if bic := float64(n)*math.Log(rss/float64(n)) + p*math.Log(float64(n)); bic < best {
				best, lo, hi = bic, l, h
			}
		}
	}
	if math.IsInf(best, 1) {
		return 0, n, best
	}
	return lo, hi, best
}

// lineRSS is the squared deviations of x from its least-squares line.
func lineRSS(x []float64) float64 {
	a, b := leastSquares(x)
	var rss float64
	for i, v := range x {
		r := v - a - b*float64(i)
		rss += r * r
	}
	return rss
}

// levelRSS is the squared deviations of x from its mean (0 when empty).
func levelRSS(x []float64) float64 {
	if len(x) == 0 {
		return 0
	}
	m, _ := meanVar(x)
	var rss float64
	for _, v := range x {
		rss += (v - m) * (v - m)
	}
	return rss
}

// leastSquares is the least-squares line a + b·i through x.
func leastSquares(x []float64) (a, b float64) {
	n := float64(len(x))
	var si, sx, sii, six float64
	for i, v := range x {
		f := float64(i)
		si, sx, sii, six = si+f, sx+v, sii+f*f, six+f*v
	}
	if d := n*sii - si*si; d != 0 {
		b = (n*six - si*sx) / d
	}
	return (sx - b*si) / n, b
}
