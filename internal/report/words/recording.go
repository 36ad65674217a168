package words

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/flybench/flybench/internal/report/model"
	"github.com/flybench/flybench/pkg/ndjson"
)

// Retention is "reservoir of 4096 per benchmark".
func Retention(k ndjson.Retention) string {
	if k.Policy == "" {
		return ""
	}
	return fmt.Sprintf("%s of %d per benchmark", k.Policy, k.Capacity)
}

// outcomeOrder lists the outcomes in reading order; others follow by name.
var outcomeOrder = []string{ndjson.OutcomeSuccess, ndjson.OutcomeFailure, ndjson.OutcomeTimeout, ndjson.OutcomeCancelled}

// Outcomes is "466 success, 8 failure, 4 timeout, 2 cancelled".
func Outcomes(m map[string]int64) string {
	var parts []string
	for _, o := range SortedOutcomes(m) {
		parts = append(parts, fmt.Sprintf("%d %s", m[o], o))
	}
	if len(parts) == 0 {
		return "none"
	}
	return strings.Join(parts, ", ")
}

// SortedOutcomes are m's outcomes in reading order.
func SortedOutcomes(m map[string]int64) []string {
	var out []string
	for _, o := range outcomeOrder {
		if _, ok := m[o]; ok {
			out = append(out, o)
		}
	}
	var other []string
	for o := range m {
		if !contains(outcomeOrder, o) {
			other = append(other, o)
		}
	}
	sort.Strings(other)
	return append(out, other...)
}

func contains(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}

// Percentile is "p50", "p99.9".
func Percentile(p float64) string { return "p" + strconv.FormatFloat(p, 'f', -1, 64) }

// SpanAxis is one axis over the spans: its median and mean with n,
// and how many spans lack it, or why it has no value.
func SpanAxis(a ndjson.AxisSummary) string {
	if a.Stats == nil {
		return model.UnavailableText(a.Status, a.Reason)
	}
	text := fmt.Sprintf("median %s · mean %s · n=%d", model.AxisValue(a.Stats.Median, a.Unit), model.AxisValue(a.Stats.Mean, a.Unit), a.N)
	if a.Missing > 0 {
		text += fmt.Sprintf(" · %s: %s without a value", model.StatusText(a.Status), model.Plural(a.Missing, "span"))
	}
	return text
}
