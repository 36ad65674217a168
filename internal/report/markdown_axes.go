package report

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/flybench/flybench/internal/report/model"
	"github.com/flybench/flybench/pkg/ndjson"
)

// markdownAxes writes, for each comparison with an axis besides wall time,
// a small table of every axis compared on the same pairs.
func markdownAxes(w *bytes.Buffer, r *model.Run) {
	for i := range r.Comparisons {
		k := &r.Comparisons[i]
		if !model.ExtraComparisonAxes(k) {
			continue
		}
		ref, con := names(r, k)
		fmt.Fprintf(w, "\nAxes of %s against %s, on the same pairs (%s):\n\n", mdEscape(con), mdEscape(ref), axisCIText(r, k, ciText(r, k)))
		w.WriteString("| axis | " + mdEscape(ref) + " | " + mdEscape(con) + " | change | verdict |\n")
		w.WriteString("| :-- | --: | --: | :-- | :-- |\n")
		for j := range k.Axes {
			w.WriteString("| " + strings.Join(markdownAxisRow(r, k, &k.Axes[j]), " | ") + " |\n")
		}
	}
}

// ciText names the interval of a comparison: "95% CI".
func ciText(r *model.Run, k *ndjson.Comparison) string {
	if k.ConfidencePct > 0 {
		return model.Confidence(k.ConfidencePct) + " CI"
	}
	return r.CILabel()
}

// markdownAxisRow is one axis: medians, the change with its interval and
// the verdict, or "n/a" and the status and reason when unavailable.
func markdownAxisRow(r *model.Run, k *ndjson.Comparison, a *ndjson.AxisComparison) []string {
	name := mdEscape(a.Name)
	if !model.Collected(a) {
		return []string{name, "n/a", "n/a", mdEscape(model.UnavailableText(a.Status, a.Reason)), ""}
	}
	res := a.Result
	if isExact(res) {
		return markdownExactRow(a)
	}
	change := fmt.Sprintf("%s (%s)", axisChange(res, a.Unit), axisChangeCI(res, a.Unit))
	if absolute(res) {
		change += " absolute"
	}
	return []string{name, mdEscape(model.AxisValue(res.RefMedian, a.Unit)), mdEscape(model.AxisValue(res.ConMedian, a.Unit)),
		mdEscape(change), "**" + mdEscape(axisVerdictText(r, k, res.Verdict)) + "**"}
}
