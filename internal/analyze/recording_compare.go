package analyze

import (
	"fmt"

	"github.com/flybench/flybench/pkg/ndjson"
	"github.com/flybench/flybench/pkg/stats"
)

// SpanComparer gathers the benchmarks of every recording of one analysis,
// across all its input files, for the span comparisons written after
// them: each benchmark of the first recording compared, by name, with the
// same benchmark of each later recording. The two recordings are
// separately observed distributions, so each side is resampled on its
// own (ComparisonDesign "independent"), never as pairs. A nil
// *SpanComparer gathers nothing.
type SpanComparer struct {
	recordings [][]*spanSide
}

// NewSpanComparer returns an empty comparer.
func NewSpanComparer() *SpanComparer { return &SpanComparer{} }

func (c *SpanComparer) add(sides []*spanSide) {
	if c != nil {
		c.recordings = append(c.recordings, sides)
	}
}

// Records are the span comparisons: for every later recording, in input
// order, the first recording's benchmarks it shares, in the first
// recording's order.
func (c *SpanComparer) Records(opt Options) []*ndjson.SpanComparison {
	if c == nil || len(c.recordings) < 2 {
		return nil
	}
	var out []*ndjson.SpanComparison
	for _, con := range c.recordings[1:] {
		byName := map[string]*spanSide{}
		for _, s := range con {
			byName[s.name] = s
		}
		for _, ref := range c.recordings[0] {
			if s := byName[ref.name]; s != nil {
				out = append(out, compareSpans(ref, s, opt))
			}
		}
	}
	return out
}

// WriteSpanComparisons writes c's comparisons to w.
func WriteSpanComparisons(w *ndjson.Writer, c *SpanComparer, opt Options) error {
	for _, k := range c.Records(opt) {
		if err := w.Write(k); err != nil {
			return err
		}
	}
	return w.Flush()
}

// Verdicts of a compared percentile without a change.
const (
	VerdictUnavailable  = ndjson.VerdictUnavailable
	VerdictInsufficient = ndjson.VerdictInsufficient
)

// compareSpans compares one benchmark of two recordings, percentile by
// percentile: the contender's change relative to the reference in
// percent, its interval from the two sides' independent replicates
// (replicate i of one side against replicate i of the other, each drawn
// from its own random stream), and the verdict against the threshold.
func compareSpans(ref, con *spanSide, opt Options) *ndjson.SpanComparison {
	k := &ndjson.SpanComparison{ReferenceRun: ref.run, ContenderRun: con.run, Name: ref.name,
		ComparisonDesign: ndjson.DesignIndependent, Outcome: opt.outcome(),
		ConfidencePct: opt.Confidence, ThresholdPct: opt.ThresholdPct}
	k.WallAvailable = ref.complete() && con.complete()
	if !ref.complete() {
		k.Warnings = append(k.Warnings, ref.incompleteWarning("reference"))
	}
	if !con.complete() {
		k.Warnings = append(k.Warnings, con.incompleteWarning("contender"))
	}
	for i, p := range ComparedPercentiles {
		k.Changes = append(k.Changes, percentileChange(ref, con, i, p, k.WallAvailable, opt))
	}
	return k
}

// complete reports whether every summarized span has a wall time.
func (s *spanSide) complete() bool { return s.n > 0 && s.missing == 0 }

func (s *spanSide) incompleteWarning(side string) string {
	if s.n == 0 {
		return fmt.Sprintf("the %s recording %s has no spans of %q to compare", side, shortRunID(s.run), s.name)
	}
	return fmt.Sprintf("wall time is incomplete in the %s recording %s: %d of %d spans of %q have no wall_ns; no change is given", side, shortRunID(s.run), s.missing, s.n, s.name)
}

// percentileChange is the change of percentile p (index i of
// ComparedPercentiles).
func percentileChange(ref, con *spanSide, i int, p float64, wall bool, opt Options) ndjson.PercentileChange {
	pc := ndjson.PercentileChange{P: p, Verdict: VerdictUnavailable}
	if !wall {
		return pc
	}
	if !enoughSpans(len(ref.sorted), p) || !enoughSpans(len(con.sorted), p) {
		pc.Verdict = VerdictInsufficient
		return pc
	}
	r, c := stats.Percentile(ref.sorted, p), stats.Percentile(con.sorted, p)
	if r <= 0 {
		return pc // no relative change from a zero reference
	}
	change := 100 * (c/r - 1)
	reps := make([]float64, 0, len(ref.reps[i]))
	for j := range ref.reps[i] {
		if ref.reps[i][j] > 0 {
			reps = append(reps, 100*(con.reps[i][j]/ref.reps[i][j]-1))
		}
	}
	ci := percentileInterval(reps, opt.Confidence)
	pc.ChangePct, pc.CI = &change, &ci
	pc.Verdict = ndjson.Verdict(stats.Classify(ci[0], ci[1], opt.ThresholdPct).String())
	return pc
}
