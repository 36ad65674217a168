package noise

import (
	"cmp"
	"strconv"
	"strings"

	"github.com/flybench/flybench/pkg/ndjson"
)

// MetricTime is the metric name of a case's time per operation and of a
// comparison's time change.
const MetricTime = "time"

// Key identifies a metric across invocations: its kind (ndjson.NoiseLevel
// or ndjson.NoiseChange), its name ("time" or an axis name), the case,
// and for a change the reference case; cases are matched by name.
type Key struct {
	Kind      string
	Metric    string
	Case      string
	Reference string
}

// String names the metric for messages: "time/new" for a level, "time/new
// vs old" for a change; a case name with a space or a slash is quoted.
func (k Key) String() string {
	s := k.Metric + "/" + quoteName(k.Case)
	if k.Kind == ndjson.NoiseChange {
		s += " vs " + quoteName(k.Reference)
	}
	return s
}

func quoteName(name string) string {
	if name == "" || strings.ContainsAny(name, " /\t\"") {
		return strconv.Quote(name)
	}
	return name
}

// compareKeys orders metrics: levels before changes, then by case and
// reference, time before the axes, axes by name.
func compareKeys(a, b Key) int {
	return cmp.Or(
		cmp.Compare(kindRank(a.Kind), kindRank(b.Kind)),
		cmp.Compare(a.Case, b.Case),
		cmp.Compare(a.Reference, b.Reference),
		cmp.Compare(metricRank(a.Metric), metricRank(b.Metric)),
		cmp.Compare(a.Metric, b.Metric),
	)
}

func kindRank(kind string) int {
	if kind == ndjson.NoiseLevel {
		return 0
	}
	return 1
}

func metricRank(metric string) int {
	if metric == MetricTime {
		return 0
	}
	return 1
}
