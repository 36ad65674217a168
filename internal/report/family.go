package report

import (
	"bytes"
	"fmt"
	"strconv"

	"github.com/flybench/flybench/internal/report/model"
	"github.com/flybench/flybench/pkg/ndjson"
)

// familyOf is the run's multiplicity rule when its family has more than
// one comparison; a lone comparison is its own family and needs no word.
func familyOf(r *model.Run) *ndjson.Family {
	if r.Analysis == nil || r.Analysis.Family == nil || r.Analysis.Family.M <= 1 {
		return nil
	}
	return r.Analysis.Family
}

// familyText says how a run's comparisons share the error rate: "3
// comparisons (time), Bonferroni, 95% family confidence → each interval
// at 98.33%", or the exploratory label, and the level of the axes outside
// the family. It is "" for a family of one.
func familyText(r *model.Run) string {
	f := familyOf(r)
	if f == nil {
		return ""
	}
	var text string
	if f.Method == "none" || f.Exploratory {
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
		if f.Scope == "all" {
			outside = "diagnostic axes"
		}
		text += fmt.Sprintf("; %s at %s per comparison, outside the family", outside, model.Confidence(f.AxisConfidencePct))
	}
	return text
}

// family prints the run's family row under its comparisons.
func (c *console) family(r *model.Run) {
	if text := familyText(r); text != "" {
		c.line("")
		c.row("family", text)
	}
}

// markdownFamily writes the run's family line under its method note.
func markdownFamily(w *bytes.Buffer, r *model.Run) {
	if text := familyText(r); text != "" {
		fmt.Fprintf(w, "\n_Family: %s_\n", mdEscape(text))
	}
}

// tableCILabel names the interval column of the table against the
// reference: the comparisons' own level when a family moved it.
func tableCILabel(r *model.Run) string {
	if familyOf(r) != nil && len(r.Comparisons) > 0 {
		return model.Confidence(r.Comparisons[0].ConfidencePct) + " CI"
	}
	return r.CILabel()
}

// axisCIText names the interval column of a comparison's axis table: ci,
// or both levels when the axes outside the family have their own.
func axisCIText(r *model.Run, k *ndjson.Comparison, ci string) string {
	f := familyOf(r)
	if f == nil || f.AxisConfidencePct == 0 {
		return ci
	}
	if f.Scope == "all" {
		return fmt.Sprintf("CI (%s; diagnostic %s)", model.Confidence(k.ConfidencePct), model.Confidence(f.AxisConfidencePct))
	}
	return fmt.Sprintf("CI (time %s; axes %s)", model.Confidence(k.ConfidencePct), model.Confidence(f.AxisConfidencePct))
}

// setFamily fills the family columns, the same on every row of a run.
func (row csvRow) setFamily(r *model.Run) {
	if r.Analysis == nil || r.Analysis.Family == nil {
		return
	}
	f := r.Analysis.Family
	row.set("multiplicity", f.Method)
	row.set("family", f.Scope)
	row.set("family_m", strconv.Itoa(f.M))
	row.set("family_confidence_pct", model.Plain(f.FamilyConfidencePct))
	row.set("per_comparison_pct", model.Plain(f.PerComparisonPct))
}

// setLevel fills a long row's interval level and, when the comparison is
// in the run's family, the family's size. An axis outside the family
// (AxisConfidencePct) has its own level and no family.
func (row longRow) setLevel(r *model.Run, k *ndjson.Comparison, a *ndjson.AxisComparison, first bool) {
	if a.Result == nil || a.Result.Method == ndjson.AxisMethodExact {
		return // no interval
	}
	level := k.ConfidencePct
	var f *ndjson.Family
	if r.Analysis != nil {
		f = r.Analysis.Family
	}
	inFamily := f != nil && (first || f.Scope == "all" && a.Direction != "diagnostic")
	if f != nil && !first && f.AxisConfidencePct != 0 && !inFamily {
		level = f.AxisConfidencePct
	}
	if level != 0 {
		row.set("confidence_pct", model.Plain(level))
	}
	if inFamily {
		row.set("family_m", strconv.Itoa(f.M))
	}
}
