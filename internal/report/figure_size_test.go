package report

import (
	"fmt"
	"testing"

	"github.com/flybench/flybench/internal/report/figure"
	"github.com/flybench/flybench/internal/report/model"
)

// figureBudget is what all of a run's figures may weigh together: the
// HTML report inlines them.
const figureBudget = 1_500_000

// TestFigureSize keeps the figures of a 1,000-pair run and of a 16-case
// run of 1,000 rounds under the budget: strip points, pairs and
// telemetry lines are thinned.
func TestFigureSize(t *testing.T) {
	for _, r := range []*model.Run{bigPairRun(t, 1000), sixteenRun(t, 1000)} {
		figs, err := figure.OfRun(r)
		check(t, err)
		total := 0
		var sizes string
		for _, f := range figs {
			total += len(f.SVG)
			sizes += fmt.Sprintf(" %s=%d", f.Name, len(f.SVG))
		}
		t.Logf("%d cases, %d samples:%s total=%d", len(r.Run.Cases), r.Samples.Len(), sizes, total)
		if total > figureBudget {
			t.Errorf("%d cases: figures weigh %d bytes, over the %d budget", len(r.Run.Cases), total, figureBudget)
		}
	}
}

func benchmarkFigures(b *testing.B, r *model.Run) {
	b.ReportAllocs()
	for b.Loop() {
		if _, err := figure.OfRun(r); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkFigures1000Pairs(b *testing.B) { benchmarkFigures(b, bigPairRun(b, 1000)) }

func BenchmarkFigures16Cases(b *testing.B) { benchmarkFigures(b, sixteenRun(b, 1000)) }
