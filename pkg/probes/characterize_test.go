package probes

import (
	"testing"

	"github.com/flybench/flybench/pkg/ndjson"
)

// scriptedClock returns t, then advances t by the next scripted step,
// cycling through the script.
type scriptedClock struct {
	t     int64
	steps []int64
	i     int
}

func (c *scriptedClock) Now() int64 {
	now := c.t
	c.t += c.steps[c.i%len(c.steps)]
	c.i++
	return now
}

func TestCharacterize(t *testing.T) {
	tests := []struct {
		name  string
		steps []int64 // the step after each read; pairs see steps 0, 2, 4, ...
		reads int
		want  ndjson.Clock
	}{
		{
			name:  "fine clock",
			steps: []int64{30, 1000, 25, 1000, 40, 1000, 25, 1000},
			reads: 4,
			want:  ndjson.Clock{ObservedStepNS: 25, ReadMedianNS: 27.5, ReadMinNS: 25},
		},
		{
			name:  "odd count",
			steps: []int64{50, 7, 20, 7, 90, 7},
			reads: 3,
			want:  ndjson.Clock{ObservedStepNS: 20, ReadMedianNS: 50, ReadMinNS: 20},
		},
		{
			// A 1 ms tick read in 30 ns: most pairs see no tick at all.
			name:  "coarse clock",
			steps: []int64{0, 0, 0, 0, 0, 0, 1e6, 0},
			reads: 4,
			want:  ndjson.Clock{ObservedStepNS: 1e6, ReadMedianNS: 0, ReadMinNS: 0},
		},
		{
			name:  "frozen clock",
			steps: []int64{0},
			reads: 5,
			want:  ndjson.Clock{},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Characterize(&scriptedClock{t: 1e9, steps: tt.steps}, "fake", 1, tt.reads)
			tt.want.Backend, tt.want.NominalNS = "fake", 1
			if got != tt.want {
				t.Errorf("Characterize = %+v, want %+v", got, tt.want)
			}
		})
	}
}

func TestCharacterizeDefaultReads(t *testing.T) {
	c := &scriptedClock{steps: []int64{10}}
	got := Characterize(c, "fake", 1, 0)
	if c.i != 2*DefaultReads {
		t.Errorf("took %d reads, want %d", c.i, 2*DefaultReads)
	}
	if got.ReadMedianNS != 10 || got.ReadMinNS != 10 || got.ObservedStepNS != 10 {
		t.Errorf("Characterize = %+v, want 10 ns everywhere", got)
	}
}

// backwardsClock steps back once; Characterize counts that pair as 0.
func TestCharacterizeBackwards(t *testing.T) {
	c := &scriptedClock{t: 100, steps: []int64{-50, 0, 20, 0, 30, 0}}
	got := Characterize(c, "fake", 1, 3)
	want := ndjson.Clock{Backend: "fake", NominalNS: 1, ObservedStepNS: 20, ReadMedianNS: 20, ReadMinNS: 0}
	if got != want {
		t.Errorf("Characterize = %+v, want %+v", got, want)
	}
}
