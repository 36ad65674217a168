package collect

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/flybench/flybench/internal/field"
	"github.com/flybench/flybench/pkg/ndjson"
	"github.com/flybench/flybench/pkg/stats"
)

// Until is a sequential stopping rule: instead of a fixed number of
// samples, collection continues in whole units and, at growing
// checkpoints (looks), asks Engine.Judge for the intervals so far.
type Until struct {
	// Rule is "" (a fixed sample count), "decision" (stop when every
	// comparison's interval clears or fits inside the practical
	// threshold) or "width" (stop when every interval's half-width is at
	// most WidthPct percent).
	Rule     string
	WidthPct float64
	// MaxTime bounds the whole run's wall time, warm-up and calibration
	// included; a run that reaches it makes a final look and stops.
	MaxTime time.Duration
	// Confidence is the overall confidence, in percent: a decision rule
	// spends its error rate over the looks (stats.LookConfidence).
	Confidence float64
	// ThresholdPct and Estimator say what a decision is: the practical
	// threshold in percent and the estimate the looks judge. The engine
	// leaves them to its Judge; the run record states them.
	ThresholdPct float64
	Estimator    stats.Estimator
	// Comparisons is how many time comparisons share Confidence as a
	// family (family.go); 0 or 1 leaves it to the one comparison.
	Comparisons int
}

// Stopping-rule constants.
const (
	// MaxUntilUnits bounds the units a run with a stopping rule collects.
	MaxUntilUnits = 100_000
	// firstLookUnits is the fewest units a look analyses.
	firstLookUnits = 20
	// firstLookFraction is the share of MaxTime before the first
	// decision look; later ones come at the first whole block past each
	// doubling of it: 1/32, 1/16, ..., 1/2 of the budget.
	firstLookFraction = 1.0 / 32
	// lastLookFraction: no look but the final one after this share, so
	// that the final look keeps at least a quarter of the error rate
	// (about half, with looks at the doubling points).
	lastLookFraction = 0.75
	// pairBlock is the length of a balanced block of pairs.
	pairBlock = 10
	// widthGrowth is the growth of the unit count between width looks,
	// which spend nothing and so can come often.
	widthGrowth = 1.25
)

// ParseUntil reads a stopping rule as written: "decision" or "width=P%"
// (P > 0), "" for none. A bad one is a *field.Error of Until.Rule.
func ParseUntil(s string) (rule string, widthPct float64, err error) {
	switch {
	case s == "":
		return "", 0, nil
	case s == ndjson.UntilDecision:
		return s, 0, nil
	case strings.HasPrefix(s, "width="):
		v := strings.TrimSuffix(strings.TrimPrefix(s, "width="), "%")
		w, err := strconv.ParseFloat(v, 64)
		if err != nil || !(w > 0) || w >= 100 || math.IsInf(w, 0) {
			return "", 0, field.Errorf("Until.Rule", s, "%s %q: the width is a half-width in percent above 0 and below 100, e.g. width=1%%", field.Name("Until.Rule"), s)
		}
		return ndjson.UntilWidth, w, nil
	}
	return "", 0, field.Errorf("Until.Rule", s, "%s %q: use decision or width=P%% (a half-width in percent)", field.Name("Until.Rule"), s)
}

// Validate refuses rules that could not work for k cases, with a
// *field.Error naming the Config field ("Until.MaxTime").
func (u Until) Validate(k int, sequential bool) error {
	rule := field.Name("Until.Rule")
	switch {
	case u.Rule == "":
		return nil
	case u.Rule != ndjson.UntilDecision && u.Rule != ndjson.UntilWidth:
		return field.Errorf("Until.Rule", u.Rule, "%s %q: use decision or width=P%%", rule, u.Rule)
	case u.Rule == ndjson.UntilDecision && k < 2:
		return field.Errorf("Until.Rule", u.Rule, "%s decision needs 2 or more operations to compare; for one, use %s width=P%%", rule, rule)
	case sequential:
		return field.Errorf("Until.Rule", u.Rule, "%s cannot be combined with %s: sequential blocks need their length in advance", rule, field.Name("Sequential"))
	case u.MaxTime <= 0:
		return field.Errorf("Until.MaxTime", u.MaxTime, "%s %v must be positive with %s", field.Name("Until.MaxTime"), u.MaxTime, rule)
	case !(u.Confidence >= 50 && u.Confidence <= 99.9):
		return field.Errorf("Until.Confidence", u.Confidence, "%s %g out of range: use 50 to 99.9 (percent)", field.Name("Until.Confidence"), u.Confidence)
	}
	return nil
}

