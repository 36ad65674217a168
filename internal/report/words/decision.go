package words

import (
	"fmt"

	"github.com/flybench/flybench/internal/report/model"
	"github.com/flybench/flybench/pkg/ndjson"
)

// DecisionSpeedup is the speedup the verdict rests on: the decision
// estimate's, or the geometric mean in analyses that predate it.
func DecisionSpeedup(k *ndjson.Comparison) float64 {
	if k.Estimator != "" && k.Speedup > 0 {
		return k.Speedup
	}
	return k.GeoSpeedup
}

// Estimator names the decision estimate in a card.
func Estimator(k *ndjson.Comparison) string {
	if k.Estimator == "" {
		return "geometric"
	}
	return k.Estimator
}

// Geometric is the geometric mean beside a decision estimate that is
// not it: its change and interval.
func Geometric(k *ndjson.Comparison, ci string) string {
	return fmt.Sprintf("%s  %s %s  (every pair at full weight)", model.Pct(k.Geo.ChangePct), ci, model.PctRange(k.Geo.ChangeCI))
}

// Robust says what the robust fit set aside, and how wide it judged
// the noise to be.
func Robust(k *ndjson.Comparison) string {
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

// Order is the order row: the leader effect, whether the estimate
// took it out, and the order counts.
func Order(k *ndjson.Comparison, ref, con string) string {
	text := fmt.Sprintf("effect %s  %s first %d  %s first %d", model.Pct(k.OrderEffectPct), ref, k.ReferenceFirst, con, k.ContenderFirst)
	if k.Robust != nil && k.Robust.Blocked {
		text += "  (taken out: each order estimated apart)"
	}
	return text
}
