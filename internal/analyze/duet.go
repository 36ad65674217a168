package analyze

import (
	"fmt"
	"slices"

	"github.com/flybench/flybench/pkg/ndjson"
)

// duetPairs describes case c's pairs with the reference in a duet run:
// its CPUs, and the median over the pairs of the smaller overlap of the
// two sides; nil for a run that was not a duet.
func (d *runData) duetPairs(c int) *ndjson.DuetPairs {
	cfg := d.run.Config.Duet
	if cfg == nil {
		return nil
	}
	ref := d.refByUnit()
	var shares []float64
	for _, p := range d.cases[c] {
		r, ok := ref(int(p.unit))
		if !ok || p.overlap < 0 || r.overlap < 0 {
			continue
		}
		shares = append(shares, float64(min(p.overlap, r.overlap)))
	}
	out := &ndjson.DuetPairs{CPUs: cfg.CPUs, SMTSiblings: cfg.SMTSiblings}
	if len(shares) > 0 {
		slices.Sort(shares)
		n := len(shares)
		out.OverlapMedian = (shares[(n-1)/2] + shares[n/2]) / 2
	}
	return out
}

// duetOverlapFloor is the median overlap below which a duet comparison is
// warned about: where one side runs alone for more than a fifth of its
// batch, the comparison mixes co-run and solo time. (Identical programs
// on a loaded two-CPU machine overlapped for a median 87%.)
const duetOverlapFloor = 0.8

// duetWarning says when the sides of a duet's pairs did not run together
// for most of their batches.
func duetWarning(dp *ndjson.DuetPairs) string {
	if dp == nil || dp.OverlapMedian >= duetOverlapFloor {
		return ""
	}
	return fmt.Sprintf("duet: the two sides of a pair overlapped for a median %.0f%% of their batches; for the rest one ran alone, so each side's time mixes running next to the other and running alone (sides of different lengths, or noise that stretched one side: compare very different sides in adjacent pairs)", 100*dp.OverlapMedian)
}
