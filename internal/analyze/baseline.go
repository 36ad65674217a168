package analyze

import (
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/flybench/flybench/internal/axes"
	"github.com/flybench/flybench/pkg/ndjson"
	"github.com/flybench/flybench/pkg/stats"
)

// Baseline is an archived stream whose runs later runs are compared with,
// case by case by name, as independent samples: no pairs exist across
// two runs collected at different times.
type Baseline struct {
	File string
	runs []*runData
	// Allow names the fingerprint fields that may differ
	// (--allow-mismatch); any other difference refuses the comparison.
	Allow []string
}

// LoadBaseline reads every complete or cut-short run of a baseline stream.
func LoadBaseline(r *ndjson.Reader, file string, opt Options) (*Baseline, error) {
	b := &Baseline{File: file}
	a := newAnalyzer(r, ndjson.NewWriter(io.Discard), opt)
	a.onRun = func(d *runData, _ *ndjson.End) error {
		if d.run.Design == ndjson.DesignSequential {
			d.trimToCommonCount()
		}
		b.runs = append(b.runs, d)
		return nil
	}
	if err := a.loop(); err != nil {
		return nil, err
	}
	if len(b.runs) == 0 {
		return nil, fmt.Errorf("baseline %s holds no run record: give an archived fb-sample, fb-pair or fb-import stream", file)
	}
	return b, nil
}

// MismatchError refuses a baseline comparison whose fingerprints differ in
// fields the user did not allow.
type MismatchError struct {
	File       string
	RunID      string
	Mismatches []ndjson.Mismatch
}

func (e *MismatchError) Error() string {
	parts := make([]string, len(e.Mismatches))
	for i, m := range e.Mismatches {
		parts[i] = fmt.Sprintf("%s (%q in the baseline, %q now)", m.Field, m.Baseline, m.Current)
	}
	return fmt.Sprintf("baseline %s: run %s was collected under another fingerprint: %s", e.File, e.RunID, strings.Join(parts, ", "))
}

// Fields are the names of the mismatches, for the hint.
func (e *MismatchError) Fields() []string {
	out := make([]string, len(e.Mismatches))
	for i, m := range e.Mismatches {
		out[i] = m.Field
	}
	return out
}

// match is the baseline run a current run is compared with: the last one
// with exactly its case names, else the only one sharing any case name.
func (b *Baseline) match(cur *runData) (*runData, error) {
	names := measuredNames(cur)
	var same, sharing []*runData
	for _, r := range b.runs {
		other := measuredNames(r)
		if slices.Equal(sorted(names), sorted(other)) {
			same = append(same, r)
		} else if slices.ContainsFunc(names, func(n string) bool { return slices.Contains(other, n) }) {
			sharing = append(sharing, r)
		}
	}
	switch {
	case len(same) > 0:
		return same[len(same)-1], nil
	case len(sharing) == 1:
		return sharing[0], nil
	case len(sharing) > 1:
		return nil, fmt.Errorf("baseline %s: %d runs share case names with run %s and none has exactly its cases (%s); give a baseline with one such run", b.File, len(sharing), cur.run.RunID, strings.Join(names, ", "))
	}
	return nil, fmt.Errorf("baseline %s: no run has a case named %s (run %s); cases are matched by name", b.File, strings.Join(quoteAll(names), " or "), cur.run.RunID)
}

// measuredNames are a run's case names, the reference workload excluded.
func measuredNames(d *runData) []string {
	var out []string
	for i, c := range d.run.Cases {
		if c.Role != ndjson.RoleReferenceWorkload {
			out = append(out, d.name(i))
		}
	}
	return out
}

func sorted(s []string) []string {
	out := slices.Clone(s)
	slices.Sort(out)
	return out
}

func quoteAll(s []string) []string {
	out := make([]string, len(s))
	for i, v := range s {
		out[i] = fmt.Sprintf("%q", v)
	}
	return out
}

// compare compares every measured case of cur with the baseline case of
// the same name. It returns the analysis head's baseline facts, the
// comparisons and warnings about cases that only one side has.
func (b *Baseline) compare(cur *runData, opt Options) (*ndjson.Baseline, []*ndjson.Comparison, []string, error) {
	base, err := b.match(cur)
	if err != nil {
		return nil, nil, nil, err
	}
	allowed, refused := fingerprintDiff(base.run, cur.run, b.Allow)
	if len(refused) > 0 {
		return nil, nil, nil, &MismatchError{File: b.File, RunID: base.run.RunID, Mismatches: refused}
	}
	info := &ndjson.Baseline{
		RunID: base.run.RunID, File: b.File, Started: base.run.Started, Source: base.run.Source,
		Normalized: referenceCase(base.run) >= 0 && referenceCase(cur.run) >= 0, Allowed: allowed,
	}
	var out []*ndjson.Comparison
	var warnings []string
	for c := range cur.run.Cases {
		if cur.run.Cases[c].Role == ndjson.RoleReferenceWorkload {
			continue
		}
		bc := caseNamed(base, cur.name(c))
		if bc < 0 {
			warnings = append(warnings, fmt.Sprintf("case %q has no baseline in %s: not compared", cur.name(c), b.File))
			continue
		}
		k, err := baselineComparison(base, bc, cur, c, info.Normalized, opt)
		if err != nil {
			warnings = append(warnings, fmt.Sprintf("case %q against the baseline: %v", cur.name(c), err))
			continue
		}
		out = append(out, k)
	}
	for _, name := range measuredNames(base) {
		if caseNamed(cur, name) < 0 {
			warnings = append(warnings, fmt.Sprintf("baseline case %q is not in this run", name))
		}
	}
	return info, out, warnings, nil
}

