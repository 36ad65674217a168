package runs

import (
	"fmt"
	"strings"
	"testing"
)

func sampleLine(c, unit int) string {
	return fmt.Sprintf(`{"type":"sample","v":"1.7","case":%d,"unit":%d,"pos":%d,"seq":%d,"iter":1,"wall_ns":9,"op_ns":9}`, c, unit, c, 2*unit+c)
}

// TestUnitTwiceRefused: a case's sample for a unit that already has one
// is refused at its line (flybench issue 21, item 7: a pair repeated in
// the stream was analysed as 115 pairs of a run whose end record says
// 114).
func TestUnitTwiceRefused(t *testing.T) {
	lines := []string{run1}
	for u := range 3 {
		lines = append(lines, sampleLine(0, u), sampleLine(1, u))
	}
	lines = append(lines, sampleLine(0, 1))
	recs, err := read(lines...)
	want := "in:8: second sample of case 0 for unit 1 in run r1: a unit holds one sample per case; remove the repeated line (a stream or part of one copied twice?)"
	if err == nil || err.Error() != want || len(recs) != 7 {
		t.Fatalf("%d records, %v\nwant %s", len(recs), err, want)
	}
}

// TestUnitsOfEachRunApart: the same units in another run, or in the same
// run_id's next run record, are not repeats; nor are units far apart.
func TestUnitsOfEachRunApart(t *testing.T) {
	lines := []string{run1, sampleLine(0, 0), sampleLine(1, 0), end1, run1, sampleLine(0, 0), sampleLine(1, 0),
		sampleLine(0, 1<<30), sampleLine(0, 1<<30+1), sampleLine(1, 1<<30), sampleLine(0, 2), sampleLine(0, 70000)}
	if _, err := read(lines...); err != nil {
		t.Fatal(err)
	}
	_, err := read(append(lines, sampleLine(0, 1<<30+1))...)
	if err == nil || !strings.Contains(err.Error(), "second sample of case 0 for unit 1073741825") {
		t.Fatalf("a repeat far out: %v", err)
	}
}

// TestUnitSetMovesFarUnits: a unit first kept in the map is still found
// once the bit set has grown over it.
func TestUnitSetMovesFarUnits(t *testing.T) {
	var s unitSet
	if s.add(100000) {
		t.Fatal("first add")
	}
	for u := range 8000 {
		if s.add(u) {
			t.Fatalf("unit %d", u)
		}
	}
	if !s.add(100000) || !s.add(7999) || s.add(8000) {
		t.Fatal("repeats not found")
	}
	if len(s.bits)*64 <= 100000 || len(s.sparse) != 0 {
		t.Fatalf("%d words, %d in the map", len(s.bits), len(s.sparse))
	}
}
