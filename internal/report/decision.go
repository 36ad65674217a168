package report

import (
	"fmt"

	"github.com/flybench/flybench/internal/report/model"
	"github.com/flybench/flybench/pkg/ndjson"
)

// decisionSpeedup is the speedup the verdict rests on: the decision
// estimate's, or the geometric mean in analyses that predate it.
func decisionSpeedup(k *ndjson.Comparison) float64 {
	if k.Estimator != "" && k.Speedup > 0 {
		return k.Speedup
	}
	return k.GeoSpeedup
}

// estimatorName names the decision estimate in a card.
func estimatorName(k *ndjson.Comparison) string {
	if k.Estimator == "" {
		return "geometric"
	}
	return k.Estimator
}

// geometricText is the geometric mean beside a decision estimate that is
// not it: its change and interval.
func geometricText(k *ndjson.Comparison, ci string) string {
	return fmt.Sprintf("%s  %s %s  (every pair at full weight)", model.Pct(k.Geo.ChangePct), ci, model.PctRange(k.Geo.ChangeCI))
}

// robustText says what the robust fit set aside, and how wide it judged
// the noise to be.
func robustText(k *ndjson.Comparison) string {
	f := k.Robust
	if f.Fallback {
		return "none set aside: too many pairs looked like outliers, every pair kept full weight"
	}
	if f.ScalePct == 0 {
		return "none set aside: most log-ratios are tied, every pair kept full weight"
	}
	return fmt.Sprintf("%d of %d pairs not weighed (%d reference slow, %d contender slow)  robust spread %.2f%%",
		f.Rejected, k.Pairs, f.ReferenceSlow, f.ContenderSlow, f.ScalePct)
}

// orderText is the order row: the leader effect, whether the estimate
// took it out, and the order counts.
func orderText(k *ndjson.Comparison, ref, con string) string {
	text := fmt.Sprintf("effect %s  %s first %d  %s first %d", model.Pct(k.OrderEffectPct), ref, k.ReferenceFirst, con, k.ContenderFirst)
	if k.Robust != nil && k.Robust.Blocked {
		text += "  (taken out: each order estimated apart)"
	}
	return text
}

// stoppingText says how a run with a stopping rule ended: settled or at
// its limit, after how many looks, units and how long, and, under a
// decision rule, the level of the final look's interval (level) within
// the overall confidence. It is "" for a run without a rule.
func stoppingText(r *model.Run, level float64) string {
	u := r.Run.Config.Until
	if u == nil {
		return ""
	}
	reason, looks := "cut", 0
	if r.End != nil && r.End.Until != nil {
		reason, looks = r.End.Until.Reason, r.End.Until.Looks
	}
	outcome := "settled"
	switch reason {
	case "time":
		outcome = "hit the --max-time limit, not settled"
	case "units":
		outcome = "hit the most units a run may collect, not settled"
	case "cut":
		outcome = "stream cut short before the rule settled"
	}
	rule := u.Rule
	if rule == "width" {
		rule = fmt.Sprintf("width=%g%%", u.WidthPct)
	}
	text := fmt.Sprintf("--until %s: %s after %s", rule, outcome, model.Plural(looks, "look"))
	if e := r.End; e != nil && e.Until != nil {
		text += fmt.Sprintf(", %s, %.1f s", model.Plural(e.Until.Units, unitNoun(r)), float64(e.Until.ElapsedNS)/1e9)
	}
	if u.Rule == "decision" && r.Analysis != nil {
		text += fmt.Sprintf("  (%s overall; this look's interval %s)", model.Confidence(r.Analysis.ConfidencePct), model.Confidence(level))
	}
	return text
}

// runLevel is the final look's level for a run's own card: the end
// record's, as the collector judged it.
func runLevel(r *model.Run) float64 {
	if r.End != nil && r.End.Until != nil {
		return r.End.Until.ConfidencePct
	}
	return 0
}

// unitNoun names a run's unit: pair, round or sample.
func unitNoun(r *model.Run) string {
	switch r.Run.Design {
	case ndjson.DesignPaired:
		return "pair"
	case ndjson.DesignRounds:
		return "round"
	}
	return "sample"
}

// stoppingLevel is the level of a run's stopping line: its comparisons'
// final look, else the run's.
func stoppingLevel(r *model.Run) float64 {
	if len(r.Comparisons) > 0 {
		return r.Comparisons[0].ConfidencePct
	}
	return runLevel(r)
}
