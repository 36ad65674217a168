package report

import (
	"bytes"
	"strings"
	"testing"

	"github.com/flybench/flybench/internal/analyze"
	"github.com/flybench/flybench/internal/report/model"
	"github.com/flybench/flybench/internal/schedule"
	"github.com/flybench/flybench/pkg/ndjson"
)

// exactRuns is an analysed run of three cases counted under cachegrind:
// "new" executes 20 instructions more per operation than "old", "odd"
// varies between counts.
func exactRuns(t *testing.T) []*model.Run {
	t.Helper()
	var in, out bytes.Buffer
	w := ndjson.NewWriter(&in)
	names := []string{"old", "new", "odd"}
	run := &ndjson.Run{RunID: "r-exact", Tool: "fb-pair", Mode: "exec", Design: ndjson.DesignRounds, Batching: "equal-time",
		Clock: ndjson.Clock{Backend: "fake", NominalNS: 1},
		Axes: []ndjson.AxisInfo{{Name: "wall", Unit: "ns/op", Family: "time", Direction: "lower", Status: "collected"},
			{Name: "instructions_sim", Unit: "instructions/op", Family: "simulated", Scope: "operation_process",
				Attribution: "exact_window", Direction: "lower", Normalization: "per_operation", Status: "collected", Comparison: "exact"}}}
	for i, n := range names {
		run.Cases = append(run.Cases, ndjson.Case{Index: i, Name: n})
	}
	run.Config.Samples = 20
	check(t, w.Write(run))
	for c, counts := range [][]float64{{5000, 5000, 5000}, {5020, 5020, 5020}, {5000, 5003, 5000}} {
		v := counts[1]
		check(t, w.Write(&ndjson.Counter{RunID: "r-exact", Case: c, Name: names[c], Axis: "instructions_sim", Unit: "instructions/op",
			Status: "collected", Value: &v, Values: counts, Runs: 3}))
	}
	for u, order := range schedule.Rounds(20, 3, 1).Units {
		for pos, c := range order {
			check(t, w.Write(&ndjson.Sample{Case: c, Unit: u, Pos: pos, Iter: 1, WallNS: int64(1000 + 10*c + u%3), OpNS: float64(1000 + 10*c + u%3)}))
		}
	}
	check(t, w.Write(&ndjson.End{RunID: "r-exact", Reason: ndjson.EndCompleted, Units: 20, Samples: []int{20, 20, 20}}))
	check(t, w.Flush())
	check(t, analyze.Stream(ndjson.NewReader(&in, "in"), ndjson.NewWriter(&out), flaggedOptions))
	runs, err := Load(ndjson.NewReader(&out, "analysed"))
	check(t, err)
	return runs
}

func check(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// TestExactRendering: an exact axis reads as its exact difference, its
// verdict and no interval in every format.
func TestExactRendering(t *testing.T) {
	runs := exactRuns(t)
	console := string(render(t, runs, Options{Format: "console", Details: true})) + string(render(t, runs, Options{Format: "console"}))
	for _, want := range []string{
		"instructions_sim =+20 + =0 ?",
		"instructions_sim  5000  5020  instructions/op  +20 (exact)  no interval  increased",
		"instructions_sim 5000 5000 instructions/op 0 (exact) no interval not deterministic",
		"= exact difference (= no change, + increased, - decreased, ? not deterministic)",
		"instructions_sim is compared exactly but its values vary within a side: old spread 0 instructions/op over 3 values, odd spread 3 instructions/op over 3 values",
	} {
		if !strings.Contains(strings.Join(strings.Fields(console), " "), strings.Join(strings.Fields(want), " ")) {
			t.Errorf("console lacks %q:\n%s", want, console)
		}
	}
	md := string(render(t, runs, Options{Format: "markdown"}))
	if !strings.Contains(md, "| instructions\\_sim | 5000 instructions/op | 5020 instructions/op | +20 instructions/op exact, no interval | **increased** |") {
		t.Errorf("markdown:\n%s", md)
	}
	_, rows := longCSV(t, runs)
	found := 0
	for _, row := range rows {
		if row["kind"] == "comparison" && row["axis"] == "instructions_sim" && row["contender_name"] == "new" {
			found++
			if row["method"] != "exact" || row["change"] != "20" || row["ci_low"] != "" || row["ci_high"] != "" || row["verdict"] != "increased" {
				t.Errorf("long-csv row %v", row)
			}
		}
	}
	if found != 1 {
		t.Errorf("%d long-csv rows for new's instructions_sim", found)
	}
}
