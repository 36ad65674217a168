package report

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/flybench/flybench/internal/report/figure"
	"github.com/flybench/flybench/internal/report/model"
	"github.com/flybench/flybench/pkg/ndjson"
)

// seriesFixture is a levels series of 24 runs with revisions and mean
// intervals, a step up at run 9 and one back down at run 17 (as
// fb-history show marks them), and a chain of 12 runs without change
// points looked for.
func seriesFixture() []ndjson.Series {
	levels := ndjson.Series{Series: ndjson.SeriesLevels, Case: "parse", Metric: "mean_ns", Class: "linux/amd64/Test CPU/2",
		Where: map[string]string{"branch": "main"}, Total: 30,
		Detection: &ndjson.Detection{Method: "e-divisive means", Level: 0.01, Permutations: 999, MinSize: 3, Window: 50, ConfidencePct: 95, Seed: 1}}
	for i := range 24 {
		v := 1.2e6 * (1 + 0.004*math.Sin(float64(i*7)))
		if i >= 8 && i < 16 {
			v *= 1.08
		}
		levels.Points = append(levels.Points, ndjson.SeriesPoint{RunID: fmt.Sprintf("%08d-run", i+1), Started: fmt.Sprintf("2026-01-%02dT10:00:00Z", i+1),
			Revision: fmt.Sprintf("r%03d", 100+i), Value: v, CI: &[2]float64{v * 0.99, v * 1.01}, N: 20})
	}
	levels.Changes = []ndjson.SeriesChange{
		{Index: 8, BeforeRun: "00000008-run", AfterRun: "00000009-run", BeforeRevision: "r107", AfterRevision: "r108",
			Before: 1.2e6, After: 1.296e6, ChangePct: 8, ChangeCI: &[2]float64{7.4, 8.6}, P: 0.005},
		{Index: 16, BeforeRun: "00000016-run", AfterRun: "00000017-run", BeforeRevision: "r115", AfterRevision: "r116",
			Before: 1.296e6, After: 1.2e6, ChangePct: -7.407, ChangeCI: &[2]float64{-7.9, -6.9}, P: 0.005},
	}
	chain := ndjson.Series{Series: ndjson.SeriesChain, Case: "new", Reference: "old", Metric: "time_ratio", Total: 12}
	prod, se := 1.0, 0.0
	for i := range 12 {
		prod *= 1 + 0.01*math.Cos(float64(i))
		se = math.Sqrt(se*se + 0.005*0.005)
		chain.Points = append(chain.Points, ndjson.SeriesPoint{RunID: fmt.Sprintf("c%07d-run", i+1), Started: fmt.Sprintf("2026-02-%02dT10:00:00Z", i+1),
			Value: prod, CI: &[2]float64{prod * math.Exp(-1.96*se), prod * math.Exp(1.96*se)}, N: 30})
	}
	return []ndjson.Series{levels, chain}
}

// TestSeriesFigureGolden: the plot of each fixture series, byte for byte,
// and what inlining needs (as TestFigureSVG checks for a run's plots).
func TestSeriesFigureGolden(t *testing.T) {
	for i, s := range seriesFixture() {
		fig, err := figure.DrawSeries(&s)
		check(t, err)
		again, err := figure.DrawSeries(&s)
		check(t, err)
		golden(t, "figure-series-"+s.Series+".svg", fig.SVG)
		svg := string(fig.SVG)
		switch {
		case fig.Name != "series" || !strings.HasPrefix(svg, "<svg ") || !strings.Contains(svg[:300], `role="img"`):
			t.Errorf("series %d: not one <svg role=img> named series: %.200s", i, svg)
		case !strings.Contains(svg[:200], `viewBox="0 0 `) || !strings.Contains(svg, "<title>"+fig.Title+"</title>"):
			t.Errorf("series %d: no viewBox or title", i)
		case idAttr.MatchString(svg) || strings.Contains(svg, "href=") || strings.Contains(svg, "url("):
			t.Errorf("series %d: an id or an external reference", i)
		case !bytes.Equal(fig.SVG, again.SVG):
			t.Errorf("series %d: drawn twice, the bytes differ", i)
		}
	}
}

// TestSeriesFigureSays: the plot's title, axes, legend and marks say what
// the series is, and its text alternative gives the change points with
// their runs, magnitudes and intervals.
func TestSeriesFigureSays(t *testing.T) {
	all := seriesFixture()
	levels, err := figure.DrawSeries(&all[0])
	check(t, err)
	for _, want := range []string{"Mean of parse per run", "mean time per operation (ms)", "run, oldest first (labelled with its revision)",
		"r100", "r109", "r119", "+8.0% (+7.4% .. +8.6%)", "-7.4% (-7.9% .. -6.9%)", "level between change points (median)",
		"change point: change and 95% interval", "mean of each run", "its interval (fb-analyze&#39;s)"} {
		if !strings.Contains(string(levels.SVG), want) {
			t.Errorf("levels plot lacks %q", want)
		}
	}
	for _, want := range []string{"24 runs (of 30 stored)", "first 1.200 ms", "2 change points (95% intervals)",
		"from run 9 (revision r108) on +8.0% (+7.4% .. +8.6%) (1.200 ms → 1.296 ms)", "from run 17 (revision r116) on -7.4%"} {
		if !strings.Contains(levels.Alt, want) {
			t.Errorf("levels alt lacks %q:\n%s", want, levels.Alt)
		}
	}
	chain, err := figure.DrawSeries(&all[1])
	check(t, err)
	for _, want := range []string{"Chained paired changes of new against old", "time ratio product, contender/reference", "no change (ratio 1)", "run, oldest first"} {
		if !strings.Contains(string(chain.SVG), want) {
			t.Errorf("chain plot lacks %q", want)
		}
	}
	if !strings.Contains(chain.Alt, "change points not looked for") || strings.Contains(string(chain.SVG), "change point:") {
		t.Errorf("chain without detection: %s", chain.Alt)
	}
}

