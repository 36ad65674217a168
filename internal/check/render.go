package check

import (
	"bytes"
	"fmt"
	"io"
	"strings"

	"github.com/flybench/flybench/internal/report/model"
	"github.com/flybench/flybench/pkg/ndjson"
)

// Render says how Write presents a result.
type Render struct {
	// Format is "console" (the default when empty), "markdown" or "ndjson".
	Format string
	// Color adds ANSI colours to the console format; the caller decides
	// (a terminal, no NO_COLOR).
	Color bool
	// Options are the thresholds the result was judged with.
	Options Options
	// Noise is the profile's file name, empty without one.
	Noise string
	// History names the store each case was also judged against, and
	// HistoryRuns how many of its newest comparable runs; empty without.
	History     string
	HistoryRuns int
}

// Formats lists the format names Write accepts.
func Formats() []string { return []string{"console", "markdown", "ndjson"} }

// Write renders res for the runs it judged to w. Output is rendered
// completely before the first byte is written.
func Write(w io.Writer, res Result, all []*Run, ro Render) error {
	var buf bytes.Buffer
	switch ro.Format {
	case "", "console":
		writeConsole(&buf, res, all, ro)
	case "markdown":
		writeMarkdown(&buf, res, all, ro)
	case "ndjson":
		if err := WriteRecords(&buf, res); err != nil {
			return err
		}
	default:
		return fmt.Errorf("unknown format %q (want %s)", ro.Format, strings.Join(Formats(), ", "))
	}
	if _, err := w.Write(buf.Bytes()); err != nil {
		return fmt.Errorf("write check: %w", err)
	}
	return nil
}

// WriteRecords writes one check record per run.
func WriteRecords(w io.Writer, res Result) error {
	nw := ndjson.NewWriter(w)
	for i := range res.Checks {
		if err := nw.Write(&res.Checks[i]); err != nil {
			return err
		}
	}
	return nil
}

// columns are the table's headings; row gives an item's cells in order.
var columns = []string{"subject", "metric", "kind", "design", "value", "threshold", "window", "result", "why"}

func row(it ndjson.CheckItem) []string {
	return []string{it.Subject, it.Metric, it.Kind, string(it.Design), formatValue(it), formatThreshold(it), formatWindow(it), it.Outcome, it.Why}
}

// describeRun says what a run is: "run 71c4e865: paired, 2 cases" and,
// for a baseline comparison, which baseline.
func describeRun(r *Run) string {
	s := fmt.Sprintf("run %s: %s, %s", model.ShortID(r.Run.RunID), r.Run.Design, model.Plural(len(r.Run.Cases), "case"))
	if b := r.Analysis.Baseline; b != nil {
		s += fmt.Sprintf(", against baseline %s (%s)", model.ShortID(b.RunID), b.File)
		if b.Normalized {
			s += ", reference-normalized scores"
		}
	}
	return s
}

// rules states the thresholds in one line.
func rules(opt Options) string {
	perOp := "no floor per operation"
	if opt.MemoryFloorOp > 0 {
		perOp = binaryBytes(opt.MemoryFloorOp) + " per operation"
	}
	return fmt.Sprintf("fails when time is %s or more slower and outside its window; memory grows %s or more, by at least %s (%s) and outside its window; a count changes for the worse",
		pct(opt.MaxSlowdownPct), pct(opt.MaxMemoryGrowthPct), binaryBytes(opt.MemoryFloor), perOp)
}

// noiseLine says where the windows' noise comes from.
func noiseLine(ro Render) string {
	s := "noise: " + ro.Noise
	if ro.Noise == "" {
		s = "noise: no profile (" + ro.Options.Names.Spell(FieldNoise) + "): each window is the comparison's own interval"
	}
	if ro.History != "" {
		s += fmt.Sprintf("; history: %s, each case against the median of its last %d comparable runs (at least %d), their spread as noise",
			ro.History, ro.HistoryRuns, MinHistoryRuns)
	}
	return s
}
