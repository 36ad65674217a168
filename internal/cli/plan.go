package cli

import (
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"time"

	ucli "github.com/urfave/cli/v2"

	"github.com/flybench/flybench/internal/analyze"
	"github.com/flybench/flybench/internal/collect"
	"github.com/flybench/flybench/internal/runner"
	"github.com/flybench/flybench/pkg/ndjson"
)

// parsePlan reads --plan half-width=P%.
func parsePlan(s string) (float64, error) {
	v, ok := strings.CutPrefix(s, "half-width=")
	w, err := strconv.ParseFloat(strings.TrimSuffix(v, "%"), 64)
	if !ok || err != nil || !(w > 0 && w < 100) {
		return 0, usageErrorf("--plan %q: use half-width=P%% with P above 0 and below 100, e.g. half-width=1%%", s)
	}
	return w, nil
}

// plan prints, for every run of the pilot streams, how many units and
// about how long a run needs for the half-width.
func plan(c *ucli.Context, env Env, opt analyze.Options, width float64) error {
	return eachInput(c, env, func(r *ndjson.Reader) error {
		plans, err := analyze.PlanStream(r, opt, width)
		warnTorn(env, "fb-analyze", r)
		for _, p := range plans {
			writePlan(env.Stdout, p, opt, width)
		}
		if err == nil && len(plans) == 0 {
			return usageErrorf("%s holds no run to plan from: give a pilot stream from fb-pair or fb-sample", r.Name())
		}
		var pe *analyze.PlanError
		if errors.As(err, &pe) {
			return withCode(ExitUsage, fmt.Errorf("%s: %w", r.Name(), err), "plan from a paired or single-case pilot with at least 10 units that vary")
		}
		return streamError(err, "fix or remove that line; the plans of the runs before it were printed")
	})
}

func writePlan(w io.Writer, p analyze.RunPlan, opt analyze.Options, width float64) {
	run := p.Run
	unit := map[ndjson.Design]string{ndjson.DesignPaired: "pairs", ndjson.DesignRounds: "rounds"}[run.Design]
	if unit == "" {
		unit = "samples"
	}
	fmt.Fprintf(w, "plan for run %s (%s, %d cases): a half-width of %g%% at %g%% confidence, estimator %s\n",
		short(run.RunID), run.Design, len(run.Cases), width, p.ConfidencePct, estimatorOf(opt))
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
	writeCommand(w, p, width, unit)
	fmt.Fprintf(w, "  assumptions: the run is like the pilot (same machine state, batch size and noise, whose\n"+
		"    spread and serial dependence are plugged in as measured: a pilot of %d units knows its spread to\n"+
		"    about ±%.0f%%, so the plan is provisional); half-width = Student t(n/3 df) x spread/sqrt(n). It sizes a\n"+
		"    fresh run; adding units to the pilot is not the same, and re-planning after each result is optional\n"+
		"    stopping (use --until for that). It is not a power analysis.\n",
		p.Plans[0].PilotUnits, 100/math.Sqrt(2*float64(p.Plans[0].PilotUnits)))
	if !p.Complete {
		fmt.Fprintf(w, "  warning: the pilot stream has no end record; its timing is unknown\n")
	}
}

// writeCommand suggests the fb-pair flags: the planned units at the
// pilot's batch size, or, beyond --samples' limit, the most samples with
// proportionally longer batches.
func writeCommand(w io.Writer, p analyze.RunPlan, width float64, unit string) {
	run, n := p.Run, p.Units
	k := len(run.Cases)
	budget := time.Duration(int64(n) * int64(k) * p.SliceNS)
	samples := n
	note := ""
	if n > collect.MaxSamples {
		samples = collect.MaxSamples
		note = fmt.Sprintf(" (%d %s would exceed --samples' limit of %d: batches %.1fx longer instead, assuming a batch's noise averages like independent runs)",
			n, unit, collect.MaxSamples, float64(n)/collect.MaxSamples)
	}
	commands := make([]string, len(run.Cases))
	for i, c := range run.Cases {
		commands[i] = c.Command
	}
	fmt.Fprintf(w, "  run:  %s [the pilot's other options] --samples %d --measurement-time %s -- %s%s\n",
		run.Tool, samples, budget.Round(time.Millisecond), runner.QuoteCommand(commands), note)
	if p.UnitNS > 0 {
		est := time.Duration(p.UnitNS*float64(n)) + time.Duration(p.SetupNS)
		fmt.Fprintf(w, "        about %s in all (%s of sampling at the pilot's pace, %s of set-up)\n",
			est.Round(100*time.Millisecond), time.Duration(p.UnitNS*float64(n)).Round(100*time.Millisecond),
			time.Duration(p.SetupNS).Round(100*time.Millisecond))
		fmt.Fprintf(w, "  or:   %s [...] --until width=%g%% --max-time %s -- ...   (samples until the width is reached)\n",
			run.Tool, width, (est * 3 / 2).Round(time.Second))
	}
}

func short(id string) string {
	if len(id) > 8 {
		return id[:8]
	}
	return id
}

func estimatorOf(opt analyze.Options) string {
	if opt.Estimator == "" {
		return "robust"
	}
	return string(opt.Estimator)
}
