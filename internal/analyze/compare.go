package analyze

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/stat/distuv"

	"github.com/flybench/flybench/internal/field"
	"github.com/flybench/flybench/pkg/ndjson"
	"github.com/flybench/flybench/pkg/stats"
)

// compare builds the comparison of case c against case 0. Paired and
// round designs compare samples of the same unit, which ran adjacently;
// a sequential design has no such pairs, so its blocks are compared as
// independent samples and labelled as exposed to drift.
func (d *runData) compare(c int, opt Options) (*ndjson.Comparison, error) {
	var (
		p   stats.Paired
		err error
	)
	stream := fmt.Sprintf("compare/0/%d", c)
	if d.run.Design == ndjson.DesignSequential {
		p, err = stats.CompareIndependent(d.ops(0), d.ops(c), opt.bootstrap(), opt.ThresholdPct, stream)
	} else {
		p, err = stats.ComparePaired(d.pairs(c), opt.bootstrap(), opt.ThresholdPct, stream)
	}
	if err != nil {
		return nil, err
	}
	rec := &ndjson.Comparison{
		RunID: d.run.RunID, Reference: 0, Contender: c, ReferenceName: d.name(0), ContenderName: d.name(c),
		Design: d.run.Design, Batching: d.run.Batching, Pairs: p.N,
		GeoSpeedup: p.GeoSpeedup, MedianSpeedup: p.MedianSpeedup, SpeedupCI: [2]float64{p.SpeedupLo, p.SpeedupHi},
		ChangePct: p.ChangePct, ChangeCI: [2]float64{p.ChangeLo, p.ChangeHi}, MeanDiffNS: p.MeanDiff,
		ConfidencePct: opt.Confidence, ThresholdPct: opt.ThresholdPct, Verdict: ndjson.Verdict(p.Verdict.String()),
		OrderEffectPct: p.OrderEffectPct, ReferenceFirst: p.RefFirst, ContenderFirst: p.ConFirst,
		Lag1: p.Lag1, BlockLen: p.BlockLen,
		ContenderWins: p.ContenderWins, ReferenceWins: p.ReferenceWins, Ties: p.Ties,
	}
	if p.Blocks > 0 {
		rec.Blocked = &ndjson.Blocked{Blocks: p.Blocks, Method: stats.ClusterMethod, WithinCI: [2]float64{p.WithinLo, p.WithinHi}}
	}
	if p.Estimator != stats.EstimatorLegacy {
		fillDecision(rec, p)
		rec.Throughput = d.throughputChange(c, rec)
		rec.Process = d.processLevel(c, opt)
		rec.ProcessViews = d.processViews(c, opt)
	}
	if p.Estimator != stats.EstimatorLegacy {
		rec.Sizes = d.sizeDiagnostic(c, opt.Confidence)
	}
	rec.Duet = d.duetPairs(c)
	rec.Warnings = d.comparisonWarnings(rec)
	for _, w := range []string{processWarning(rec), mcErrorWarning(rec.Process, d.names), duetWarning(rec.Duet)} {
		if w != "" {
			rec.Warnings = append(rec.Warnings, w)
		}
	}
	if len(d.run.Axes) > 0 {
		rec.Axes = d.axisComparisons(c, p, opt)
		rec.Warnings = append(rec.Warnings, d.exactWarnings(c)...)
	}
	return rec, nil
}

// fillDecision records the decision estimate beside the geometric mean:
// GeoSpeedup stays the geometric mean, the speedup, change, intervals and
// verdict are the decision estimate's.
func fillDecision(rec *ndjson.Comparison, p stats.Paired) {
	rec.Estimator, rec.Speedup = string(p.Estimator), p.Speedup
	rec.Geo = &ndjson.GeoMean{
		ChangePct: p.GeoChangePct, ChangeCI: [2]float64{p.GeoChangeLo, p.GeoChangeHi},
		SpeedupCI: [2]float64{p.GeoSpeedupLo, p.GeoSpeedupHi},
	}
	rec.Interval = &ndjson.IntervalChoice{Method: p.Method, EffectivePairs: p.EffectivePairs, Status: ndjson.IntervalOK}
	if w := p.Short; w != nil {
		rec.Interval.Short = &ndjson.ShortSeries{Lag1Bound: w.Lag1Bound, EffectivePairsBound: w.EffectiveBound, Widening: w.Factor}
	}
	f := p.Fit
	rec.Robust = &ndjson.RobustFit{
		Rejected: f.Rejected, ReferenceSlow: f.High, ContenderSlow: f.Low,
		ScalePct: 100 * f.Scale, LeaderPct: 100 * math.Expm1(f.Leader), Blocked: f.Blocked, Fallback: f.Fallback,
	}
}

