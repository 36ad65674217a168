package words

import (
	"fmt"

	"github.com/flybench/flybench/internal/report/model"
	"github.com/flybench/flybench/pkg/ndjson"
)

// Rate is work units per second with a metric prefix: "1.234 M units/s".
func Rate(v float64) string {
	for _, p := range []struct {
		f float64
		s string
	}{{1e12, "T"}, {1e9, "G"}, {1e6, "M"}, {1e3, "k"}} {
		if v >= p.f {
			return fmt.Sprintf("%s%s units/s", model.Sig4(v/p.f), p.s)
		}
	}
	return model.Sig4(v) + " units/s"
}

// Throughput is a card's throughput row.
func Throughput(t *ndjson.Throughput) string {
	return fmt.Sprintf("%s  95%% CI %s .. %s  (%s work units per operation; higher is better)",
		Rate(t.UnitsPerSec), Rate(t.CI[0]), Rate(t.CI[1]), model.Plain(t.WorkUnits))
}

// ThroughputChange is a comparison card's throughput row.
func ThroughputChange(t *ndjson.ThroughputChange, ci string) string {
	return fmt.Sprintf("%s improvement  %s %s  %s", model.Pct(t.ImprovementPct), ci, model.PctRange(t.CI), t.Verdict)
}
