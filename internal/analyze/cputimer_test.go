package analyze

import (
	"bytes"
	"math"
	"strings"
	"testing"

	"github.com/flybench/flybench/pkg/ndjson"
)

// cpuStream is a CPU-timed exec run in which the contender uses 10% less
// CPU time than the reference but takes 20% more wall time (it waits).
func cpuStream(t *testing.T, n int) []byte {
	t.Helper()
	var buf bytes.Buffer
	w := ndjson.NewWriter(&buf)
	run := &ndjson.Run{RunID: "cpu", Mode: "exec", Design: ndjson.DesignPaired, Cases: []ndjson.Case{{Name: "a"}, {Name: "b"}},
		Clock: ndjson.Clock{NominalNS: 1},
		Timer: &ndjson.Timer{Kind: ndjson.TimerCPU, Source: "wait4 rusage user+system", ResolutionNS: 1000}}
	run.Config.Samples = n
	run.Axes = []ndjson.AxisInfo{
		{Name: "cpu_time", Unit: "ns/op", Family: "time", Direction: "lower", Status: "collected"},
		{Name: "wall", Unit: "ns/op", Family: "time", Direction: "lower", Status: "collected"},
	}
	must(t, w.Write(run))
	for u := 0; u < n; u++ {
		jitter := 1 + 0.01*float64(u%5)
		for c := 0; c < 2; c++ {
			cpu := 1e6 * []float64{1, 0.9}[c] * jitter
			wall := 2e6 * []float64{1, 1.2}[c] * jitter
			ns := int64(cpu * 4)
			must(t, w.Write(&ndjson.Sample{Case: c, Unit: u, Pos: c, Seq: 2*u + c, Iter: 4, WallNS: int64(wall * 4), OpNS: cpu, CPUNS: &ns,
				Axes: map[string]ndjson.AxisValue{"wall": ndjson.Collected(wall)}}))
		}
	}
	must(t, w.Write(&ndjson.End{RunID: "cpu", Reason: ndjson.EndCompleted, Units: n, Samples: []int{n, n}}))
	return buf.Bytes()
}

func TestCPUTimerKeepsWallAsComparedAxis(t *testing.T) {
	res, _ := analyzeBytes(t, cpuStream(t, 20), DefaultOptions)
	s := res.summaries[0]
	if len(s.Axes) != 2 || s.Axes[0].Name != "cpu_time" || s.Axes[1].Name != "wall" {
		t.Fatalf("summary axes %+v, want cpu_time then wall", s.Axes)
	}
	if s.Median != s.Axes[0].Stats.Median || math.Abs(s.Axes[1].Stats.Median/s.Median-2) > 0.01 {
		t.Fatalf("summary median %v, cpu_time %v, wall %v: the timing is CPU time, wall twice it",
			s.Median, s.Axes[0].Stats.Median, s.Axes[1].Stats.Median)
	}
	// Exec mode reads every run's rusage on its own: the floor is the
	// timer's resolution per operation, whatever the batch size.
	if s.FloorNS != 1000 {
		t.Errorf("floor %v, want 1000", s.FloorNS)
	}
	k := res.comparisons[0]
	if k.Verdict != ndjson.VerdictContenderFaster || math.Abs(k.ChangePct+10) > 0.1 {
		t.Fatalf("comparison %s %.2f%%, want the contender 10%% faster in CPU time", k.Verdict, k.ChangePct)
	}
	if len(k.Axes) != 2 || k.Axes[0].Name != "cpu_time" || k.Axes[1].Name != "wall" {
		t.Fatalf("comparison axes %+v, want cpu_time then wall", k.Axes)
	}
	wall := k.Axes[1]
	if !wall.Available || wall.Result.Verdict != "reference better" || math.Abs(wall.Result.Change-20) > 0.1 {
		t.Fatalf("wall axis %+v %+v, want the reference 20%% better in wall time on the same pairs", wall, wall.Result)
	}
	if w := res.analysis[0].Warnings; len(w) != 1 || !strings.Contains(w[0], "CPU time (user+system, Timer cpu), not elapsed time") {
		t.Errorf("warnings %q, want the CPU-time statement", w)
	}
}
