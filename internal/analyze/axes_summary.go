package analyze

import (
	"fmt"

	"github.com/flybench/flybench/internal/axes"
	"github.com/flybench/flybench/pkg/ndjson"
	"github.com/flybench/flybench/pkg/stats"
)

// axisSummaries describes every axis of case c, wall time first. An axis
// some samples lack is summarized over the samples that have it and says
// how many lack it; an axis no sample has carries only its status.
func (d *runData) axisSummaries(c int, rec *ndjson.Summary, opt Options) []ndjson.AxisSummary {
	wall := wallInfo(d.run)
	out := []ndjson.AxisSummary{{
		Name: wall.Name, Unit: wall.Unit, Status: string(axes.Collected), N: rec.N,
		Stats: &ndjson.AxisStats{Min: rec.Min, Median: rec.Median, Mean: rec.Mean, P95: rec.P95, P99: rec.P99, Max: rec.Max, MeanCI: rec.MeanCI},
	}}
	for i, info := range d.extra {
		vals, missing := d.column(c, i)
		st, reason := d.status(c, i, info)
		s := ndjson.AxisSummary{Name: info.Name, Unit: info.Unit, Status: string(st), Reason: reason, N: len(vals), Missing: missing}
		if len(vals) > 0 {
			s.Stats = axisStats(vals, opt, fmt.Sprintf("axis/%s/%d", info.Name, c))
		}
		out = append(out, s)
	}
	return append(out, d.counterSummaries(c)...)
}

func axisStats(x []float64, opt Options, stream string) *ndjson.AxisStats {
	s := stats.Summarize(x)
	lo, hi, _ := opt.bootstrap().MeanIntervalAuto(x, stream)
	return &ndjson.AxisStats{Min: s.Min, Median: s.Median, Mean: s.Mean, P95: s.P95, P99: s.P99, Max: s.Max, MeanCI: [2]float64{lo, hi}}
}

// seriesPoints bounds the telemetry series carried by a summary.
const seriesPoints = 48

// telemetry condenses case c's telemetry, or nil when its samples have none.
func (d *runData) telemetry(c int) *ndjson.TelemetrySummary {
	var cpu, rss []float64
	t := &ndjson.TelemetrySummary{}
	for _, p := range d.cases[c] {
		if p.tele == nil {
			continue
		}
		cpu = append(cpu, p.tele.CPUPct)
		rss = append(rss, float64(p.tele.RSSBytes))
		t.CPUPctPeak = max(t.CPUPctPeak, p.tele.CPUPct)
		t.RSSPeakBytes = max(t.RSSPeakBytes, p.tele.RSSBytes)
	}
	if len(cpu) == 0 {
		return nil
	}
	t.CPUPctMean = stats.Mean(cpu)
	t.RSSFirst, t.RSSLast = int64(rss[0]), int64(rss[len(rss)-1])
	t.CPUSeries, t.RSSSeries = downsample(cpu, seriesPoints), downsample(rss, seriesPoints)
	return t
}

// downsample averages consecutive runs of x into at most n points.
func downsample(x []float64, n int) []float64 {
	if len(x) <= n {
		return x
	}
	out := make([]float64, n)
	for i := range out {
		lo, hi := i*len(x)/n, (i+1)*len(x)/n
		out[i] = stats.Mean(x[lo:hi])
	}
	return out
}
