package runs

import (
	"strings"
	"testing"

	"github.com/flybench/flybench/pkg/ndjson"
)

const (
	procSample = `{"type":"sample","v":"1.4","case":1,"unit":0,"pos":0,"seq":0,"iter":1,"wall_ns":9,"op_ns":9,"proc":{"block":2,"attempt":1}}`
	block      = `{"type":"block","v":"1.4","run_id":"r1","block":2,"attempt":1,"order":[1,0],"orientation":"BA","status":"interrupted","reason":"interrupted by SIGINT","samples":[0,1]}`
)

// TestBlockPlacement: a block record belongs to the open run, and a
// sample carries its process block.
func TestBlockPlacement(t *testing.T) {
	recs, err := read(run1, procSample, block, end1)
	if err != nil {
		t.Fatal(err)
	}
	s := recs[1].Value.(*ndjson.Sample)
	if s.Proc == nil || *s.Proc != (ndjson.ProcessRef{Block: 2, Attempt: 1}) {
		t.Fatalf("sample proc %+v", s.Proc)
	}
	b, ok := recs[2].Value.(*ndjson.Block)
	if recs[2].Run != recs[0].Run || !ok || b.Status != ndjson.BlockInterrupted || b.Orientation != "BA" {
		t.Fatalf("block %+v in run %v", recs[2].Value, recs[2].Run)
	}
}

func TestBlockRefusals(t *testing.T) {
	for rec, want := range map[string]string{
		strings.Replace(block, `"run_id":"r1"`, `"run_id":"r9"`, 1):          "block record for run r9 inside run r1",
		strings.Replace(block, `"block":2`, `"block":-1`, 1):                 "both count from 0",
		strings.Replace(block, `"samples":[0,1]`, `"samples":[1]`, 1):        "1 sample counts, but run r1 has 2 cases",
		strings.Replace(block, `"interrupted","reason"`, `"ok","reason"`, 1): `status "ok"`,
	} {
		_, err := read(run1, rec)
		if err == nil || !strings.Contains(err.Error(), "in:2: ") || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want %q", rec, err, want)
		}
	}
	if _, err := read(run1, end1, block); err == nil || !strings.Contains(err.Error(), "block record after the end record") {
		t.Errorf("a block after the end: %v", err)
	}
}
