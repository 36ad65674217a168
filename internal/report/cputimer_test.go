package report

import (
	"bytes"
	stdcsv "encoding/csv"
	"strings"
	"testing"

	"github.com/flybench/flybench/internal/analyze"
	"github.com/flybench/flybench/internal/axes"
	"github.com/flybench/flybench/internal/report/model"
	"github.com/flybench/flybench/pkg/ndjson"
)

// cpuTimedRuns is a CPU-timed paired run, analysed by fb-analyze: the
// contender uses less CPU time and more wall time.
func cpuTimedRuns(t *testing.T) []*model.Run {
	t.Helper()
	timing, wall := axes.CPUTimeAxis(), axisInfo(axes.Wall, axes.Collected, "")
	run := &ndjson.Run{RunID: "c0ffee00-0000-4000-8000-000000000001", Tool: "fb-pair", Mode: "exec",
		Design: ndjson.DesignPaired, Batching: "equal-time", Clock: ndjson.Clock{Backend: "fake", NominalNS: 1},
		Cases: []ndjson.Case{{Name: "spin"}, {Name: "nap"}},
		Axes: []ndjson.AxisInfo{{Name: timing.Name, Unit: timing.Unit, Family: timing.Family, Scope: timing.Scope,
			Attribution: timing.Attribution, Direction: string(timing.Direction), Normalization: string(timing.Normalization),
			Status: string(axes.Collected)}, wall},
		Timer: &ndjson.Timer{Kind: ndjson.TimerCPU, Source: "wait4 rusage user+system", ResolutionNS: 1000, Note: "waiting excluded"}}
	run.Config.Samples = 12
	recs := []ndjson.Record{run}
	for u := 0; u < 12; u++ {
		for c := 0; c < 2; c++ {
			cpu := []float64{5e6, 1.3e6}[c] * (1 + 0.01*float64(u%3))
			w := []float64{5.2e6, 11.5e6}[c] * (1 + 0.01*float64(u%4))
			ns := int64(cpu * 2)
			recs = append(recs, &ndjson.Sample{Case: c, Unit: u, Pos: (u + c) % 2, Seq: 2*u + c, Iter: 2,
				WallNS: int64(w * 2), OpNS: cpu, CPUNS: &ns, Axes: map[string]ndjson.AxisValue{axes.Wall: ndjson.Collected(w)}})
		}
	}
	recs = append(recs, &ndjson.End{RunID: run.RunID, Reason: ndjson.EndCompleted, Units: 12, Samples: []int{12, 12}})
	var out bytes.Buffer
	in := ndjson.NewReader(bytes.NewReader(streamOf(t, recs)), "cpu.ndjson")
	if err := analyze.Stream(in, ndjson.NewWriter(&out), flaggedOptions); err != nil {
		t.Fatal(err)
	}
	return loadFixture(t, out.Bytes(), "cpu.ndjson")
}

// A CPU-timed run says so in every format, and its wall time is an axis.
func TestCPUTimerLabelledEverywhere(t *testing.T) {
	runs := cpuTimedRuns(t)
	for _, tc := range []struct {
		format string
		want   []string
	}{
		{"console", []string{"timed by CPU time", "CPU time (user+system, --timer cpu), not elapsed time",
			"cpu time   | median", "timer      | CPU time from wait4 rusage user+system, resolution 1.000 µs; wall time is the axis wall — waiting excluded",
			"cpu time   | -", "\n              | wall ", "\n   cpu_time ", "\n   wall "}},
		{"markdown", []string{"median CPU time", "CPU times (user+system) per operation", "CPU time (user+system, --timer cpu)"}},
		{"long-csv", []string{",summary,0,spin,,,cpu_time,", ",summary,0,spin,,,wall,", ",comparison,0,spin,1,nap,wall,"}},
		{"json", []string{`"kind": "cpu"`}},
	} {
		text := string(render(t, runs, Options{Format: tc.format}))
		if tc.format == "markdown" {
			checkTimerColumn(t, runs, "cpu")
		}
		for _, w := range tc.want {
			if !strings.Contains(text, w) {
				t.Errorf("%s output lacks %q:\n%s", tc.format, w, text)
			}
		}
	}
}

// A wall-timed run's CSV rows say so; the timing axis is not an extra axis.
func TestWallTimedRunIsLabelledWall(t *testing.T) {
	runs := fixtureRuns(t)
	checkTimerColumn(t, runs[:1], "wall")
	if text := string(render(t, runs[:1], Options{})); strings.Contains(text, "cpu time") || strings.Contains(text, "timed by") {
		t.Errorf("a wall-timed run must not be labelled CPU time:\n%s", text)
	}
}

// checkTimerColumn requires every CSV row of runs to name the timer kind.
func checkTimerColumn(t *testing.T, runs []*model.Run, kind string) {
	t.Helper()
	rows, err := stdcsv.NewReader(bytes.NewReader(render(t, runs, Options{Format: "csv"}))).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	for _, row := range rows[1:] {
		if got := row[csvCol["timer"]]; got != kind {
			t.Errorf("csv row %v: timer %q, want %q", row[:4], got, kind)
		}
	}
}
