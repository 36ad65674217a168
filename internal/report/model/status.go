package model

import (
	"strings"

	"github.com/flybench/flybench/internal/axes"
	"github.com/flybench/flybench/pkg/ndjson"
)

// StatusText is a status as people read it: "unsupported event".
func StatusText(status string) string {
	if status == "" {
		return "status not recorded"
	}
	return axes.Status(status).Text()
}

// UnavailableText says why an axis has no value, never a stand-in number:
// "unavailable: unsupported event (no hardware PMU)".
func UnavailableText(status, reason string) string {
	text := "unavailable: " + StatusText(status)
	if reason = TidyReason(status, reason); reason != "" {
		text += " (" + reason + ")"
	}
	return text
}

// TidyReason drops the status text fb-analyze repeats inside a reason, so
// "baseline: unsupported event: no PMU" reads "baseline: no PMU" after
// the status it follows.
func TidyReason(status, reason string) string {
	if status == "" {
		return reason
	}
	return strings.Replace(reason, StatusText(status)+": ", "", 1)
}

// ExtraSummaryAxes reports whether a summary has an axis besides its
// timing axis.
func ExtraSummaryAxes(s *ndjson.Summary) bool {
	for i, a := range s.Axes {
		if axes.Extra(i, a.Name) {
			return true
		}
	}
	return false
}

// ExtraComparisonAxes reports whether a comparison has an axis besides its
// timing axis.
func ExtraComparisonAxes(k *ndjson.Comparison) bool {
	for i, a := range k.Axes {
		if axes.Extra(i, a.Name) {
			return true
		}
	}
	return false
}

// Collected reports whether an axis comparison has a result to print.
func Collected(a *ndjson.AxisComparison) bool {
	return a.Result != nil && axes.Status(ComparisonStatus(a)).Available()
}

// Verdicts of an axis comparison, as fb-analyze writes them.
const (
	AxisContenderBetter = "contender better"
	AxisReferenceBetter = "reference better"
	AxisEquivalent      = "practically equivalent"
	AxisInconclusive    = "inconclusive"
	AxisDiagnostic      = "diagnostic"
)
