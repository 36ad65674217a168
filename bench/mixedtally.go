package main

import (
	"encoding/json"
	"fmt"
	"maps"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/flybench/flybench/pkg/ndjson"
	"github.com/flybench/flybench/pkg/stats"
)

// oracleWidth is the width, in percentage points, of the interval the
// run's own pairs would give if they were independent: the log ratio
// contender/reference of every unit with both cases' samples (only the
// units of windows the watch judged clean, when it recorded windows),
// 2·1.96·sd/√n around their mean, as a change in percent; and the number
// of pairs. The width is NaN with fewer than two pairs.
func oracleWidth(stream []byte) (float64, int, error) {
	ops := map[int]*[2]float64{} // per unit: reference's and contender's op_ns
	clean := map[int]bool{}
	watched := false
	err := scanRecords(stream, func(typ string, raw []byte) error {
		switch typ {
		case ndjson.TypeSample:
			var s ndjson.Sample
			if err := json.Unmarshal(raw, &s); err != nil {
				return fmt.Errorf("sample record: %w", err)
			}
			if s.Case == 0 || s.Case == 1 {
				if ops[s.Unit] == nil {
					ops[s.Unit] = &[2]float64{}
				}
				ops[s.Unit][s.Case] = s.OpNS
			}
		case ndjson.TypeWindow:
			var w ndjson.Window
			if err := json.Unmarshal(raw, &w); err != nil {
				return fmt.Errorf("window record: %w", err)
			}
			watched = true
			for u := w.FirstUnit; u < w.FirstUnit+w.Units && w.Verdict == ndjson.WindowClean; u++ {
				clean[u] = true
			}
		}
		return nil
	})
	var logs []float64
	for _, u := range slices.Sorted(maps.Keys(ops)) {
		if op := ops[u]; op[0] > 0 && op[1] > 0 && (!watched || clean[u]) {
			logs = append(logs, math.Log(op[1]/op[0]))
		}
	}
	if err != nil || len(logs) < 2 {
		return math.NaN(), len(logs), err
	}
	mean, half := stats.Mean(logs), 1.959964*stats.SD(logs)/math.Sqrt(float64(len(logs)))
	return 100 * (math.Exp(mean+half) - math.Exp(mean-half)), len(logs), nil
}

// mixedTally is one cell's record: the decisive section's tally, how many
// intervals covered the truth, the median oracle width (NaN when none)
// and pair count (-1 when the method has no oracle), and the median wall
// time.
type mixedTally struct {
	tally
	covered int
	oracle  float64
	pairs   float64
	wall    string
}

// mixedTallyOf counts a cell's outcomes against the truth of its kind.
func mixedTallyOf(outs []mixedOutcome, kind string, truth float64) mixedTally {
	var plain []outcome
	var oracles, pairs, secs []float64
	t := mixedTally{wall: "-", pairs: -1}
	for _, o := range outs {
		plain = append(plain, o.outcome)
		secs = append(secs, o.elapsed.Seconds())
		if o.err != nil {
			continue
		}
		if o.ci[0] <= truth && truth <= o.ci[1] {
			t.covered++
		}
		if !math.IsNaN(o.oracle) {
			oracles = append(oracles, o.oracle)
		}
		if o.pairs >= 0 {
			pairs = append(pairs, float64(o.pairs))
		}
	}
	t.tally = tallyOf(plain, kind, truth)
	t.oracle = math.NaN()
	if len(oracles) > 0 {
		t.oracle = median(oracles)
	}
	if len(pairs) > 0 {
		t.pairs = median(pairs)
	}
	if len(secs) > 0 {
		t.wall = (time.Duration(median(secs)*1e9) * time.Nanosecond).Round(100 * time.Millisecond).String()
	}
	return t
}

// columns is a cell's summary columns: runs, false verdicts, (for A/B)
// found, coverage, median width, median oracle width and its clean pairs,
// and wall time.
func (t mixedTally) columns(kind string) string {
	oracle, pairs := "-", "-"
	if !math.IsNaN(t.oracle) {
		oracle = fmt.Sprintf("%.2f", t.oracle)
	}
	if t.pairs >= 0 {
		pairs = fmt.Sprintf("%.0f", t.pairs)
	}
	found := ""
	if kind == "A/B" {
		found = fmt.Sprintf(" %6s", t.count(t.detected))
	}
	return fmt.Sprintf("%4d%s %6s %6s %6s %6s %5s %7s", t.done, found, t.count(t.wrong), t.count(t.covered),
		t.pct("%.2f", t.widthMedian), oracle, pairs, t.wall)
}

