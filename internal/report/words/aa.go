package words

import (
	"fmt"
	"slices"
	"strings"

	"github.com/flybench/flybench/internal/report/model"
	"github.com/flybench/flybench/pkg/ndjson"
)

// AATitle names an A/A series: "A/A: CMD against itself, 20 runs (exec)".
func AATitle(a *ndjson.AA) string {
	return fmt.Sprintf("A/A: %s against itself, %s (%s)", a.Command, model.Plural(a.Runs, "run"), a.Mode)
}

// AAFalse is how many runs called the command different from itself,
// with the exact interval of that rate.
func AAFalse(a *ndjson.AA) string {
	return fmt.Sprintf("%d of %d runs called a difference (faster or slower); false-alarm rate %s, %s CI %.0f%% .. %.0f%%",
		a.False, a.Runs, pctOf(a.False, a.Runs), model.Confidence(a.ConfidencePct), 100*a.FalseRateCI[0], 100*a.FalseRateCI[1])
}

// AAInterval says how the series' intervals fell: how many exclude zero,
// the median and the largest change, and the median width.
func AAInterval(a *ndjson.AA) string {
	return fmt.Sprintf("%d of %d exclude zero (%s); median change %s, largest |change| %.2f%%, median width %.2f points, threshold ±%.1f%%",
		a.ExcludeZero, a.Runs, pctOf(a.ExcludeZero, a.Runs), model.Pct(a.MedianChangePct), a.MaxAbsChangePct, a.MedianWidthPct, a.ThresholdPct)
}

// AASpread is how the runs' changes scatter against their own intervals,
// "" when the record has no spread.
func AASpread(a *ndjson.AA) string {
	if a.Spread == nil || a.SpreadCI == nil {
		return ""
	}
	return fmt.Sprintf("the changes scatter %.2f× what their intervals allow (1 when calibrated), %s CI %.2f .. %.2f",
		*a.Spread, model.Confidence(a.ConfidencePct), a.SpreadCI[0], a.SpreadCI[1])
}

// AASpreadWarning is the warning of a series whose intervals are too
// narrow for its runs' scatter, "" otherwise.
func AASpreadWarning(a *ndjson.AA) string {
	if a.Spread == nil || a.SpreadCI == nil || a.SpreadCI[0] <= 1 {
		return ""
	}
	return fmt.Sprintf("the runs scatter more than their intervals allow (%.2f×, at least %.2f×): on this machine a single run's interval understates how far the next run may land", *a.Spread, a.SpreadCI[0])
}

// AAVerdicts counts the runs by verdict, in a fixed order.
func AAVerdicts(a *ndjson.AA) string {
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

// AASize is the series' size diagnostic, "" when no run measured one.
func AASize(a *ndjson.AA) string {
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