// pairs joins case c's samples with the reference samples of the same
// unit. In a run whose samples name their process blocks, each pair is
// labelled with its block (and attempt), so that the comparison treats
// the block as the replicate.
func (d *runData) pairs(c int) stats.PairedInput {
	ref := d.refByUnit()
	n := min(len(d.cases[0]), len(d.cases[c]))
	in := stats.PairedInput{Ref: make([]float64, 0, n), Con: make([]float64, 0, n), RefFirst: make([]bool, 0, n)}
	labels := map[blockKey]int32{}
	for _, p := range d.cases[c] {
		r, ok := ref(int(p.unit))
		if !ok {
			continue
		}
		in.Ref = append(in.Ref, r.op)
		in.Con = append(in.Con, p.op)
		in.RefFirst = append(in.RefFirst, r.pos < p.pos)
		if p.block >= 0 {
			k := blockKey{p.block, p.attempt}
			if _, ok := labels[k]; !ok {
				labels[k] = int32(len(labels))
			}
			in.Block = append(in.Block, labels[k])
		}
	}
	if len(in.Block) != len(in.Ref) {
		in.Block = nil // blocks on some pairs only: not a blocked run
	}
	return in
}

// refByUnit indexes the reference samples by unit (a unit seen twice
// keeps its last sample). The units of a stream from fb-pair are dense
// small integers, so a slice does; sparse ones (any unit up to 2^31-1 is
// valid) take a map, so an odd stream cannot make it allocate gigabytes.
func (d *runData) refByUnit() func(unit int) (point, bool) {
	top := -1
	for _, p := range d.cases[0] {
		top = max(top, int(p.unit))
	}
	if top >= 4*len(d.cases[0])+1024 {
		return d.refByUnitSparse()
	}
	at := make([]int32, top+1)
	for i := range at {
		at[i] = -1
	}
	for i, p := range d.cases[0] {
		if p.unit >= 0 {
			at[p.unit] = int32(i)
		}
	}
	return func(unit int) (point, bool) {
		if unit < 0 || unit >= len(at) || at[unit] < 0 {
			return point{}, false
		}
		return d.cases[0][at[unit]], true
	}
}

func (d *runData) refByUnitSparse() func(unit int) (point, bool) {
	at := make(map[int32]int32, len(d.cases[0]))
	for i, p := range d.cases[0] {
		at[p.unit] = int32(i)
	}
	return func(unit int) (point, bool) {
		i, ok := at[int32(unit)]
		if !ok {
			return point{}, false
		}
		return d.cases[0][i], true
	}
}

func (d *runData) comparisonWarnings(c *ndjson.Comparison) []string {
	var w []string
	if c.Design == ndjson.DesignSequential {
		w = append(w, "sequential blocks are exposed to drift between cases; compared as independent samples, not pairs")
	}
	if c.Pairs < 10 {
		w = append(w, fmt.Sprintf("only %d pairs: the interval is fragile", c.Pairs))
	}
	if gap := c.ReferenceFirst - c.ContenderFirst; c.Design == ndjson.DesignPaired && (gap > 1 || gap < -1) {
		w = append(w, fmt.Sprintf("order counts unbalanced (%d reference-first, %d contender-first): the run stopped early", c.ReferenceFirst, c.ContenderFirst))
	}
	if text := linkWarning(d.run.Cases[c.Reference], d.run.Cases[c.Contender]); text != "" {
		w = append(w, text)
	}
	if text := cacheWarning(d.run.Config.PageCache, d.run.Cases[c.Reference], d.run.Cases[c.Contender], d.names); text != "" {
		w = append(w, text)
	}
	w = append(w, sizeWarnings(c.Sizes, d.names)...)
	return append(w, decisionWarnings(c, d.names)...)
}

