package console

import (
	"fmt"
	"math"
	"strings"

	"github.com/flybench/flybench/internal/report/model"
	"github.com/flybench/flybench/pkg/ndjson"
)

// sparks are the eight levels of a sparkline, lowest first.
var sparks = []rune("▁▂▃▄▅▆▇█")

// sparkline draws series scaled from lo to hi; a flat or empty scale
// draws every point at the lowest level.
func sparkline(series []float64, lo, hi float64) string {
	var b strings.Builder
	for _, v := range series {
		level := 0
		if hi > lo && !math.IsNaN(v) {
			level = int((v - lo) / (hi - lo) * float64(len(sparks)-1))
			level = min(max(level, 0), len(sparks)-1)
		}
		b.WriteRune(sparks[level])
	}
	return b.String()
}

// telemetry prints the run's own footprint while it measured the case:
// CPU per wall time and resident memory, each as a sparkline in
// collection order with its figures beneath.
func (c *console) telemetry(t *ndjson.TelemetrySummary) {
	if t == nil {
		return
	}
	cpu := fmt.Sprintf("average %.1f%%  (%.2f cores)    peak %.1f%%  (%.2f cores)",
		t.CPUPctMean, t.CPUPctMean/100, t.CPUPctPeak, t.CPUPctPeak/100)
	c.seriesRows("cpu", sparkline(t.CPUSeries, 0, max(100, t.CPUPctPeak)), cpu)
	mem := fmt.Sprintf("peak %s  first %s  last %s  (this tool plus the batch's processes)",
		model.Memory(float64(t.RSSPeakBytes)), model.Memory(float64(t.RSSFirst)), model.Memory(float64(t.RSSLast)))
	lo, hi := model.Bounds(t.RSSSeries)
	c.seriesRows("memory", sparkline(t.RSSSeries, lo, hi), mem)
}

// seriesRows prints a sparkline row and its figures on the line beneath,
// or the figures alone when there is no series.
func (c *console) seriesRows(label, spark, figures string) {
	if spark == "" {
		c.row(label, figures)
		return
	}
	c.row(label, spark)
	c.row("", figures)
}
