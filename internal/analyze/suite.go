package analyze

import (
	"fmt"

	"github.com/flybench/flybench/pkg/ndjson"
	"github.com/flybench/flybench/pkg/stats"
)

// SuiteBuilder gathers the time comparisons of every run of one analysis,
// across all its input files, for the suite record written after them:
// every contender against its run's reference except reference-workload
// cases. A nil *SuiteBuilder gathers nothing.
type SuiteBuilder struct {
	groups   []stats.SuiteGroup
	members  []ndjson.SuiteMember
	warnings []string
}

// NewSuiteBuilder returns an empty builder.
func NewSuiteBuilder() *SuiteBuilder { return &SuiteBuilder{} }

// add takes the members of one analysed run: its comparisons in recs, its
// samples in d.
func (s *SuiteBuilder) add(d *runData, recs []ndjson.Record) {
	if s == nil || inAASeries(d) {
		return
	}
	byContender := map[int]*ndjson.Comparison{}
	for _, rec := range recs {
		if k, ok := rec.(*ndjson.Comparison); ok && k.Reference == 0 {
			byContender[k.Contender] = k
		}
	}
	var cs []int
	var members []ndjson.SuiteMember
	for c := 1; c < len(d.cases); c++ {
		if d.run.Cases[c].Role == ndjson.RoleReferenceWorkload {
			continue
		}
		k := byContender[c]
		if why := s.excluded(k); why != "" {
			s.warnings = append(s.warnings, fmt.Sprintf("run %s: %s vs %s left out of the suite: %s", shortRunID(d.run.RunID), d.name(0), d.name(c), why))
			continue
		}
		cs = append(cs, c)
		members = append(members, ndjson.SuiteMember{RunID: d.run.RunID, Contender: c,
			Name: d.name(0) + " vs " + d.name(c), Design: k.Design})
	}
	if len(cs) == 0 {
		return
	}
	g := d.suiteGroup(cs, fmt.Sprintf("%d/%s", len(s.groups), d.run.RunID))
	if len(g.Ref) < 2 {
		s.warnings = append(s.warnings, fmt.Sprintf("run %s left out of the suite: its contenders share %d units, fewer than 2", shortRunID(d.run.RunID), len(g.Ref)))
		return
	}
	for j := range members {
		members[j].Pairs = len(g.Con[j])
	}
	s.groups, s.members = append(s.groups, g), append(s.members, members...)
}

// excluded says why a comparison cannot be a member, or "".
func (s *SuiteBuilder) excluded(k *ndjson.Comparison) string {
	switch {
	case k == nil:
		return "not compared"
	case k.Design == ndjson.DesignIndependent:
		return "compared with an archived baseline, whose samples this analysis does not hold"
	}
	return ""
}

// suiteGroup is the samples of contenders cs and the reference: for
// paired and round designs the units every one of them has, in the first
// contender's order (a two-case run's are exactly its comparison's
// pairs); for sequential blocks each side whole.
func (d *runData) suiteGroup(cs []int, label string) stats.SuiteGroup {
	g := stats.SuiteGroup{Label: label, Con: make([][]float64, len(cs))}
	if d.run.Design == ndjson.DesignSequential {
		g.Ref = d.ops(0)
		for j, c := range cs {
			g.Con[j] = d.ops(c)
		}
		return g
	}
	g.Paired = true
	ref := d.refByUnit()
	byUnit := make([]map[int32]float64, len(cs))
	for j, c := range cs[1:] {
		byUnit[j+1] = make(map[int32]float64, len(d.cases[c]))
		for _, p := range d.cases[c] {
			byUnit[j+1][p.unit] = p.op
		}
	}
	for _, p := range d.cases[cs[0]] {
		r, ok := ref(int(p.unit))
		if !ok || !everyHas(byUnit[1:], p.unit) {
			continue
		}
		g.Ref = append(g.Ref, r.op)
		g.Con[0] = append(g.Con[0], p.op)
		for j := 1; j < len(cs); j++ {
			g.Con[j] = append(g.Con[j], byUnit[j][p.unit])
		}
	}
	return g
}

func everyHas(maps []map[int32]float64, unit int32) bool {
	for _, m := range maps {
		if _, ok := m[unit]; !ok {
			return false
		}
	}
	return true
}

// Record returns the suite record of everything added, or nil when there
// are fewer than two members (a single comparison is its own summary),
// or an error when the members cannot be compared. The interval is at
// opt.Confidence: the suite is one claim of its own.
func (s *SuiteBuilder) Record(opt Options) (*ndjson.Suite, error) {
	if s == nil || len(s.members) < 2 || opt.legacy() {
		return nil, nil
	}
	b := opt.bootstrap()
	r, err := stats.CompareSuite(s.groups, b, opt.ThresholdPct)
	if err != nil {
		return nil, fmt.Errorf("suite: %w", err)
	}
	rec := &ndjson.Suite{Members: s.members,
		GeoSpeedup: r.Speedup, SpeedupCI: [2]float64{r.SpeedupLo, r.SpeedupHi},
		ChangePct: r.ChangePct, ChangeCI: [2]float64{r.ChangeLo, r.ChangeHi},
		ConfidencePct: opt.Confidence, ThresholdPct: opt.ThresholdPct, Verdict: ndjson.Verdict(r.Verdict.String()),
		Method: stats.SuiteMethod, Warnings: s.warnings}
	for j := range rec.Members {
		rec.Members[j].Speedup = r.Members[j]
	}
	return rec, nil
}

// WriteSuite writes the suite record of everything s gathered, when there
// is one, and flushes w.
func WriteSuite(w *ndjson.Writer, s *SuiteBuilder, opt Options) error {
	rec, err := s.Record(opt)
	if err == nil && rec != nil {
		err = w.Write(rec)
	}
	if ferr := w.Flush(); err == nil {
		err = ferr
	}
	return err
}

// shortRunID is the first eight characters of a run id.
func shortRunID(id string) string {
	if len(id) > 8 {
		return id[:8]
	}
	return id
}
