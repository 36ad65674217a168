package tests

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"testing"

	"github.com/flybench/flybench/pkg/ndjson"
)

// TestPlanThenRun follows a plan as a user would: a short pilot, fb-analyze
// --plan, then fb-pair with the flags the plan printed, which must run the
// planned number of pairs. How wide the planned run's interval comes out
// depends on the machine's noise between the two runs, so that is checked
// on streams of known noise (TestPlanOnKnownNoise) and in pkg/stats.
func TestPlanThenRun(t *testing.T) {
	if testing.Short() {
		t.Skip("runs real commands for several seconds")
	}
	cmds := []string{tool("spin") + " -n 200000", tool("spin") + " -n 220000"}
	pilot := run(t, nil, tool("fb-pair"), append([]string{"--progress", "none", "--samples", "20", "-t", "400ms", "--"}, cmds...)...)
	planText := run(t, pilot, tool("fb-analyze"), "--plan", "half-width=4%")
	m := regexp.MustCompile(`--samples (\d+) --measurement-time (\S+) --`).FindSubmatch(planText)
	if m == nil {
		t.Fatalf("no command in the plan:\n%s", planText)
	}
	stream := run(t, nil, tool("fb-pair"), append([]string{"--progress", "none", "--samples", string(m[1]), "--measurement-time", string(m[2]), "--"}, cmds...)...)
	cmp := comparisonOf(t, run(t, stream, tool("fb-analyze")))
	if fmt.Sprint(cmp.Pairs) != string(m[1]) {
		t.Errorf("the planned run compared %d pairs; the plan said %s", cmp.Pairs, m[1])
	}
}

// TestPlanOnKnownNoise plans from pilot streams whose log-ratios are
// independent 5% noise, then analyses fresh streams of the planned size
// with the same noise: the median half-width over ten plans must be within
// 20% of the target.
func TestPlanOnKnownNoise(t *testing.T) {
	dir := t.TempDir()
	var ratios []float64
	for seed := range uint64(10) {
		pilot := filepath.Join(dir, "pilot.ndjson")
		writeNoisyStream(t, pilot, 40, 0.05, seed)
		planText := run(t, nil, tool("fb-analyze"), "--plan", "half-width=1%", pilot)
		m := regexp.MustCompile(`--samples (\d+) `).FindSubmatch(planText)
		if m == nil {
			t.Fatalf("no command in the plan:\n%s", planText)
		}
		n, _ := strconv.Atoi(string(m[1]))
		planned := filepath.Join(dir, "run.ndjson")
		writeNoisyStream(t, planned, n, 0.05, seed+100)
		cmp := comparisonOf(t, run(t, nil, tool("fb-analyze"), planned))
		ratios = append(ratios, (cmp.ChangeCI[1]-cmp.ChangeCI[0])/2/1)
	}
	slices.Sort(ratios)
	t.Logf("half-width / target: %v", ratios)
	if med := (ratios[4] + ratios[5]) / 2; med < 0.8 || med > 1.2 {
		t.Errorf("planned runs' half-width / target: %v (median %.2f), want a median within 20%% of 1", ratios, med)
	}
}

// writeNoisyStream writes a paired stream of n pairs whose log-ratios are
// independent normal noise with the given standard deviation.
func writeNoisyStream(t *testing.T, path string, n int, sd float64, seed uint64) {
	t.Helper()
	var buf bytes.Buffer
	w := ndjson.NewWriter(&buf)
	r := rand.New(rand.NewPCG(seed, 3))
	run := &ndjson.Run{RunID: fmt.Sprintf("noise-%d", seed), Tool: "fb-pair", Design: ndjson.DesignPaired,
		Batching: "equal-time", Config: ndjson.Config{Samples: n, SliceNS: 1e6},
		Cases: []ndjson.Case{{Index: 0, Name: "a", Command: "a"}, {Index: 1, Name: "b", Command: "b"}}}
	must(t, w.Write(run))
	for u := range n {
		first := u % 2
		for pos, c := range []int{first, 1 - first} {
			op := 1e6 * math.Exp(sd/math.Sqrt2*r.NormFloat64())
			must(t, w.Write(&ndjson.Sample{Case: c, Unit: u, Pos: pos, Seq: 2*u + pos, Iter: 1, WallNS: int64(op), OpNS: op}))
		}
	}
	must(t, w.Write(&ndjson.End{RunID: run.RunID, Reason: ndjson.EndCompleted, Units: n, Samples: []int{n, n},
		ElapsedNS: int64(n) * 3e6, SamplingNS: int64(n) * 2e6}))
	must(t, os.WriteFile(path, buf.Bytes(), 0o644))
}

func comparisonOf(t *testing.T, analyzed []byte) ndjson.Comparison {
	t.Helper()
	var cmp ndjson.Comparison
	for _, line := range bytes.Split(analyzed, []byte("\n")) {
		if bytes.Contains(line, []byte(`"type":"comparison"`)) {
			must(t, json.Unmarshal(line, &cmp))
		}
	}
	return cmp
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// run runs a tool with stdin and returns its stdout, failing on error.
func run(t *testing.T, stdin []byte, name string, args ...string) []byte {
	t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Stdin = bytes.NewReader(stdin)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		t.Fatalf("%s %v: %v\n%s", name, args, err, errb.String())
	}
	return out.Bytes()
}
