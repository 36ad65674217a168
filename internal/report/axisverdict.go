package report

import (
	"strings"

	"github.com/flybench/flybench/pkg/ndjson"
)

// Verdicts of an axis comparison, as fb-analyze writes them.
const (
	axisContenderBetter = "contender better"
	axisReferenceBetter = "reference better"
	axisEquivalent      = "practically equivalent"
	axisInconclusive    = "inconclusive"
	axisDiagnostic      = "diagnostic"
)

// axisVerdictText names the winner of an axis: "new better".
func axisVerdictText(r *Run, k *ndjson.Comparison, verdict string) string {
	ref, con := names(r, k)
	switch verdict {
	case axisContenderBetter:
		return con + " better"
	case axisReferenceBetter:
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
	case axisContenderBetter:
		return sgrGreen
	case axisReferenceBetter:
		return sgrRed
	case axisEquivalent:
		return sgrCyan
	case axisInconclusive:
		return sgrYellow
	}
	return ""
}

// axisVerdictMark is the verdict in a matrix cell.
func axisVerdictMark(verdict string) string {
	switch verdict {
	case axisContenderBetter:
		return "✓"
	case axisReferenceBetter:
		return "✗"
	case axisEquivalent:
		return "~"
	case axisInconclusive:
		return "?"
	case axisDiagnostic:
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
		return signedAxis(res.Change, unit)
	}
	return pct(res.Change)
}

// axisChangeCI is the interval of the change: "-10.1% .. -7.4%".
func axisChangeCI(res *ndjson.AxisResult, unit string) string {
	if absolute(res) {
		return axisRange(res.CI[0], res.CI[1], unit, true)
	}
	return pctRange(res.CI)
}