func caseNamed(d *runData, name string) int {
	for i, c := range d.run.Cases {
		if c.Role != ndjson.RoleReferenceWorkload && d.name(i) == name {
			return i
		}
	}
	return -1
}

// baselineComparison compares case c of cur with case bc of base. With
// normalized set, each side's values are its per-unit scores (the case's
// time over the reference workload's in the same unit, normalizedOps), so that a
// machine's speed cancels; otherwise its times per operation.
func baselineComparison(base *runData, bc int, cur *runData, c int, normalized bool, opt Options) (*ndjson.Comparison, error) {
	ref, con := base.ops(bc), cur.ops(c)
	if normalized {
		var err error
		if ref, err = base.normalizedOps(bc); err != nil {
			return nil, fmt.Errorf("baseline: %w", err)
		}
		if con, err = cur.normalizedOps(c); err != nil {
			return nil, err
		}
	}
	stream := "baseline/" + cur.name(c)
	p, err := stats.CompareIndependent(ref, con, opt.bootstrap(), opt.ThresholdPct, stream)
	if err != nil {
		return nil, err
	}
	rec := &ndjson.Comparison{
		RunID: cur.run.RunID, Reference: bc, Contender: c, ReferenceName: base.name(bc), ContenderName: cur.name(c),
		Design: ndjson.DesignIndependent, Batching: cur.run.Batching, Pairs: p.N,
		GeoSpeedup: p.GeoSpeedup, MedianSpeedup: p.MedianSpeedup, SpeedupCI: [2]float64{p.SpeedupLo, p.SpeedupHi},
		ChangePct: p.ChangePct, ChangeCI: [2]float64{p.ChangeLo, p.ChangeHi}, MeanDiffNS: p.MeanDiff,
		ConfidencePct: opt.Confidence, ThresholdPct: opt.ThresholdPct, Verdict: ndjson.Verdict(p.Verdict.String()),
		BlockLen: p.BlockLen, Normalized: normalized,
	}
	if !normalized {
		rec.Process = processIndependent(base, bc, cur, c, opt)
	}
	if normalized {
		rec.MeanDiffNS = 0 // a difference of scores is not a time
	}
	{ // wall time first, always: it carries the two sides' medians
		wall := comparisonHead(wallInfo(cur.run))
		wall.Available, wall.Status = true, string(axes.Collected)
		if normalized {
			wall.Unit = "score"
		}
		wall.Result = &ndjson.AxisResult{
			Method: stats.RelativeRatio.String(), N: p.N, RefMedian: stats.Median(ref), ConMedian: stats.Median(con),
			Change: p.ChangePct, CI: [2]float64{p.ChangeLo, p.ChangeHi}, BlockLen: p.BlockLen, Verdict: wallVerdict(p.Verdict),
		}
		rec.Axes = append([]ndjson.AxisComparison{wall}, baselineAxes(base, bc, cur, c, opt)...)
	}
	return rec, nil
}

// baselineAxes compares every extra axis the two runs share by name, each
// side resampled on its own; an axis only one run has is not compared.
func baselineAxes(base *runData, bc int, cur *runData, c int, opt Options) []ndjson.AxisComparison {
	var out []ndjson.AxisComparison
	for i, info := range cur.extra {
		j := slices.IndexFunc(base.extra, func(a ndjson.AxisInfo) bool { return a.Name == info.Name })
		if j < 0 {
			continue
		}
		cmp := comparisonHead(info)
		if st, reason := base.status(bc, j, base.extra[j]); st != axes.Collected {
			cmp.Status, cmp.Reason = string(st), "baseline: "+orText(reason, st)
			out = append(out, cmp)
			continue
		}
		if st, reason := cur.status(c, i, info); st != axes.Collected {
			cmp.Status, cmp.Reason = string(st), orText(reason, st)
			out = append(out, cmp)
			continue
		}
		ref, _ := base.column(bc, j)
		con, _ := cur.column(c, i)
		res, err := stats.CompareAxisIndependent(ref, con, direction(info.Direction), opt.bootstrap(), opt.ThresholdPct, "baseline/axis/"+info.Name+"/"+cur.name(c))
		if err != nil {
			cmp.Status, cmp.Reason = string(axes.ProbeFailed), err.Error()
			out = append(out, cmp)
			continue
		}
		cmp.Available, cmp.Status = true, string(axes.Collected)
		cmp.Result = &ndjson.AxisResult{
			Method: res.Method.String(), N: res.N, RefMedian: res.RefMedian, ConMedian: res.ConMedian,
			Change: res.Change, CI: [2]float64{res.Lo, res.Hi}, BlockLen: res.BlockLen, Verdict: res.Verdict.String(),
		}
		out = append(out, cmp)
	}
	return out
}

// BaselineError is a run that cannot be compared with the baseline: no
// baseline run matches it, or (a *MismatchError) the fingerprints differ.
type BaselineError struct{ Err error }

func (e *BaselineError) Error() string { return e.Err.Error() }
func (e *BaselineError) Unwrap() error { return e.Err }

// addBaseline appends the baseline comparisons of d to its held analysis,
// or keeps the reason they cannot be made.
func (a *analyzer) addBaseline(d *runData) {
	info, comps, warnings, err := a.opt.Baseline.compare(d, a.opt)
	if err != nil {
		if a.baselineErr == nil {
			a.baselineErr = &BaselineError{Err: err}
		}
		return
	}
	head := a.held[0].(*ndjson.Analysis)
	head.Baseline = info
	head.Warnings = append(head.Warnings, warnings...)
	for _, k := range comps {
		a.held = append(a.held, k)
	}
}
