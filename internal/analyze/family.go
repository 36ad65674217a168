package analyze

import (
	"fmt"
	"math"

	"github.com/flybench/flybench/internal/axes"
	"github.com/flybench/flybench/internal/field"
	"github.com/flybench/flybench/pkg/ndjson"
	"github.com/flybench/flybench/pkg/stats"
)

// Multiplicity rules and family scopes (--multiplicity, --family).
const (
	MultiplicityBonferroni = ndjson.MultiplicityBonferroni
	MultiplicityNone       = ndjson.MultiplicityNone
	FamilyTime             = ndjson.FamilyTime
	FamilyAll              = ndjson.FamilyAll
)

// FamilyOptions say which comparisons of a run form a family and how
// their intervals share its error rate. The zero value is the default:
// Bonferroni over the time comparisons at the analysis's confidence.
type FamilyOptions struct {
	// Multiplicity is MultiplicityBonferroni ("" too) or MultiplicityNone.
	Multiplicity string
	// ConfidencePct is the family confidence; 0 means Options.Confidence.
	ConfidencePct float64
	// Scope is FamilyTime ("" too) or FamilyAll.
	Scope string
	// axisLevel, when set, is the level of axis comparisons outside the
	// family (levels sets it for one run's comparisons).
	axisLevel float64
}

func (f FamilyOptions) validate() error {
	switch {
	case f.Multiplicity != "" && f.Multiplicity != MultiplicityBonferroni && f.Multiplicity != MultiplicityNone:
		return field.Errorf(FieldMultiplicity, f.Multiplicity, "%s %q: use bonferroni or none", field.Name(FieldMultiplicity), f.Multiplicity)
	case f.Scope != "" && f.Scope != FamilyTime && f.Scope != FamilyAll:
		return field.Errorf(FieldFamily, f.Scope, "%s %q: use time or all", field.Name(FieldFamily), f.Scope)
	case f.ConfidencePct != 0 && !(f.ConfidencePct >= 50 && f.ConfidencePct <= 99.9):
		return field.Errorf(FieldFamilyConfidence, f.ConfidencePct, "%s %g out of range: use 50 to 99.9 (percent)", field.Name(FieldFamilyConfidence), f.ConfidencePct)
	}
	return nil
}

func (f FamilyOptions) scope() string {
	if f.Scope == "" {
		return FamilyTime
	}
	return f.Scope
}

// TimeComparisons is the number of time comparisons a run makes: every
// case against the reference, except reference-workload cases.
func TimeComparisons(run ndjson.Run) int {
	n := 0
	for _, c := range run.Cases {
		if c.Role != ndjson.RoleReferenceWorkload {
			n++
		}
	}
	return max(n-1, 0)
}

// verdictAxis reports whether an axis the run requested gets a
// better/worse verdict with an interval: its probe came up, it has a
// direction, and it is not compared exactly.
func verdictAxis(info ndjson.AxisInfo) bool {
	st := axes.Status(info.Status)
	return (st == axes.Collected || st == axes.PartiallyCollected) &&
		axes.Direction(info.Direction) != axes.Diagnostic && info.Comparison != ndjson.AxisMethodExact
}

// familySize is m: the time comparisons, and under scope "all" each
// contender's verdict axes too, all from the run record, before any
// outcome is seen.
func (d *runData) familySize(f FamilyOptions) int {
	t := TimeComparisons(d.run)
	if f.scope() != FamilyAll {
		return t
	}
	per := 1
	for _, info := range d.extra {
		if verdictAxis(info) {
			per++
		}
	}
	return t * per
}

