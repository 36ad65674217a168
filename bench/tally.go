package main

import (
	"fmt"
	"math"
	"time"

	"github.com/flybench/flybench/pkg/ndjson"
)

// tally is one cell's record over its trials, from the runs that completed.
type tally struct {
	done, failed int
	wrong        int     // false verdicts: A/A any direction, A/B the wrong one
	detected     int     // A/B: reference faster, the right direction
	errMedian    float64 // median of estimate − truth
	errMax       float64 // largest |estimate − truth|
	widthMedian  float64 // median interval width, percentage points
}

// tallyOf counts a cell's outcomes against the truth of its kind.
func tallyOf(outs []outcome, kind string, truth float64) tally {
	var t tally
	var errs, widths []float64
	for _, o := range outs {
		if o.err != nil {
			t.failed++
			continue
		}
		t.done++
		switch {
		case o.verdict == string(ndjson.VerdictReferenceFaster) && kind == "A/B":
			t.detected++
		case o.verdict == string(ndjson.VerdictReferenceFaster), o.verdict == string(ndjson.VerdictContenderFaster):
			t.wrong++
		}
		errs = append(errs, o.change-truth)
		widths = append(widths, o.ci[1]-o.ci[0])
		t.errMax = max(t.errMax, math.Abs(o.change-truth))
	}
	t.errMedian, t.widthMedian = median(errs), median(widths)
	return t
}

// count is "k/n" of the completed runs.
func (t tally) count(k int) string { return fmt.Sprintf("%d/%d", k, t.done) }

// pct formats a percentage of the completed runs, "-" when none completed.
func (t tally) pct(format string, v float64) string {
	if t.done == 0 {
		return "-"
	}
	return fmt.Sprintf(format, v)
}

// printSummary prints one row per load and method: A/A's false verdicts,
// largest |estimate| and interval width; A/B's detections, wrong-sign
// verdicts, estimate errors and width; the median wall time and failures.
func (e *experiment) printSummary() {
	fmt.Printf("\n  -- summary: %d trials per cell; A/A truth 0, A/B truth %+.2f%% (idle paired run); error = estimate - truth; width = interval width\n",
		e.trials, e.truth)
	w := e.cellWidth() - len("A/A ")
	fmt.Printf("  %-8s %-*s | %-27s | %-45s |\n", "", w, "", "A/A", "A/B")
	fmt.Printf("  %-8s %-*s | %9s %9s %7s | %9s %7s %8s %9s %7s | %8s %6s\n", "load", w, "method",
		"false", "max|est|", "width", "detected", "false", "err med", "max|err|", "width", "elapsed", "failed")
	for _, load := range e.loads {
		for _, m := range e.methods {
			aa := tallyOf(e.results[cellKey{load, "A/A", m.name}], "A/A", 0)
			ab := tallyOf(e.results[cellKey{load, "A/B", m.name}], "A/B", e.truth)
			fmt.Printf("  %-8s %-*s | %9s %9s %7s | %9s %7s %8s %9s %7s | %8s %6d\n", load, w, m.name,
				aa.count(aa.wrong), aa.pct("%.2f%%", aa.errMax), aa.pct("%.2f%%", aa.widthMedian),
				ab.count(ab.detected), ab.count(ab.wrong), ab.pct("%+.2f%%", ab.errMedian),
				ab.pct("%.2f%%", ab.errMax), ab.pct("%.2f%%", ab.widthMedian),
				e.medianElapsed(load, m.name), aa.failed+ab.failed)
		}
	}
	fmt.Printf("  (false: A/A any directional verdict, A/B \"contender faster\"; detected: A/B \"reference faster\", its interval above +%g%%)\n", thresholdPct)
	fmt.Printf("  reproduce: %s\n", e.command())
}

// medianElapsed is the median wall time of a load and method's runs, both
// kinds, failed runs included.
func (e *experiment) medianElapsed(load, method string) string {
	var secs []float64
	for _, k := range kinds {
		for _, o := range e.results[cellKey{load, k, method}] {
			secs = append(secs, o.elapsed.Seconds())
		}
	}
	if len(secs) == 0 {
		return "-"
	}
	return (time.Duration(median(secs)*1e9) * time.Nanosecond).Round(100 * time.Millisecond).String()
}
