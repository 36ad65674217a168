package tests

import (
	"bytes"
	"encoding/json"
	"os/exec"
	"testing"

	"github.com/flybench/flybench/pkg/ndjson"
)

// TestReferenceWorkloadEndToEnd runs the built fb-pair with --reference
// int on two spin commands, with a PATH that does not hold fb-refwork: it
// must be found next to fb-pair. The reference rides the rounds as the
// third case, in every position equally often, and the analysis scores
// both commands in its units without comparing it.
func TestReferenceWorkloadEndToEnd(t *testing.T) {
	if testing.Short() {
		t.Skip("runs real processes for about a second")
	}
	cmd := exec.Command(tool("fb-pair"), "--progress", "none", "--reference", "int", "--samples", "12",
		"--warmup", "0", "-t", "300ms", "--", tool("spin")+" -n 1000", tool("spin")+" -n 3000")
	cmd.Env = []string{"PATH=/usr/bin:/bin"}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	stream, err := cmd.Output()
	if err != nil {
		t.Fatalf("fb-pair: %v\n%s", err, stderr.String())
	}
	var rec ndjson.Run
	positions := [3][3]int{}
	for _, line := range bytes.Split(stream, []byte("\n")) {
		switch {
		case bytes.Contains(line, []byte(`"type":"run"`)):
			must(t, json.Unmarshal(line, &rec))
		case bytes.Contains(line, []byte(`"type":"sample"`)):
			var s ndjson.Sample
			must(t, json.Unmarshal(line, &s))
			positions[s.Case][s.Pos]++
		}
	}
	if rec.Design != ndjson.DesignRounds || len(rec.Cases) != 3 || rec.Cases[2].Role != ndjson.RoleReferenceWorkload ||
		rec.Cases[2].Name != "reference-workload (int)" || rec.Cases[0].Role != "" || rec.Cases[1].Role != "" {
		t.Fatalf("run: design %q, cases %+v", rec.Design, rec.Cases)
	}
	if rec.Cases[2].Argv[0] != tool("fb-refwork") {
		t.Fatalf("reference argv %q: want fb-refwork from fb-pair's directory %q", rec.Cases[2].Argv, binDir)
	}
	if positions != [3][3]int{{4, 4, 4}, {4, 4, 4}, {4, 4, 4}} {
		t.Fatalf("samples per case and position %v: want each case 4 times in each position", positions)
	}
	analyzed := run(t, stream, tool("fb-analyze"))
	scored, compared := 0, 0
	for _, line := range bytes.Split(analyzed, []byte("\n")) {
		switch {
		case bytes.Contains(line, []byte(`"type":"summary"`)):
			var s ndjson.Summary
			must(t, json.Unmarshal(line, &s))
			if (s.Normalized != nil) != (s.Case != 2) {
				t.Fatalf("summary of case %d: normalized %+v", s.Case, s.Normalized)
			}
			if n := s.Normalized; n != nil && !(n.Score > 0 && n.CI[0] <= n.Score && n.Score <= n.CI[1] && n.ReferenceCase == 2) {
				t.Fatalf("case %d: score %+v", s.Case, n)
			}
			if s.Normalized != nil {
				scored++
			}
		case bytes.Contains(line, []byte(`"type":"comparison"`)):
			var k ndjson.Comparison
			must(t, json.Unmarshal(line, &k))
			if k.Contender == 2 {
				t.Fatal("the reference workload was compared as a contender")
			}
			compared++
		}
	}
	if scored != 2 || compared != 1 {
		t.Fatalf("%d scores and %d comparisons, want 2 and 1", scored, compared)
	}
}
