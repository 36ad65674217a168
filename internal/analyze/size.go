package analyze

import (
	"errors"
	"fmt"
	"math"
	"slices"

	"github.com/flybench/flybench/internal/field"
	"github.com/flybench/flybench/pkg/ndjson"
	"github.com/flybench/flybench/pkg/stats"
)

// sizeTolerance is how far apart two sides' sizes may be and still count
// as one workload: 1%, what calibrating two identical programs apart gives.
const sizeTolerance = 0.01

// sizedPairs are the pairs of a comparison with the sizes each side ran.
type sizedPairs struct {
	refN, conN   []int64
	refOp, conOp []float64
}

// sizedPairs joins case c's samples with the reference samples of the
// same unit, keeping both sides' sizes.
func (d *runData) sizedPairs(c int) sizedPairs {
	ref := d.refByUnit()
	var p sizedPairs
	for _, s := range d.cases[c] {
		r, ok := ref(int(s.unit))
		if !ok {
			continue
		}
		p.refN, p.conN = append(p.refN, r.iter), append(p.conN, s.iter)
		p.refOp, p.conOp = append(p.refOp, r.op), append(p.conOp, s.op)
	}
	return p
}

// sizeDiagnostic is comparison c's batch-size diagnostic, or nil when it
// has no pairs.
func (d *runData) sizeDiagnostic(c int, confidence float64) *ndjson.Sizes {
	p := d.sizedPairs(c)
	if len(p.refN) == 0 {
		return nil
	}
	z := &ndjson.Sizes{Status: ndjson.SizesFixed, EqualInPairs: slices.Equal(p.refN, p.conN),
		Median: [2]int64{medianSize(p.refN), medianSize(p.conN)}, Ratio: sizeRatio(p)}
	z.Range = sizeRange(p.refN, p.conN)
	if varied(p.refN) || varied(p.conN) {
		z.Status = ndjson.SizesVaried
	}
	z.Reference = sizeSlope(p.refN, p.refOp, confidence)
	z.Contender = sizeSlope(p.conN, p.conOp, confidence)
	if z.EqualInPairs {
		z.Pooled = sizeSlope(p.refN, pairwise(p, func(r, c float64) float64 { return math.Sqrt(r * c) }), confidence)
		z.Change = sizeSlope(p.refN, pairwise(p, func(r, c float64) float64 { return c / r }), confidence)
		z.SizeSlope = z.Pooled
		return z
	}
	z.SizeSlope = z.Contender
	if z.Contender != nil && sizesDiffer(z) {
		d := math.Log2(z.Ratio)
		bias := func(pct float64) float64 { return 100 * math.Expm1(math.Log1p(pct/100)*d) }
		b, lo, hi := bias(z.Contender.PerDoublingPct), bias(z.Contender.CI[0]), bias(z.Contender.CI[1])
		z.BiasPct, z.BiasCI = &b, &[2]float64{min(lo, hi), max(lo, hi)}
	}
	return z
}

// caseSizeSlope is how one case's time per operation depends on its
// batch size, over its samples in stream order.
func caseSizeSlope(pts []point, confidence float64) *ndjson.SizeSlope {
	sizes, times := make([]int64, len(pts)), make([]float64, len(pts))
	for i, p := range pts {
		sizes[i], times[i] = p.iter, p.op
	}
	return sizeSlope(sizes, times, confidence)
}

// sizeSlope is stats.SizeDependence as a record, nil when the size did
// not vary.
func sizeSlope(sizes []int64, times []float64, confidence float64) *ndjson.SizeSlope {
	s, err := stats.SizeDependence(sizes, times, confidence)
	if errors.Is(err, stats.ErrSizeNotVaried) || err != nil {
		return nil
	}
	return &ndjson.SizeSlope{PerDoublingPct: s.PerDoublingPct, CI: [2]float64{s.Lo, s.Hi}, Significant: s.Significant(), Samples: s.N}
}

func pairwise(p sizedPairs, f func(r, c float64) float64) []float64 {
	out := make([]float64, len(p.refOp))
	for i := range out {
		out[i] = f(p.refOp[i], p.conOp[i])
	}
	return out
}

// sizeRatio is the median over the pairs of contender size / reference size.
func sizeRatio(p sizedPairs) float64 {
	r := make([]float64, len(p.refN))
	for i := range r {
		r[i] = float64(p.conN[i]) / float64(max(p.refN[i], 1))
	}
	return stats.Median(r)
}