// family is the run's multiplicity rule, or nil for a run with nothing
// to compare, and a warning when the Bonferroni level had to be capped.
func (d *runData) family(opt Options) (*ndjson.Family, string) {
	f := opt.Family
	m := d.familySize(f)
	if m == 0 {
		return nil, ""
	}
	fam := &ndjson.Family{Method: MultiplicityBonferroni, Scope: f.scope(), M: m,
		FamilyConfidencePct: opt.Confidence, PerComparisonPct: opt.Confidence}
	if f.Multiplicity == MultiplicityNone {
		fam.Method, fam.Exploratory = MultiplicityNone, true
		fam.FamilyConfidencePct = stats.FamilyConfidence(opt.Confidence, m)
		return fam, ""
	}
	if f.ConfidencePct != 0 {
		fam.FamilyConfidencePct = f.ConfidencePct
	}
	level, ok := stats.BonferroniConfidence(fam.FamilyConfidencePct, m)
	fam.PerComparisonPct = level
	if ok {
		return fam, ""
	}
	return fam, fmt.Sprintf("a family of %d comparisons at %g%% would need each interval at %.4g%%, beyond the %g%% the bootstrap resolves: each is at %g%%, so the family confidence is at least %g%%, not %g%%; use %s time or a lower %s",
		m, fam.FamilyConfidencePct, 100-(100-fam.FamilyConfidencePct)/float64(m), stats.MaxComparisonConfidence, level,
		stats.FamilyConfidence(level, m), fam.FamilyConfidencePct, opt.Names.Spell(FieldFamily), opt.Names.Spell(FieldFamilyConfidence))
}

// levels returns what sequential returns, with the family's level in
// place of the analysis's: under a decision rule the looks spend each
// comparison's share of the family's error rate. Axis comparisons outside
// the family keep the level a lone comparison would have. It also returns
// the family (nil under the legacy estimator, which reproduces analyses
// that had none) and warnings about it.
func (d *runData) levels(end *ndjson.End, opt Options) (*ndjson.Sequential, Options, *ndjson.Family, []string) {
	fam, capped := d.family(opt)
	if fam == nil || opt.legacy() {
		seq, copt := d.sequential(end, opt)
		return seq, copt, nil, nil
	}
	var warnings []string
	if capped != "" {
		warnings = append(warnings, capped)
	}
	fopt := opt
	fopt.Confidence = fam.PerComparisonPct
	seq, copt := d.sequential(end, fopt)
	if _, lone := d.sequential(end, opt); d.axesOutside(opt.Family) && lone.Confidence != copt.Confidence {
		copt.Family.axisLevel = lone.Confidence
		fam.AxisConfidencePct = lone.Confidence
	}
	if w := d.lookLevelWarning(copt.Confidence); w != "" && seq != nil && d.untilWarnings(opt) == nil {
		warnings = append(warnings, w)
	}
	return seq, copt, fam, warnings
}

// axesOutside reports whether the run compares an axis outside the family.
func (d *runData) axesOutside(f FamilyOptions) bool {
	for _, info := range d.extra {
		if f.scope() != FamilyAll || !verdictAxis(info) {
			return true
		}
	}
	return false
}

// forAxis is opt for the comparison of an axis: at the level of axes
// outside the family unless the axis is in it.
func (opt Options) forAxis(info ndjson.AxisInfo) Options {
	if opt.Family.axisLevel != 0 && !(opt.Family.scope() == FamilyAll && verdictAxis(info)) {
		opt.Confidence = opt.Family.axisLevel
	}
	return opt
}

// lookLevelWarning says when the look that stopped a run under a decision
// rule judged at another level than this analysis replays, as a stream
// collected before the family correction of --until decision (3 or more
// cases) or analysed with other family settings does.
func (d *runData) lookLevelWarning(level float64) string {
	u := d.run.Config.Until
	if u == nil || u.Rule != ndjson.UntilDecision {
		return ""
	}
	for _, l := range d.looks {
		if l.Spent && (l.Met || l.Final) && math.Abs(l.ConfidencePct-level) > 1e-6 {
			return fmt.Sprintf("the look that stopped this run judged each comparison at %g%%; this analysis, under its multiplicity rule (the family in this record), replays it at %g%%, so its verdicts may differ from the one that stopped the run",
				l.ConfidencePct, level)
		}
	}
	return ""
}
