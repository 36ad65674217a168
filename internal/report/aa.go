package report

import (
	"bytes"
	"fmt"
	"slices"
	"strings"

	"github.com/flybench/flybench/internal/report/model"
	"github.com/flybench/flybench/pkg/ndjson"
)

// aaCards prints a card per A/A series after the runs.
func (c *console) aaCards(runs []*model.Run) {
	for _, a := range model.AAs(runs) {
		c.title("=", aaTitle(&a))
		c.row("false", aaFalseText(&a))
		c.row("intervals", aaIntervalText(&a))
		c.row("verdicts", aaVerdictsText(&a))
		if text := aaSizeText(&a); text != "" {
			c.row("sizes", text)
		}
		if a.Runs < a.Planned {
			c.warning(fmt.Sprintf("%d of %d runs were analysed: the series stopped early", a.Runs, a.Planned))
		}
	}
}

func aaTitle(a *ndjson.AA) string {
	return fmt.Sprintf("A/A: %s against itself, %s (%s)", a.Command, model.Plural(a.Runs, "run"), a.Mode)
}

// aaFalseText is how many runs called the command different from itself,
// with the exact interval of that rate.
func aaFalseText(a *ndjson.AA) string {
	return fmt.Sprintf("%d of %d runs called a difference (faster or slower); false-alarm rate %s, %s CI %.0f%% .. %.0f%%",
		a.False, a.Runs, pctOf(a.False, a.Runs), model.Confidence(a.ConfidencePct), 100*a.FalseRateCI[0], 100*a.FalseRateCI[1])
}

func aaIntervalText(a *ndjson.AA) string {
	return fmt.Sprintf("%d of %d exclude zero (%s); median change %s, largest |change| %.2f%%, median width %.2f points, threshold ±%.1f%%",
		a.ExcludeZero, a.Runs, pctOf(a.ExcludeZero, a.Runs), model.Pct(a.MedianChangePct), a.MaxAbsChangePct, a.MedianWidthPct, a.ThresholdPct)
}

// aaVerdictsText counts the runs by verdict, in a fixed order.
func aaVerdictsText(a *ndjson.AA) string {
	names := make([]string, 0, len(a.Verdicts))
	for v := range a.Verdicts {
		names = append(names, v)
	}
	slices.Sort(names)
	parts := make([]string, len(names))
	for i, v := range names {
		parts[i] = fmt.Sprintf("%s %d", v, a.Verdicts[v])
	}
	return strings.Join(parts, "  ")
}

// aaSizeText is the series' size diagnostic, "" when no run measured one.
func aaSizeText(a *ndjson.AA) string {
	var parts []string
	if a.SizeMedianPct != nil {
		parts = append(parts, fmt.Sprintf("time per operation %+.2f%%/doubling of the batch (median), significant in %d of %d runs", *a.SizeMedianPct, a.SizeSignificant, a.Runs))
	}
	if a.UnequalSizes > 0 {
		parts = append(parts, fmt.Sprintf("the sides ran different sizes in %d runs", a.UnequalSizes))
	}
	return strings.Join(parts, "; ")
}

func pctOf(k, n int) string {
	if n == 0 {
		return "-"
	}
	return fmt.Sprintf("%.0f%%", 100*float64(k)/float64(n))
}

// markdownAA writes a section per A/A series after the runs.
func markdownAA(w *bytes.Buffer, runs []*model.Run) {
	for _, a := range model.AAs(runs) {
		fmt.Fprintf(w, "\n### %s\n\n", mdEscape(aaTitle(&a)))
		for _, line := range []string{aaFalseText(&a), aaIntervalText(&a), aaVerdictsText(&a), aaSizeText(&a)} {
			if line != "" {
				fmt.Fprintf(w, "- %s\n", mdEscape(line))
			}
		}
	}
}
