package words

import (
	"fmt"
	"strings"

	"github.com/flybench/flybench/internal/report/model"
	"github.com/flybench/flybench/pkg/ndjson"
)

// Clock names the clock a run read and the timer cost subtracted from
// each batch, if any.
func Clock(k ndjson.Clock) string {
	text := k.Backend
	if text == "" {
		text = "not recorded"
	}
	if k.SubtractNS > 0 {
		text += fmt.Sprintf("  (timer cost %s subtracted per batch)", model.Fixed3(k.SubtractNS))
	}
	return text
}

// Timer says which clock the per-operation times come from: the
// batch's or worker's own report, their CPU time, or the harness's clock
// and what it includes.
func Timer(t *ndjson.Timer) string {
	if t.Kind == ndjson.TimerCPU {
		return cpuTimerText(t)
	}
	if t.Kind != ndjson.TimerSelf {
		text := "wall time around each batch"
		if t.Note != "" {
			text += " — " + t.Note
		}
		return text
	}
	text := "self-reported " + t.Axis
	if t.Source != "" {
		text += " from " + t.Source
	}
	if t.ResolutionNS > 0 {
		text += ", resolution " + model.Fixed3(t.ResolutionNS)
	}
	if t.Note != "" {
		text += " — " + t.Note
	}
	return text
}

// cpuTimerText is "CPU time from wait4 rusage user+system, resolution
// 1.000 µs; wall time is the axis wall — what it includes".
func cpuTimerText(t *ndjson.Timer) string {
	text := "CPU time"
	if t.Source != "" {
		text += " from " + t.Source
	}
	if t.ResolutionNS > 0 {
		text += ", resolution " + model.Fixed3(t.ResolutionNS)
	}
	text += "; wall time is the axis wall"
	if t.Note != "" {
		text += " — " + t.Note
	}
	return text
}

// Source is "source: hyperfine" for a run imported from another
// tool, else empty.
func Source(run ndjson.Run) string {
	if run.Source == "" {
		return ""
	}
	return "source: " + run.Source
}

// Host is "Intel Xeon (2 cpus), linux 6.18.0", or "host unknown" for
// an imported run that records none.
func Host(h ndjson.Host) string {
	if h.CPUModel == "unknown" && h.OS == "unknown" && h.Kernel == "unknown" && h.CPUs == 0 {
		return "host unknown"
	}
	cpu := h.CPUModel
	if h.CPUs > 0 {
		cpu = strings.TrimSpace(fmt.Sprintf("%s (%s)", cpu, model.Plural(h.CPUs, "cpu")))
	}
	return model.JoinNonEmpty([]string{cpu, strings.TrimSpace(h.OS + " " + h.Kernel)}, ", ")
}

// Title is "old vs new", "base vs 3 contenders" or the single case.
func Title(r *model.Run) string {
	switch n := len(r.Run.Cases); n {
	case 1:
		return r.CaseName(model.Reference)
	case 2:
		return r.CaseName(model.Reference) + " vs " + r.CaseName(1)
	default:
		return r.CaseName(model.Reference) + " vs " + model.Plural(n-1, "contender")
	}
}

// ProminentWarnings gathers what a reviewer must not miss: an incomplete
// run, every warning of the analysis and its comparisons, and a run that
// repaired itself or whose host was not what it asked for.
func ProminentWarnings(r *model.Run) []string {
	var notes []string
	if why := r.Incomplete(); why != "" {
		notes = append(notes, "incomplete run: "+why)
	}
	notes = append(notes, r.Warnings()...)
	for k := range r.Comparisons {
		_, con := Names(r, &r.Comparisons[k])
		for _, w := range r.Comparisons[k].Warnings {
			notes = append(notes, con+": "+w)
		}
	}
	return append(notes, EnvironmentWarnings(r)...)
}

// Method is the one line that says how the numbers were obtained.
func Method(r *model.Run) string {
	a := r.Analysis
	sched, _ := Schedule(r.Run.Design, r.Run.Batching)
	threshold := fmt.Sprintf("; practical threshold ±%.1f%%", a.ThresholdPct)
	if len(r.Run.Cases) == 1 {
		sched, _ = Design(r.Run.Design)
		threshold = ""
	}
	sched = WithPageCache(WithLayout(sched, r.Run.Config.Layout, r.Names), r.Run.Config)
	times := "times per operation"
	if r.CPUTimed() {
		times = "CPU times (user+system) per operation"
	}
	estimate := ""
	if a.Estimator != "" && len(r.Run.Cases) > 1 {
		estimate = fmt.Sprintf("; decision estimate %s (the geometric mean beside it)", a.Estimator)
	}
	return fmt.Sprintf("Method: %s%s; %s, percentiles of batch means; "+
		"%s confidence, %d circular-block bootstrap resamples (block rule %s)%s%s.",
		sched, unitsKept(r), times, model.Confidence(a.ConfidencePct), a.Resamples,
		OrNA(a.BlockRule), threshold, estimate)
}

// unitsKept is ", 50 pairs": how many units the run kept, when it says.
func unitsKept(r *model.Run) string {
	if r.End == nil {
		return ""
	}
	unit := UnitNoun(r)
	if unit == "sample" && len(r.Run.Cases) > 1 {
		return ", " + model.Plural(r.End.Units, unit) + " per case"
	}
	return ", " + model.Plural(r.End.Units, unit)
}

// OrNA is s, or "n/a" when it is empty.
func OrNA(s string) string {
	if s == "" {
		return "n/a"
	}
	return s
}

// CI names the interval of a comparison: "95% CI".
func CI(r *model.Run, k *ndjson.Comparison) string {
	if k.ConfidencePct > 0 {
		return model.Confidence(k.ConfidencePct) + " CI"
	}
	return r.CILabel()
}