// goals marks a row against the issues' goals: A/A never a difference,
// the compute-bound 2% found in at least 9/10 (issue 19), the memory-bound
// 3% in at least 8/10 (issue 22), intervals covering the
// truth in at least 93%, widths within 1.3x of the oracle's; "-" where a
// goal does not apply.
func goals(program string, aa, ab mixedTally) string {
	mark := func(ok bool) string { return map[bool]string{true: "ok", false: "NO"}[ok] }
	marks := []string{"A/A " + mark(aa.done > 0 && aa.wrong == 0), "found -", "cover -", "width -"}
	switch program {
	case "compute":
		marks[1] = "2% " + mark(ab.done > 0 && 10*ab.detected >= 9*ab.done)
	case "memory":
		marks[1] = "3% " + mark(ab.done > 0 && 10*ab.detected >= 8*ab.done)
	}
	if done := aa.done + ab.done; done > 0 {
		marks[2] = "cover " + mark(float64(aa.covered+ab.covered) >= coverGoal*float64(done))
	}
	if !math.IsNaN(aa.oracle) && !math.IsNaN(ab.oracle) {
		marks[3] = "width " + mark(aa.widthMedian <= widthGoal*aa.oracle && ab.widthMedian <= widthGoal*ab.oracle)
	}
	row := strings.Join(marks, ", ")
	if !strings.Contains(row, "NO") {
		row += "  => meets every goal that applies"
	}
	return row
}

// printSummary prints one row per program and method, A/A then A/B, and
// each row's marks against the goals.
func (m *mixedRun) printSummary() {
	fmt.Printf("\n  -- summary: %d trials per cell; A/A truth 0, A/B truth each program's quiet run:", m.trials)
	for _, p := range m.programs {
		fmt.Printf(" %s %+.2f%%", p, m.truths[p])
		if t, ok := m.pinnedTruths[p]; ok {
			fmt.Printf(" (pinned %+.2f%%)", t)
		}
	}
	fmt.Println()
	fmt.Println("  false: A/A any directional verdict, A/B \"contender faster\"; found: A/B \"reference faster\"; cover: the interval contains the truth;")
	fmt.Println("  width: median interval width, oracle: median width of the run's own clean pairs taken as independent (percentage points),")
	fmt.Println("  clean: median count of those pairs (in windows the watch judged clean); wall: median wall time")
	fmt.Printf("  goals (issue 19, at 20 s per comparison; this run: %v): A/A never a difference; compute-bound 2%% found in >= 9/10, memory-bound 3%% in >= 8/10;\n", m.budget)
	fmt.Printf("  intervals cover the quiet truth in >= %.0f%%; widths within %.1fx of the oracle width\n", 100*coverGoal, widthGoal)
	head := fmt.Sprintf("%4s %6s %6s %6s %6s %5s %7s", "runs", "false", "cover", "width", "oracle", "clean", "wall")
	headB := fmt.Sprintf("%4s %6s %6s %6s %6s %6s %5s %7s", "runs", "found", "false", "cover", "width", "oracle", "clean", "wall")
	fmt.Printf("  %-8s %-10s | A/A %s | A/B %s | goals\n", "program", "method", head, headB)
	for _, p := range m.programs {
		for _, name := range m.methods {
			aa := mixedTallyOf(m.results[cellKey{p, "A/A", name}], "A/A", 0)
			ab := mixedTallyOf(m.results[cellKey{p, "A/B", name}], "A/B", m.truthOf(p, name))
			fmt.Printf("  %-8s %-10s | A/A %s | A/B %s | %s", p, name, aa.columns("A/A"), ab.columns("A/B"), goals(p, aa, ab))
			if failed := aa.failed + ab.failed; failed > 0 {
				fmt.Printf("  (%d failed)", failed)
			}
			fmt.Println()
		}
	}
	fmt.Printf("  reproduce: %s (the interferer seeds are in the per-run tables)\n", m.command())
}
