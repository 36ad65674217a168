package measure

import (
	"fmt"
	"io"
	"math"
	"time"

	"github.com/flybench/flybench/internal/analyze"
	"github.com/flybench/flybench/internal/collect"
	"github.com/flybench/flybench/internal/field"
	"github.com/flybench/flybench/internal/runner"
	"github.com/flybench/flybench/pkg/ndjson"
	"github.com/flybench/flybench/pkg/stats"
)

// WritePlan writes a pilot's plan for people: per comparison, the spread
// and the units the half-width needs, the fb-pair command to run (its
// flags as names spells the request's fields) and the assumptions.
func WritePlan(w io.Writer, p analyze.RunPlan, est stats.Estimator, width float64, names field.Names) {
	run := p.Run
	unit := map[ndjson.Design]string{ndjson.DesignPaired: "pairs", ndjson.DesignRounds: "rounds"}[run.Design]
	if unit == "" {
		unit = "samples"
	}
	fmt.Fprintf(w, "plan for run %s (%s, %d cases): a half-width of %g%% at %g%% confidence, estimator %s\n",
		short(run.RunID), run.Design, len(run.Cases), width, p.ConfidencePct, estimatorOf(est))
	fmt.Fprintf(w, "  pilot: %d %s of %s batches", p.Plans[0].PilotUnits, unit, time.Duration(p.SliceNS))
	if p.UnitNS > 0 {
		fmt.Fprintf(w, ", %s per unit with overhead", time.Duration(p.UnitNS).Round(10*time.Microsecond))
	}
	fmt.Fprintln(w)
	for _, cp := range p.Plans {
		what := "mean of " + cp.Name
		if cp.Contender > 0 {
			what = cp.Name + " vs " + run.Cases[0].Name
		}
		fmt.Fprintf(w, "  %s: spread %.2f%% per unit, half-width now %.2f%% -> %d %s",
			what, 100*cp.SD, 100*math.Expm1(cp.PilotHalfWidth), cp.Units, unit)
		if cp.Units != cp.Unconstrained {
			fmt.Fprintf(w, " (%d computed; at least %d)", cp.Unconstrained, cp.Units)
		}
		fmt.Fprintln(w)
	}
	writeCommand(w, p, width, unit, names)
	fmt.Fprintf(w, "  assumptions: the run is like the pilot (same machine state, batch size and noise, whose\n"+
		"    spread and serial dependence are plugged in as measured: a pilot of %d units knows its spread to\n"+
		"    about ±%.0f%%, so the plan is provisional); half-width = Student t(n/3 df) x spread/sqrt(n). It sizes a\n"+
		"    fresh run; adding units to the pilot is not the same, and re-planning after each result is optional\n"+
		"    stopping (use %s for that). It is not a power analysis.\n",
		p.Plans[0].PilotUnits, 100/math.Sqrt(2*float64(p.Plans[0].PilotUnits)), names.Spell("Until.Rule"))
	if !p.Complete {
		fmt.Fprintf(w, "  warning: the pilot stream has no end record; its timing is unknown\n")
	}
}

// writeCommand suggests the fb-pair flags: the planned units at the
// pilot's batch size, or, beyond the samples' limit, the most samples with
// proportionally longer batches.
func writeCommand(w io.Writer, p analyze.RunPlan, width float64, unit string, names field.Names) {
	samplesFlag := names.Spell("Samples")
	run, n := p.Run, p.Units
	k := len(run.Cases)
	budget := time.Duration(int64(n) * int64(k) * p.SliceNS)
	samples := n
	note := ""
	if n > collect.MaxSamples {
		samples = collect.MaxSamples
		note = fmt.Sprintf(" (%d %s would exceed %s' limit of %d: batches %.1fx longer instead, assuming a batch's noise averages like independent runs)",
			n, unit, samplesFlag, collect.MaxSamples, float64(n)/collect.MaxSamples)
	}
	commands := make([]string, len(run.Cases))
	for i, c := range run.Cases {
		commands[i] = c.Command
	}
	fmt.Fprintf(w, "  run:  %s [the pilot's other options] %s %d %s %s -- %s%s\n",
		run.Tool, samplesFlag, samples, names.Spell("Measurement"), budget.Round(time.Millisecond), runner.QuoteCommand(commands), note)
	if p.UnitNS > 0 {
		est := time.Duration(p.UnitNS*float64(n)) + time.Duration(p.SetupNS)
		fmt.Fprintf(w, "        about %s in all (%s of sampling at the pilot's pace, %s of set-up)\n",
			est.Round(100*time.Millisecond), time.Duration(p.UnitNS*float64(n)).Round(100*time.Millisecond),
			time.Duration(p.SetupNS).Round(100*time.Millisecond))
		fmt.Fprintf(w, "  or:   %s [...] %s width=%g%% %s %s -- ...   (samples until the width is reached)\n",
			run.Tool, names.Spell("Until.Rule"), width, names.Spell("Until.MaxTime"), (est * 3 / 2).Round(time.Second))
	}
}

func short(id string) string {
	if len(id) > 8 {
		return id[:8]
	}
	return id
}

func estimatorOf(est stats.Estimator) string {
	if est == "" {
		return "robust"
	}
	return string(est)
}
