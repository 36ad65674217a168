package tests

import (
	"bytes"
	"encoding/json"
	"math"
	"os/exec"
	"slices"
	"testing"

	"github.com/flybench/flybench/pkg/ndjson"
)

// needValgrind skips a test that counts instructions under cachegrind
// where valgrind is not installed.
func needValgrind(t *testing.T) {
	t.Helper()
	if _, err := exec.LookPath("valgrind"); err != nil {
		t.Skip("valgrind not installed: make test installs it with apt-get; or apt-get install valgrind")
	}
}

// counted runs fb-pair --metrics instructions_sim and fb-analyze on cmds
// and returns the counter records and the comparison's axis.
func counted(t *testing.T, mode []string, cmds ...string) ([]ndjson.Counter, ndjson.AxisComparison) {
	t.Helper()
	args := append(append([]string{"--progress", "none", "--samples", "10", "-t", "200ms", "--metrics", "instructions_sim"}, mode...), "--")
	stream := run(t, nil, tool("fb-pair"), append(args, cmds...)...)
	analyzed := run(t, stream, tool("fb-analyze"))
	var counters []ndjson.Counter
	for _, line := range bytes.Split(analyzed, []byte("\n")) {
		if bytes.Contains(line, []byte(`"type":"counter"`)) {
			if !bytes.Contains(stream, line) {
				t.Errorf("fb-analyze changed a counter record: %s", line)
			}
			var k ndjson.Counter
			must(t, json.Unmarshal(line, &k))
			counters = append(counters, k)
		}
	}
	if len(counters) != len(cmds) {
		t.Fatalf("%d counter records for %d cases", len(counters), len(cmds))
	}
	for _, a := range comparisonOf(t, analyzed).Axes {
		if a.Name == "instructions_sim" {
			return counters, a
		}
	}
	t.Fatal("no instructions_sim axis in the comparison")
	return nil, ndjson.AxisComparison{}
}

// TestInstructionsSimAA counts a C program against itself: every count
// of both sides is the same, and the comparison says no change.
func TestInstructionsSimAA(t *testing.T) {
	needValgrind(t)
	counters, axis := counted(t, nil, "true", "true")
	for _, k := range counters {
		if k.Status != "collected" || k.Runs != 3 || len(k.Values) != 3 || k.Values[0] != *counters[0].Value ||
			k.Values[1] != k.Values[0] || k.Values[2] != k.Values[0] {
			t.Fatalf("counter %+v, want three equal counts, equal on both sides", k)
		}
	}
	if r := axis.Result; r == nil || r.Method != ndjson.AxisMethodExact || r.Verdict != ndjson.VerdictExactSame || r.Change != 0 {
		t.Fatalf("comparison %+v", axis)
	}
}

// TestInstructionsSimSpin counts examples/spin, a Go program, at N and 2N
// steps. Its runtime's background threads run by the clock, so its counts
// vary between runs (by 0.1% at 10M steps here, more on a busy machine;
// the analysis then says "not deterministic"); the 9 instructions per
// step of its loop dominate the difference.
func TestInstructionsSimSpin(t *testing.T) {
	needValgrind(t)
	if testing.Short() {
		t.Skip("counts 54M instructions under valgrind")
	}
	counters, axis := counted(t, nil, tool("spin")+" -n 2000000", tool("spin")+" -n 4000000")
	for _, k := range counters {
		if k.Status != "collected" || k.Source == "" || spread(k.Values) > 0.05*slices.Min(k.Values) {
			t.Fatalf("counter %+v: want three counts within 5%% of each other", k)
		}
	}
	r := axis.Result
	perStep := r.Change / 2000000
	if r.Method != ndjson.AxisMethodExact || math.Abs(perStep-9) > 1 ||
		r.Verdict != ndjson.VerdictExactIncreased && r.Verdict != ndjson.VerdictExactVaries {
		t.Fatalf("comparison %+v: %.2f instructions per step, want about 9", r, perStep)
	}
}

// TestInstructionsSimBatch counts a batch command at n and 2n: the
// difference per operation leaves out the shell's start-up.
func TestInstructionsSimBatch(t *testing.T) {
	needValgrind(t)
	if testing.Short() {
		t.Skip("runs a shell loop of thousands of steps under valgrind twelve times")
	}
	loop := "sh -c 'i=0; while [ $i -lt {n} ]; do i=$((i+1)); done'"
	counters, axis := counted(t, []string{"--batch", "--max-iterations", "100"}, loop, loop)
	for _, k := range counters {
		if k.Status != "collected" || k.Runs != 6 || *k.Value <= 0 || spread(k.Values) != 0 {
			t.Fatalf("counter %+v, want three equal positive counts from six runs", k)
		}
	}
	if *counters[0].Value > 100000 {
		t.Errorf("%v instructions per loop step: start-up was not removed", *counters[0].Value)
	}
	if axis.Result == nil || axis.Result.Method != ndjson.AxisMethodExact {
		t.Fatalf("comparison %+v", axis)
	}
}

func spread(x []float64) float64 { return slices.Max(x) - slices.Min(x) }

// TestInstructionsSimWithoutValgrind: with no valgrind in PATH the run
// goes on, and every counter record and the report say why there is no
// count, never a value.
func TestInstructionsSimWithoutValgrind(t *testing.T) {
	cmd := exec.Command(tool("fb-pair"), "--progress", "none", "--samples", "10", "-t", "100ms",
		"--metrics", "instructions_sim", "--", "/bin/true", "/bin/true")
	cmd.Env = []string{"PATH=/nonexistent"}
	stream, err := cmd.Output()
	must(t, err)
	reason := `"status":"unsupported_platform","reason":"valgrind not found in PATH: install the valgrind package"`
	if bytes.Count(stream, []byte(`"type":"counter"`)) != 2 || bytes.Count(stream, []byte(reason)) != 3 || bytes.Contains(stream, []byte(`"value"`)) {
		t.Fatalf("stream:\n%s", stream)
	}
	report := run(t, run(t, stream, tool("fb-analyze")), tool("fb-report"))
	if !bytes.Contains(report, []byte("unavailable: unsupported platform (/bin/true: valgrind not found in PATH: install the valgrind package)")) {
		t.Fatalf("report:\n%s", report)
	}
}