// Judge returns the intervals of the kept samples at a look, each at the
// given confidence, with their verdicts.
type Judge func(run *ndjson.Run, kept []ndjson.Sample, confidence float64) ([]ndjson.LookInterval, error)

// looker runs the looks of one run.
type looker struct {
	s        *sampler
	u        Until
	block    int // units per balanced block of the schedule
	looks    int
	last     int     // units at the last look
	next     float64 // time fraction of the next decision look
	spentAt  float64 // time fraction of the last look that spent
	outcome  ndjson.UntilOutcome
	finished bool // a look met the rule, or the final look was made
}

func newLooker(s *sampler) *looker {
	block := 1
	switch k := len(s.e.Cases); {
	case k == 2:
		block = pairBlock
	case k > 2:
		block = k
	}
	return &looker{s: s, u: s.e.Config.Until, block: block, next: firstLookFraction}
}

// fraction is the share of the time budget used so far.
func (l *looker) fraction() float64 {
	return float64(l.s.e.Clock.Now()-l.s.e.start) / float64(l.u.MaxTime)
}

// stop is drive's stop test: the time limit, or a look that met the rule.
func (l *looker) stop(int) bool {
	units := l.s.end.Units
	if l.fraction() >= 1 && units >= minKeepUnits {
		l.outcome.Reason = ndjson.UntilTime
		return true
	}
	if !l.due(units) {
		return false
	}
	if err := l.look(false); err != nil {
		l.s.lookErr = err
		return true
	}
	return l.finished
}

// due reports whether a look is due after units kept units. Looks come
// at whole balanced blocks of the schedule, so each sees as many units of
// every order; while a watch window holds units not yet judged, the look
// waits for it to close, so that a look sees every unit collected before
// it.
func (l *looker) due(units int) bool {
	if units < firstLookUnits || units == l.last || units%l.block != 0 || (l.s.win != nil && len(l.s.win.jobs) > 0) {
		return false
	}
	if l.u.Rule == ndjson.UntilWidth {
		return l.last == 0 || float64(units) >= widthGrowth*float64(l.last)
	}
	return l.next <= lastLookFraction && l.fraction() >= l.next
}

// look analyses the kept samples and writes the look record; final is
// the look at the limit, which spends all the error rate left.
func (l *looker) look(final bool) error {
	e := l.s.e
	t := l.fraction()
	rec := &ndjson.Look{RunID: e.Run.RunID, Index: l.looks, Units: l.s.end.Units,
		ElapsedNS: e.Clock.Now() - e.start, Fraction: math.Min(t, 1), Final: final}
	rec.ConfidencePct, rec.Spent = l.u.perComparison(), true
	if l.u.Rule == ndjson.UntilDecision {
		rec.ConfidencePct, rec.Spent = stats.LookConfidence(l.u.perComparison(), l.spentAt, t, final)
	}
	if rec.Spent {
		iv, err := e.Judge(&e.Run, l.s.kept, rec.ConfidencePct)
		if err != nil {
			return fmt.Errorf("look at %d units: %w", rec.Units, err)
		}
		rec.Intervals, rec.Met = iv, l.met(iv)
		l.spentAt = math.Min(t, 1)
		l.outcome.ConfidencePct = rec.ConfidencePct
	}
	l.looks++
	l.last = rec.Units
	for l.next <= t {
		l.next *= 2 // the next nominal point: 1/32, 1/16, ... 1/2 of the budget
	}
	if rec.Met || final {
		l.finished = true
		l.outcome.Settled = rec.Met
	}
	return e.Out.Write(rec)
}

// met applies the rule to a look's intervals.
func (l *looker) met(iv []ndjson.LookInterval) bool {
	if len(iv) == 0 {
		return false
	}
	for _, v := range iv {
		if l.u.Rule == ndjson.UntilWidth && !(v.HalfWidthPct <= l.u.WidthPct) {
			return false
		}
		if l.u.Rule == ndjson.UntilDecision && (v.Verdict == "" || v.Verdict == ndjson.VerdictInconclusive) {
			return false
		}
	}
	return true
}

// finish makes the final look when no look met the rule, and records the
// outcome in the end record.
func (l *looker) finish(end *ndjson.End) error {
	if !l.finished && l.s.end.Units >= 2 {
		if l.outcome.Reason == "" {
			l.outcome.Reason = ndjson.UntilUnits
		}
		if err := l.look(true); err != nil {
			return err
		}
	}
	if l.outcome.Settled {
		l.outcome.Reason = ndjson.UntilSettled
		end.Reason = ndjson.EndCompleted
	}
	l.outcome.Looks, l.outcome.Units = l.looks, end.Units
	l.outcome.ElapsedNS = l.s.e.Clock.Now() - l.s.e.start
	end.Until = &l.outcome
	return nil
}