// linkWarning says when one case starts its program through a symbolic
// link and the other starts a file by its own name: a program can run
// differently by the name it is started with, so the two are not the
// same run even when the files are copies. Empty when the run did not
// record the programs, or both start them the same way.
func linkWarning(ref, con ndjson.Case) string {
	if ref.Program == nil || con.Program == nil || (ref.Program.Link == "") == (con.Program.Link == "") {
		return ""
	}
	linked, named := ref, con
	if ref.Program.Link == "" {
		linked, named = con, ref
	}
	return fmt.Sprintf("%q starts %s, a symbolic link to %s, and %q starts %s by its own name: a program can run differently by the name it is started with (Python 3.11 resolves its link at start-up, and a json.dumps loop ran 2-3%% slower through /usr/bin/python3 than a copy of its target with the layout fixed); start both the same way (fb-pair(1), LAYOUT BIAS)",
		linked.Name, linked.Program.Path, linked.Program.Link, named.Name, named.Program.Path)
}

// cacheWarning says when the two cases start different program files and
// the run left them in the page cache as it found them (its record says
// keep, or predates the drop): a file is held the way it got there, a
// copy as its writer made it, and two byte-identical programs ran apart
// for as long as both stayed cached. Empty when the run did not record
// the programs, both start one file, or the run dropped them.
func cacheWarning(pc *ndjson.PageCache, ref, con ndjson.Case, names field.Names) string {
	if ref.Program == nil || con.Program == nil || (pc != nil && pc.Policy != ndjson.PageCacheKeep) {
		return ""
	}
	a, b := programFile(ref.Program), programFile(con.Program)
	if a == b {
		return ""
	}
	return fmt.Sprintf("%q and %q start different files (%s and %s), left in the page cache as the run found them: a file is held the way it got there, a copy as cp wrote it, and a fresh copy of a program ran 1.0%% faster than its original while both stayed cached; collect with %s drop (the default on Linux) so both sides read their code back the same way (fb-pair(1), LAYOUT BIAS)",
		ref.Name, con.Name, a, b, names.Spell(pairPageCache))
}

// programFile is the file a case's program resolves to.
func programFile(p *ndjson.Program) string {
	if p.Link != "" {
		return p.Link
	}
	return p.Path
}

// decisionWarnings say when the decision estimate and the geometric mean
// tell different stories, and why that may be.
func decisionWarnings(c *ndjson.Comparison, names field.Names) []string {
	if c.Geo == nil || c.Robust == nil {
		return nil
	}
	var w []string
	r := c.Robust
	half := (c.ChangeCI[1] - c.ChangeCI[0]) / 2
	if math.Abs(c.Geo.ChangePct-c.ChangePct) > half {
		w = append(w, fmt.Sprintf("the %s estimate (%+.2f%%) and the geometric mean (%+.2f%%) differ by more than the interval's half-width (%.2f points): %d pairs were outliers the %s estimate did not weigh (%d with the reference slow, %d with the contender slow)",
			c.Estimator, c.ChangePct, c.Geo.ChangePct, half, r.Rejected, c.Estimator, r.ReferenceSlow, r.ContenderSlow))
	}
	if side, k := lopsided(r.ReferenceSlow, r.ContenderSlow); side != "" {
		w = append(w, fmt.Sprintf("%d of %d rejected pairs had the %s slow: interference would hit both sides alike, so these may be the %s's own slow runs (a collection, a page-fault storm); if they are part of what you compare, re-analyse with %s mean",
			k, r.Rejected, side, side, names.Spell(FieldEstimator)))
	}
	if r.Fallback {
		w = append(w, "more than a quarter of the pairs would have been rejected as outliers (tied or clustered values, or heavy interference): every pair kept full weight")
	}
	return w
}

// lopsided names the side that most rejected pairs slowed, when a fair
// coin would rarely split them so unevenly (two-sided binomial p < 0.01).
func lopsided(refSlow, conSlow int) (string, int) {
	n, k := refSlow+conSlow, max(refSlow, conSlow)
	if n < 6 || binomialTail(n, k) >= 0.005 {
		return "", 0
	}
	if refSlow > conSlow {
		return "reference", k
	}
	return "contender", k
}

// binomialTail is P(X >= k) for X ~ Binomial(n, 1/2). (A running
// product from 2^-n, summed, underflows to 0 beyond 1074 trials and would
// call every split of that many rejected pairs lopsided.)
func binomialTail(n, k int) float64 {
	if k <= 0 {
		return 1
	}
	return distuv.Binomial{N: float64(n), P: 0.5}.Survival(float64(k - 1))
}
