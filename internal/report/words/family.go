package words

import (
	"fmt"

	"github.com/flybench/flybench/internal/report/model"
	"github.com/flybench/flybench/pkg/ndjson"
)

// FamilyOf is the run's multiplicity rule when its family has more than
// one comparison; a lone comparison is its own family and needs no word.
func FamilyOf(r *model.Run) *ndjson.Family {
	if r.Analysis == nil || r.Analysis.Family == nil || r.Analysis.Family.M <= 1 {
		return nil
	}
	return r.Analysis.Family
}

// Family says how a run's comparisons share the error rate: "3
// comparisons (time), Bonferroni, 95% family confidence → each interval
// at 98.33%", or the exploratory label, and the level of the axes outside
// the family. It is "" for a family of one.
func Family(r *model.Run) string {
	f := FamilyOf(r)
	if f == nil {
		return ""
	}
	var text string
	if f.Method == ndjson.MultiplicityNone || f.Exploratory {
		text = fmt.Sprintf("exploratory (no multiplicity correction across %d comparisons): each interval at %s",
			f.M, model.Confidence(f.PerComparisonPct))
	} else {
		text = fmt.Sprintf("%d comparisons (%s), Bonferroni, %s family confidence → each interval at %s",
			f.M, f.Scope, model.Confidence(f.FamilyConfidencePct), model.Confidence(f.PerComparisonPct))
	}
	if len(r.Comparisons) > 0 && r.Run.Config.Until != nil && r.Comparisons[0].ConfidencePct != f.PerComparisonPct {
		text += fmt.Sprintf(", spent over the looks (the final look's interval at %s)", model.Confidence(r.Comparisons[0].ConfidencePct))
	}
	if f.AxisConfidencePct != 0 {
		outside := "axes"
		if f.Scope == ndjson.FamilyAll {
			outside = "diagnostic axes"
		}
		text += fmt.Sprintf("; %s at %s per comparison, outside the family", outside, model.Confidence(f.AxisConfidencePct))
	}
	return text
}

// TableCILabel names the interval column of the table against the
// reference: the comparisons' own level when a family moved it.
func TableCILabel(r *model.Run) string {
	if FamilyOf(r) != nil && len(r.Comparisons) > 0 {
		return model.Confidence(r.Comparisons[0].ConfidencePct) + " CI"
	}
	return r.CILabel()
}

// AxisCI names the interval column of a comparison's axis table: ci,
// or both levels when the axes outside the family have their own.
func AxisCI(r *model.Run, k *ndjson.Comparison, ci string) string {
	f := FamilyOf(r)
	if f == nil || f.AxisConfidencePct == 0 {
		return ci
	}
	if f.Scope == ndjson.FamilyAll {
		return fmt.Sprintf("CI (%s; diagnostic %s)", model.Confidence(k.ConfidencePct), model.Confidence(f.AxisConfidencePct))
	}
	return fmt.Sprintf("CI (time %s; axes %s)", model.Confidence(k.ConfidencePct), model.Confidence(f.AxisConfidencePct))
}
