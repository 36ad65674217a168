package analyze

import (
	"fmt"
	"math"

	"github.com/flybench/flybench/pkg/ndjson"
)

// referenceCase is the index of the run's reference workload (the case
// with ndjson.RoleReferenceWorkload), or -1 when it has none.
func referenceCase(run ndjson.Run) int {
	for i, c := range run.Cases {
		if c.Role == ndjson.RoleReferenceWorkload {
			return i
		}
	}
	return -1
}

// checkRoles refuses a run whose case 0 is the reference workload (it
// is the reference of every comparison, a measured case) or that has
// more than one.
func checkRoles(cases []ndjson.Case) error {
	n := 0
	for i, c := range cases {
		switch {
		case c.Role == "":
			continue
		case c.Role != ndjson.RoleReferenceWorkload:
			return fmt.Errorf("case %d has the unknown role %q", i, c.Role)
		case i == 0:
			return fmt.Errorf("case 0 is the reference of every comparison and cannot be the reference workload")
		}
		n++
	}
	if n > 1 {
		return fmt.Errorf("%d cases have the role %s: a run has at most one", n, ndjson.RoleReferenceWorkload)
	}
	return nil
}

// compared reports whether case c is compared with case 0: every case
// after the first but the reference workload, which is a yardstick, not
// a contender.
func (d *runData) compared(c int) bool {
	return c > 0 && d.run.Cases[c].Role != ndjson.RoleReferenceWorkload
}

// measured is the number of cases that are not the reference workload.
func (d *runData) measured() int {
	if referenceCase(d.run) >= 0 {
		return len(d.cases) - 1
	}
	return len(d.cases)
}

// normalize gives every summary but the reference workload's its score
// in reference units (Score). Nothing changes without a reference
// workload or when it has no summary.
func normalize(summaries []*ndjson.Summary, ref int) {
	if ref < 0 || ref >= len(summaries) || summaries[ref] == nil {
		return
	}
	for c, s := range summaries {
		if c != ref && s != nil {
			s.Normalized = Score(s, summaries[ref], ref)
		}
	}
}

// Score is s's mean time per operation divided by the reference
// workload's (summary r of case ref). Its interval is score·(1 ∓ h), h
// the two means' relative half-widths combined in quadrature:
// sqrt(hs² + hr²), hs = (MeanCI[1] − MeanCI[0]) / (2·Mean); a ratio of
// times is never negative, so the lower end stops at 0 when h > 1. It
// is nil when either mean is not positive.
func Score(s, r *ndjson.Summary, ref int) *ndjson.Normalized {
	if !(s.Mean > 0) || !(r.Mean > 0) {
		return nil
	}
	score := s.Mean / r.Mean
	h := math.Hypot(relHalfWidth(s), relHalfWidth(r))
	return &ndjson.Normalized{ReferenceCase: ref, Score: score, CI: [2]float64{score * max(1-h, 0), score * (1 + h)}}
}

// relHalfWidth is the half-width of a summary's interval of the mean
// relative to the mean.
func relHalfWidth(s *ndjson.Summary) float64 {
	return (s.MeanCI[1] - s.MeanCI[0]) / (2 * s.Mean)
}

// NormalizedOps is case c's normalized series in a run: for each unit (a
// pair or a round) that holds a sample of c and one of the reference
// workload, c's time per operation divided by the reference's, in the
// order of c's samples. samples are the run's sample records. It is an
// error when the run has no reference workload, c is not a measured case,
// or no unit holds both (a --sequential run keeps each case in blocks of
// its own).
func NormalizedOps(run ndjson.Run, samples []ndjson.Sample, c int) ([]float64, error) {
	run.Axes = nil // only times are needed
	d := newRunData(run, nil)
	for _, s := range samples {
		if s.Case < 0 || s.Case >= len(run.Cases) {
			return nil, fmt.Errorf("sample for case %d, but the run has %d cases", s.Case, len(run.Cases))
		}
		if err := d.add(ndjson.Sample{Case: s.Case, Unit: s.Unit, Pos: s.Pos, Iter: s.Iter, WallNS: s.WallNS, OpNS: s.OpNS}); err != nil {
			return nil, err
		}
	}
	return d.normalizedOps(c)
}

// normalizedOps is NormalizedOps on the samples the analysis holds.
func (d *runData) normalizedOps(c int) ([]float64, error) {
	ref := referenceCase(d.run)
	switch {
	case ref < 0:
		return nil, fmt.Errorf("the run has no reference workload (fb-pair %s)", d.names.Spell(pairReference))
	case c < 0 || c >= len(d.cases) || c == ref:
		return nil, fmt.Errorf("case %d is not a measured case of the run (the reference workload is case %d)", c, ref)
	}
	at := make(map[int32]float64, len(d.cases[ref]))
	for _, p := range d.cases[ref] {
		at[p.unit] = p.op
	}
	out := make([]float64, 0, len(d.cases[c]))
	for _, p := range d.cases[c] {
		if r, ok := at[p.unit]; ok && r > 0 {
			out = append(out, p.op/r)
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("no unit holds samples of both %s and the reference workload %s", d.name(c), d.name(ref))
	}
	return out, nil
}
