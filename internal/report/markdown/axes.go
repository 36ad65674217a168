package markdown

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/flybench/flybench/internal/report/model"
	"github.com/flybench/flybench/internal/report/words"
	"github.com/flybench/flybench/pkg/ndjson"
)

// markdownExactRow is an exact axis in a Markdown axis table.
func markdownExactRow(a *ndjson.AxisComparison) []string {
	res := a.Result
	return []string{mdEscape(a.Name), mdEscape(model.AxisValue(res.RefMedian, a.Unit)), mdEscape(model.AxisValue(res.ConMedian, a.Unit)),
		mdEscape(words.ExactChange(res, a.Unit) + " exact, no interval"), "**" + mdEscape(res.Verdict) + "**"}
}

// markdownAxes writes, for each comparison with an axis besides wall time,
// a small table of every axis compared on the same pairs.
func markdownAxes(w *bytes.Buffer, r *model.Run) {
	for i := range r.Comparisons {
		k := &r.Comparisons[i]
		if !model.ExtraComparisonAxes(k) {
			continue
		}
		ref, con := words.Names(r, k)
		fmt.Fprintf(w, "\nAxes of %s against %s, on the same pairs (%s):\n\n", mdEscape(con), mdEscape(ref), words.AxisCI(r, k, words.CI(r, k)))
		w.WriteString("| axis | " + mdEscape(ref) + " | " + mdEscape(con) + " | change | verdict |\n")
		w.WriteString("| :-- | --: | --: | :-- | :-- |\n")
		for j := range k.Axes {
			w.WriteString("| " + strings.Join(markdownAxisRow(r, k, &k.Axes[j]), " | ") + " |\n")
		}
	}
}

// markdownAxisRow is one axis: medians, the change with its interval and
// the verdict, or "n/a" and the status and reason when unavailable.
func markdownAxisRow(r *model.Run, k *ndjson.Comparison, a *ndjson.AxisComparison) []string {
	name := mdEscape(a.Name)
	if !model.Collected(a) {
		return []string{name, "n/a", "n/a", mdEscape(model.UnavailableText(a.Status, a.Reason)), ""}
	}
	res := a.Result
	if words.IsExact(res) {
		return markdownExactRow(a)
	}
	change := fmt.Sprintf("%s (%s)", words.AxisChange(res, a.Unit), words.AxisChangeCI(res, a.Unit))
	if words.Absolute(res) {
		change += " absolute"
	}
	return []string{name, mdEscape(model.AxisValue(res.RefMedian, a.Unit)), mdEscape(model.AxisValue(res.ConMedian, a.Unit)),
		mdEscape(change), "**" + mdEscape(words.AxisVerdict(r, k, res.Verdict)) + "**"}
}
