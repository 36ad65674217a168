package report

import (
	"strings"

	"github.com/flybench/flybench/internal/report/model"
	"github.com/flybench/flybench/pkg/ndjson"
)

// axisVerdictText names the winner of an axis: "new better".
func axisVerdictText(r *model.Run, k *ndjson.Comparison, verdict string) string {
	ref, con := names(r, k)
	switch verdict {
	case model.AxisContenderBetter:
		return con + " better"
	case model.AxisReferenceBetter:
		return ref + " better"
	case "":
		return "no verdict"
	}
	return verdict
}

// axisVerdictColor paints an axis verdict like a timing verdict; a
// diagnostic axis is never judged and stays plain.
func axisVerdictColor(verdict string) string {
	switch verdict {
	case model.AxisContenderBetter:
		return sgrGreen
	case model.AxisReferenceBetter:
		return sgrRed
	case model.AxisEquivalent:
		return sgrCyan
	case model.AxisInconclusive:
		return sgrYellow
	}
	return ""
}

// axisVerdictMark is the verdict in a matrix cell.
func axisVerdictMark(verdict string) string {
	switch verdict {
	case model.AxisContenderBetter:
		return "✓"
	case model.AxisReferenceBetter:
		return "✗"
	case model.AxisEquivalent:
		return "~"
	case model.AxisInconclusive:
		return "?"
	case model.AxisDiagnostic:
		return "diag"
	}
	return verdict
}

// absolute reports whether a result is a paired difference in the axis
// unit rather than a relative change in percent.
func absolute(res *ndjson.AxisResult) bool {
	return strings.HasPrefix(res.Method, "absolute")
}

// axisChange is the change of a result: "-8.8%", or for the absolute
// method the mean difference in the axis unit, "+0.2500 faults/op".
func axisChange(res *ndjson.AxisResult, unit string) string {
	if absolute(res) {
		return model.SignedAxis(res.Change, unit)
	}
	return model.Pct(res.Change)
}

// axisChangeCI is the interval of the change: "-10.1% .. -7.4%".
func axisChangeCI(res *ndjson.AxisResult, unit string) string {
	if absolute(res) {
		return model.AxisRange(res.CI[0], res.CI[1], unit, true)
	}
	return model.PctRange(res.CI)
}
