package report

import (
	"strings"

	"github.com/flybench/flybench/internal/axes"
	"github.com/flybench/flybench/pkg/ndjson"
)

// axisInfo is the provenance of the axis called name: the run's record of
// it, or the catalogue's entry for streams that recorded none.
func (r *Run) axisInfo(name string) ndjson.AxisInfo {
	for _, a := range r.Run.Axes {
		if a.Name == name {
			return a
		}
	}
	a, ok := axes.Lookup(name)
	if !ok {
		return ndjson.AxisInfo{Name: name}
	}
	return ndjson.AxisInfo{Name: a.Name, Unit: a.Unit, Family: a.Family, Scope: a.Scope,
		Attribution: a.Attribution, Direction: string(a.Direction), Normalization: string(a.Normalization)}
}

// statusText is a status as people read it: "unsupported event".
func statusText(status string) string {
	if status == "" {
		return "status not recorded"
	}
	return axes.Status(status).Text()
}

// unavailableText says why an axis has no value, never a stand-in number:
// "unavailable: unsupported event (no hardware PMU)".
func unavailableText(status, reason string) string {
	text := "unavailable: " + statusText(status)
	if reason = tidyReason(status, reason); reason != "" {
		text += " (" + reason + ")"
	}
	return text
}

// tidyReason drops the status text fb-analyze repeats inside a reason, so
// "baseline: unsupported event: no PMU" reads "baseline: no PMU" after
// the status it follows.
func tidyReason(status, reason string) string {
	if status == "" {
		return reason
	}
	return strings.Replace(reason, statusText(status)+": ", "", 1)
}

// extraSummaryAxes reports whether a summary has an axis besides its
// timing axis.
func extraSummaryAxes(s *ndjson.Summary) bool {
	for i, a := range s.Axes {
		if axes.Extra(i, a.Name) {
			return true
		}
	}
	return false
}

// extraComparisonAxes reports whether a comparison has an axis besides its
// timing axis.
func extraComparisonAxes(k *ndjson.Comparison) bool {
	for i, a := range k.Axes {
		if axes.Extra(i, a.Name) {
			return true
		}
	}
	return false
}

// collected reports whether an axis comparison has a result to print.
func collected(a *ndjson.AxisComparison) bool {
	return a.Result != nil && axes.Status(comparisonStatus(a)).Available()
}
