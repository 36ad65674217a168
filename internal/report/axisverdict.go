package report

import (
	"github.com/flybench/flybench/internal/report/model"
)

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
