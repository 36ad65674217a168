package figure

import (
	"testing"

	"gonum.org/v1/plot/plotter"

	"github.com/flybench/flybench/pkg/ndjson"
)

func TestOutsideDrifts(t *testing.T) {
	levels := plotter.XYs{{X: 0.5, Y: 1}, {X: 5.5, Y: 1}, {X: 5.5, Y: 2}, {X: 20.5, Y: 2}}
	if got := outsideDrifts(levels, nil); len(got) != 1 || len(got[0]) != 4 {
		t.Fatalf("without drifts: %v, want the line itself", got)
	}
	got := outsideDrifts(levels, []ndjson.SeriesDrift{{From: 10, To: 19}})
	if len(got) != 1 {
		t.Fatalf("pieces %v: want one, up to the drift", got)
	}
	p := got[0]
	if first, last := p[0], p[len(p)-1]; first != (plotter.XY{X: 0.5, Y: 1}) || last != (plotter.XY{X: 10.5, Y: 2}) {
		t.Errorf("piece from %v to %v: want (0.5, 1) to (10.5, 2), where the drift begins", first, last)
	}
	got = outsideDrifts(levels, []ndjson.SeriesDrift{{From: 1, To: 3}})
	if len(got) != 2 || got[0][len(got[0])-1].X != 1.5 || got[1][0].X != 4.5 || got[1][len(got[1])-1].X != 20.5 {
		t.Errorf("a drift inside the first level: %v, want pieces to 1.5 and from 4.5 to 20.5", got)
	}
}
