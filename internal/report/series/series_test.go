package series

import (
	"bytes"
	"strings"
	"testing"

	"github.com/flybench/flybench/internal/golden"
	"github.com/flybench/flybench/pkg/ndjson"
)

func fixture() []ndjson.Series {
	ci := func(lo, hi float64) *[2]float64 { return &[2]float64{lo, hi} }
	return []ndjson.Series{
		{Series: ndjson.SeriesLevels, Case: "parse", Metric: "mean_ns", Class: "linux/amd64/Test CPU/2",
			Where: map[string]string{"branch": "main"}, Total: 4, Points: []ndjson.SeriesPoint{
				{RunID: "11111111-aaaa", Started: "2026-01-01T10:00:00.000000000Z", Revision: "a1", Value: 1200, CI: ci(1190, 1215), N: 20},
				{RunID: "22222222-bbbb", Started: "2026-01-02T10:00:00.000000000Z", Revision: "b|2", Value: 1210, CI: ci(1200, 1220), N: 20},
				{RunID: "33333333-cccc", Started: "2026-01-03T10:00:00.000000000Z", Value: 1320, CI: ci(1300, 1340), N: 18},
			},
			Detection: &ndjson.Detection{Method: "e-divisive means", Level: 0.01, Permutations: 199, MinSize: 1, Window: 50, ConfidencePct: 95, Seed: 1},
			Changes: []ndjson.SeriesChange{{Index: 2, BeforeRun: "22222222-bbbb", AfterRun: "33333333-cccc", BeforeRevision: "b|2",
				Before: 1205, After: 1320, ChangePct: 9.543568464730289, ChangeCI: ci(8.1, 11.0), P: 0.005,
				Range: &ndjson.ChangeRange{From: 1, To: 2, BeforeRun: "11111111-aaaa", AfterRun: "33333333-cccc", BeforeRevision: "a1"}}}},
		{Series: ndjson.SeriesLevels, Case: "a,b", Metric: "score", Total: 1, Points: []ndjson.SeriesPoint{
			{RunID: "44444444-dddd", Started: "2026-01-04T10:00:00Z", Value: 0.5, CI: ci(0.49, 0.51), N: 10},
		}, Detection: &ndjson.Detection{Method: "e-divisive means", Level: 0.05, Permutations: 199, MinSize: 3, Seed: 7}},
		{Series: ndjson.SeriesLevels, Case: "render", Metric: "median_ns", Class: "linux/amd64/Test CPU/2", Total: 5, Points: []ndjson.SeriesPoint{
			{RunID: "51111111-eeee", Started: "2026-02-01T10:00:00Z", Revision: "r1", Value: 1000, N: 30},
			{RunID: "52222222-eeee", Started: "2026-02-02T10:00:00Z", Revision: "r2", Value: 1012, N: 30},
			{RunID: "53333333-eeee", Started: "2026-02-03T10:00:00Z", Revision: "r3", Value: 1019, N: 30},
			{RunID: "54444444-eeee", Started: "2026-02-04T10:00:00Z", Revision: "r4", Value: 1031, N: 30},
			{RunID: "55555555-eeee", Started: "2026-02-05T10:00:00Z", Revision: "r5", Value: 1040, N: 30},
		}, Detection: &ndjson.Detection{Method: "e-divisive means", Level: 0.01, Permutations: 999, MinSize: 1, Window: 50, ConfidencePct: 95, Seed: 1},
			Drifts: []ndjson.SeriesDrift{{From: 0, To: 4, FromRun: "51111111-eeee", ToRun: "55555555-eeee", FromRevision: "r1", ToRevision: "r5",
				Start: 1001, End: 1040.6, ChangePct: 3.956043956043956, Changes: 2}}},
	}
}

func TestGolden(t *testing.T) {
	for _, f := range Formats() {
		var b bytes.Buffer
		if err := Write(&b, f, fixture()); err != nil {
			t.Fatal(err)
		}
		golden.Check(t, "series."+f+".golden", b.Bytes())
	}
}

func TestRefusesOtherFormats(t *testing.T) {
	var b bytes.Buffer
	if err := Write(&b, "html", fixture()); err == nil || !strings.Contains(err.Error(), "does not render series") || b.Len() != 0 {
		t.Errorf("html: %v, %q", err, b.String())
	}
}

func TestSparkline(t *testing.T) {
	pts := []ndjson.SeriesPoint{{Value: 1}, {Value: 8}, {Value: 4.5}, {Value: 1}}
	if got := sparkline(pts); got != "▁█▅▁" {
		t.Errorf("sparkline %q", got)
	}
	if got := sparkline(pts[:1]); got != "▁" {
		t.Errorf("one point: %q", got)
	}
}
