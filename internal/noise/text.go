package noise

import (
	"fmt"
	"math"

	"github.com/flybench/flybench/internal/field"
)

// Warnings are what one invocation left out of the profile.
func (p Progress) Warnings() []string {
	var out []string
	for _, k := range p.Dropped {
		out = append(out, fmt.Sprintf("invocation %d has no %s %s; it leaves the profile", p.Invocation, k.Kind, k))
	}
	if p.TagsDiffer {
		out = append(out, fmt.Sprintf("invocation %d's tags differ from the earlier ones; the profile carries none", p.Invocation))
	}
	return out
}

// Line says what one invocation changed, on one line.
func (p Progress) Line() string {
	line := fmt.Sprintf("invocation %d/≤%d: %d metrics", p.Invocation, p.MaxRuns, p.Metrics)
	switch {
	case p.Invocation == 2:
		line += ", first estimates"
	case p.Invocation > 2:
		line += ", largest change of estimate " + estimateChange(p.Largest) + " (" + p.Of.String() + ")"
	}
	return line
}

// estimateChange shows a change of estimate: "14%", or "from 0".
func estimateChange(f float64) string {
	if math.IsInf(f, 1) {
		return "from 0"
	}
	return fmt.Sprintf("%.3g%%", 100*f)
}

// Settled says that the estimates of a converged calibration settled.
func (res *Result) Settled(cfg Config) string {
	return fmt.Sprintf("converged after %d invocations: no estimate moved by more than %g%%", res.Invocations, cfg.TolerancePct)
}

// Unsettled says that they did not, naming the settings at play as
// names spells them.
func (res *Result) Unsettled(cfg Config, names field.Names) string {
	return fmt.Sprintf("not converged after %d invocations (%s): the estimate of %s moved by %s at the last one, more than %s %g%%; the profile says converged false",
		res.Invocations, names.Spell(FieldMaxRuns), res.Of, estimateChange(res.Largest), names.Spell(FieldTolerance), cfg.TolerancePct)
}
