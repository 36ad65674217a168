package console

import (
	"github.com/flybench/flybench/internal/report/model"
	"github.com/flybench/flybench/pkg/ndjson"
)

// axisVerdictColor paints an axis verdict like a timing verdict; a
// diagnostic axis is never judged and stays plain.
func axisVerdictColor(verdict string) string {
	switch verdict {
	case model.AxisContenderBetter:
		return SGRGreen
	case model.AxisReferenceBetter:
		return SGRRed
	case model.AxisEquivalent:
		return SGRCyan
	case model.AxisInconclusive:
		return SGRYellow
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

// verdictColor is green when the contender wins, red when it loses, cyan for
// equivalence and yellow when the data cannot tell.
func verdictColor(verdict string) string {
	switch verdict {
	case string(ndjson.VerdictContenderFaster):
		return SGRGreen
	case string(ndjson.VerdictReferenceFaster):
		return SGRRed
	case string(ndjson.VerdictEquivalent):
		return SGRCyan
	case string(ndjson.VerdictInconclusive):
		return SGRYellow
	}
	return ""
}
