package words

import (
	"fmt"

	"github.com/flybench/flybench/internal/report/model"
	"github.com/flybench/flybench/pkg/ndjson"
)

// The options of fb-pair's request and fb-analyze's the words name, by
// their field paths; a run's or recording's Names spells them.
const (
	FieldUntil      = "Until.Rule"
	FieldMaxTime    = "Until.MaxTime"
	FieldSizeSpread = "SizeSpread"
	FieldLayout     = "RandomizeLayout"
	FieldSamples    = "Samples"
	FieldOutcome    = "analyze.Outcome" // analyze.FieldOutcome
)

// Stopping says how a run with a stopping rule ended: settled or at
// its limit, after how many looks, units and how long, and, under a
// decision rule, the level of the final look's interval (level) within
// the overall confidence. It is "" for a run without a rule.
func Stopping(r *model.Run, level float64) string {
	u := r.Run.Config.Until
	if u == nil {
		return ""
	}
	reason, looks := ndjson.UntilCut, 0
	if r.End != nil && r.End.Until != nil {
		reason, looks = r.End.Until.Reason, r.End.Until.Looks
	}
	outcome := "settled"
	switch reason {
	case ndjson.UntilTime:
		outcome = "hit the " + r.Names.Spell(FieldMaxTime) + " limit, not settled"
	case ndjson.UntilUnits:
		outcome = "hit the most units a run may collect, not settled"
	case ndjson.UntilCut:
		outcome = "stream cut short before the rule settled"
	}
	rule := u.Rule
	if rule == ndjson.UntilWidth {
		rule = fmt.Sprintf("width=%g%%", u.WidthPct)
	}
	text := fmt.Sprintf("%s %s: %s after %s", r.Names.Spell(FieldUntil), rule, outcome, model.Plural(looks, "look"))
	if e := r.End; e != nil && e.Until != nil {
		text += fmt.Sprintf(", %s, %.1f s", model.Plural(e.Until.Units, UnitNoun(r)), float64(e.Until.ElapsedNS)/1e9)
	}
	if u.Rule == ndjson.UntilDecision && r.Analysis != nil {
		text += fmt.Sprintf("  (%s overall; this look's interval %s)", model.Confidence(r.Analysis.ConfidencePct), model.Confidence(level))
	}
	return text
}

// RunLevel is the final look's level for a run's own card: the end
// record's, as the collector judged it.
func RunLevel(r *model.Run) float64 {
	if r.End != nil && r.End.Until != nil {
		return r.End.Until.ConfidencePct
	}
	return 0
}

// UnitNoun names a run's unit: pair, round or sample.
func UnitNoun(r *model.Run) string {
	switch r.Run.Design {
	case ndjson.DesignPaired:
		return "pair"
	case ndjson.DesignRounds:
		return "round"
	}
	return "sample"
}

// StoppingLevel is the level of a run's stopping line: its comparisons'
// final look, else the run's.
func StoppingLevel(r *model.Run) float64 {
	if len(r.Comparisons) > 0 {
		return r.Comparisons[0].ConfidencePct
	}
	return RunLevel(r)
}
