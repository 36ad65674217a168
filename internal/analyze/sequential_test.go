package analyze

import (
	"math"
	"testing"

	"github.com/flybench/flybench/pkg/ndjson"
)

// The final look's level is replayed from the look records: the share of
// the error rate of the look that ended the run, linear in elapsed time
// since the last look that spent, or everything left for a final look or
// a stream cut before one.
func TestFinalLookLevel(t *testing.T) {
	looks := []ndjson.Look{
		{Fraction: 0.02, Spent: false},
		{Fraction: 0.0625, Spent: true},
		{Fraction: 0.125, Spent: true},
		{Fraction: 0.25, Spent: true, Met: true},
	}
	if got, want := finalLookLevel(looks, 95), 100-5*(0.25-0.125); math.Abs(got-want) > 1e-9 {
		t.Errorf("settled at 1/4 after 1/8: level %v, want %v", got, want)
	}
	looks[3] = ndjson.Look{Fraction: 1, Spent: true, Final: true}
	if got, want := finalLookLevel(looks, 95), 100-5*(1-0.125); math.Abs(got-want) > 1e-9 {
		t.Errorf("final look after 1/8: level %v, want %v", got, want)
	}
	if got, want := finalLookLevel(looks[:3], 90), 100-10*(1-0.125); math.Abs(got-want) > 1e-9 {
		t.Errorf("cut after 1/8 at 90%%: level %v, want %v", got, want)
	}
	if got := finalLookLevel(nil, 95); got != 95 {
		t.Errorf("no looks: level %v, want the overall 95", got)
	}
}