// TestSeriesHTMLAndSVG: --format html draws every series with its table;
// --format svg --plot series writes the one series' plot, and refuses a
// stream of two, another plot, and the series plot of runs.
func TestSeriesHTMLAndSVG(t *testing.T) {
	all := seriesFixture()
	page := renderStream(t, &model.Stream{Series: all}, Options{Format: "html"})
	golden(t, "html-series.html", page)
	for _, want := range []string{`<section id="series-1"`, `<figure id="series-1-series"`, `<section id="series-2"`,
		"<title>Mean of parse per run</title>", "<figcaption>Series of the mean of parse per run over 24 runs (of 30 stored)", "<td>r108</td>", "▲ &#43;8.0%", "2 change point(s) (e-divisive means, level 0.01, 999 permutations, windows of 50, seed 1):"} {
		if !bytes.Contains(page, []byte(want)) {
			t.Errorf("html page lacks %q", want)
		}
	}
	one := &model.Stream{Series: all[:1]}
	out := renderStream(t, one, Options{Format: "svg", Plot: "series"})
	fig, err := figure.DrawSeries(&all[0])
	check(t, err)
	if !bytes.Equal(out, fig.SVG) {
		t.Errorf("svg format wrote %d bytes, not the series plot", len(out))
	}
	for _, tc := range []struct {
		s    *model.Stream
		plot string
		want string
	}{
		{&model.Stream{Series: all}, "series", "--plot series draws one series and the stream has 2 (parse linux/amd64/Test CPU/2; new): write one with fb-history show --case NAME --class CLASS"},
		{one, "ratios", `--plot "ratios": a stream of series (fb-history show) has one plot: series`},
		{&model.Stream{Runs: fixtureRuns(t)}, "series", "--plot series draws fb-history's series and the stream has none"},
	} {
		var buf bytes.Buffer
		err := WriteStream(&buf, tc.s, Options{Format: "svg", Plot: tc.plot})
		var pe *PlotError
		if !errors.As(err, &pe) || !strings.Contains(pe.Named(flags).Error(), tc.want) || buf.Len() != 0 {
			t.Errorf("%s: %v, want a plot error with %q", tc.plot, err, tc.want)
		}
	}
}

// TestSeriesFigureDrift: a drift draws its fitted line in place of the
// level line over its runs, is in the legend, and its text alternative
// gives its change and runs.
func TestSeriesFigureDrift(t *testing.T) {
	s := ndjson.Series{Series: ndjson.SeriesLevels, Case: "render", Metric: "median_ns", Total: 20,
		Detection: &ndjson.Detection{Method: "e-divisive means", Level: 0.01, Permutations: 999, MinSize: 3, Window: 50, ConfidencePct: 95, Seed: 1}}
	for i := range 20 {
		v := 1e6
		if i >= 5 {
			v *= 1.08
		}
		if i >= 10 {
			v *= 1 + 0.05*float64(i-10)/9
		}
		s.Points = append(s.Points, ndjson.SeriesPoint{RunID: fmt.Sprintf("%08d-run", i+1), Started: fmt.Sprintf("2026-03-%02dT10:00:00Z", i+1),
			Revision: fmt.Sprintf("r%d", i+1), Value: v, N: 20})
	}
	s.Changes = []ndjson.SeriesChange{{Index: 5, BeforeRun: "00000005-run", AfterRun: "00000006-run", Before: 1e6, After: 1.08e6, ChangePct: 8, P: 0.001}}
	s.Drifts = []ndjson.SeriesDrift{{From: 10, To: 19, FromRun: "00000011-run", ToRun: "00000020-run", FromRevision: "r11", ToRevision: "r20",
		Start: 1.08e6, End: 1.134e6, ChangePct: 5, Changes: 2}}
	fig, err := figure.DrawSeries(&s)
	check(t, err)
	for _, want := range []string{"drift: least-squares line over its runs", "level between change points (median)", "+8.0%"} {
		if !strings.Contains(string(fig.SVG), want) {
			t.Errorf("plot lacks %q", want)
		}
	}
	for _, want := range []string{"a drift of +5.0% from run 11 (revision r11) to run 20 (revision r20) (1.080 ms → 1.134 ms on the fitted line)", "1 change point (95% intervals)"} {
		if !strings.Contains(fig.Alt, want) {
			t.Errorf("alt lacks %q:\n%s", want, fig.Alt)
		}
	}
}