// sizesDiffer reports whether the sides ran different workloads: sizes
// more than sizeTolerance apart in the median pair.
func sizesDiffer(z *ndjson.Sizes) bool {
	return !z.EqualInPairs && math.Abs(math.Log(z.Ratio)) > math.Log1p(sizeTolerance)
}

func medianSize(n []int64) int64 {
	f := make([]float64, len(n))
	for i, v := range n {
		f[i] = float64(v)
	}
	return int64(math.Round(stats.Median(f)))
}

func sizeRange(a, b []int64) [2]int64 {
	all := slices.Concat(a, b)
	return [2]int64{slices.Min(all), slices.Max(all)}
}

func varied(n []int64) bool { return slices.Min(n) != slices.Max(n) }

// sizeWarnings say when the sides ran different workloads, when most of
// a batch's time is a cost per batch, and when the comparison itself
// depends on the size both ran.
func sizeWarnings(z *ndjson.Sizes, names field.Names) []string {
	if z == nil {
		return nil
	}
	if w := perBatchWarning(z.Pooled, names); w != "" {
		return append([]string{w}, differenceWarnings(z, names)...)
	}
	return differenceWarnings(z, names)
}

// perBatchShare is the least share of a batch's time, in percent, that is
// a cost per batch before perBatchWarning speaks: a time per operation
// F/N + W falls by half that share per doubling of N.
const perBatchShare = 50

// perBatchWarning says when the time per operation falls so steeply with
// the batch size that most of a batch's time is a cost per batch (a
// process start, a request's round trip), which dilutes any difference.
func perBatchWarning(s *ndjson.SizeSlope, names field.Names) string {
	if s == nil || !s.Significant || -2*s.PerDoublingPct < perBatchShare {
		return ""
	}
	return fmt.Sprintf("the time per operation falls %.1f%% per doubling of the batch: about %.0f%% of a batch's time is a cost per batch that does not grow with its size (a process start, a request's round trip), and it dilutes any difference between the sides as much; longer batches (%s) or a timer of the work alone (a batch's own elapsed time on fd 3, man fb-worker(7)) would show the work",
		-s.PerDoublingPct, min(-2*s.PerDoublingPct, 100), names.Spell(pairMinSample))
}

// differenceWarnings are the warnings about the sides' sizes and the
// change's dependence on them.
func differenceWarnings(z *ndjson.Sizes, names field.Names) []string {
	shared := names.Spell(pairBatching) + " shared"
	switch {
	case sizesDiffer(z) && z.Status == ndjson.SizesFixed:
		return []string{fmt.Sprintf("the sides ran different batch sizes (%s and %s operations), each fixed for the run: whether the time per operation depends on the batch size cannot be told from this run, and the estimate assumes it does not; collect with %s (the default) so both sides run one workload",
			opsText(z.Median[0]), opsText(z.Median[1]), shared)}
	case sizesDiffer(z) && z.BiasPct != nil:
		return []string{fmt.Sprintf("the sides ran different batch sizes (median %s and %s operations) and the contender's time per operation changes %s per doubling of the batch %s: %s %s of the change may come from the sizes, not the code; collect with %s (the default) so both sides run one workload",
			opsText(z.Median[0]), opsText(z.Median[1]), signedPct(z.Contender.PerDoublingPct), pctInterval(z.Contender.CI), signedPct(*z.BiasPct), pctInterval(*z.BiasCI), shared)}
	case sizesDiffer(z):
		return []string{fmt.Sprintf("the sides ran different batch sizes (median %s and %s operations): if the time per operation depends on the batch size, part of the change comes from the sizes; collect with %s (the default) so both sides run one workload",
			opsText(z.Median[0]), opsText(z.Median[1]), shared)}
	case z.Change != nil && z.Change.Significant:
		return []string{fmt.Sprintf("the change itself depends on the batch size: the contender's time relative to the reference's changes %s per doubling of the batch %s, so the estimate holds for batches of %s to %s operations (a cost per batch the sides share, such as a process start, weighs more in small batches)",
			signedPct(z.Change.PerDoublingPct), pctInterval(z.Change.CI), opsText(z.Range[0]), opsText(z.Range[1]))}
	}
	return nil
}

func opsText(n int64) string { return fmt.Sprintf("%d", n) }

func signedPct(v float64) string { return fmt.Sprintf("%+.2f%%", v) }

func pctInterval(ci [2]float64) string { return fmt.Sprintf("[%+.2f, %+.2f]", ci[0], ci[1]) }
