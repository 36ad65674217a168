package check

import (
	"fmt"
	"math"
	"slices"
	"sort"

	"github.com/flybench/flybench/internal/changepoint"
	"github.com/flybench/flybench/internal/noise"
	"github.com/flybench/flybench/internal/report/model"
	"github.com/flybench/flybench/pkg/ndjson"
)

// KindHistory is a case's time against its own history in a results
// store (fb-check --history).
const KindHistory = "history"

// MinHistoryRuns is the fewest comparable runs a case's level is judged
// against: fewer cannot say how far runs drift from one another (the
// spread of five values is crude already), and E-divisive needs six points
// to test one split.
const MinHistoryRuns = 5

// DefaultHistoryRuns is how many of the newest comparable runs make a
// case's history by default.
const DefaultHistoryRuns = 20

// Past is a results store as the gate reads it: Before gives a case's
// median (with score set, its normalized score) in the newest n runs
// before run on run's machine class (the fingerprint fields that make
// timings comparable) that hold every tag of where, oldest first, without
// run itself. *history.Store is one.
type Past interface {
	Before(run *ndjson.Run, name string, score bool, n int, where map[string]string) ([]ndjson.SeriesPoint, error)
}

// History says what each run is judged against besides its own
// comparisons: the newest Runs comparable runs of Past.
type History struct {
	Past Past
	// Store names the store for messages (a password masked).
	Store string
	// Runs is K, the most runs of history a level is taken from; at least
	// MinHistoryRuns.
	Runs int
	// Where keeps the runs whose tags hold every key with its value (a
	// branch, a runner class); nil keeps all.
	Where map[string]string
	// Change are the change-point detector's settings.
	Change changepoint.Options
}

// HistoryError is a store that could not be read.
type HistoryError struct {
	Store string
	Err   error
}

func (e *HistoryError) Error() string { return fmt.Sprintf("history %s: %v", e.Store, e.Err) }
func (e *HistoryError) Unwrap() error { return e.Err }

// historyItems judges every case of r against its history, and says why
// the run cannot be judged on history when no case had enough of it.
func (h *History) historyItems(r *Run, opt Options) ([]ndjson.CheckItem, string, error) {
	var items []ndjson.CheckItem
	short := ""
	ref := referenceOf(r.Summaries)
	for i := range r.Summaries {
		sm := &r.Summaries[i]
		if sm.Case == ref {
			items = append(items, skip(historyItem(sm.Name, opt), "the reference workload: the other cases are judged in its units"))
			continue
		}
		past, err := h.Past.Before(&r.Run, sm.Name, sm.Normalized != nil, h.Runs, h.Where)
		if err != nil {
			return nil, "", &HistoryError{Store: h.Store, Err: err}
		}
		it := h.item(sm, past, opt)
		if len(past) < MinHistoryRuns && short == "" {
			short = fmt.Sprintf("too little history: %s of %q on %s in %s, at least %d needed: add analysed runs with fb-history add",
				model.Plural(len(past), "comparable run"), sm.Name, describeClass(ClassOf(r.Run.Host)), h.Store, MinHistoryRuns)
		}
		items = append(items, it)
	}
	return items, short, nil
}

// item judges one case's median against its history: the change from
// the history's level (the median of its runs' medians) against
// MaxSlowdownPct and the window sqrt(hw² + noise²), hw the half-width of
// the case's mean interval in this run, noise the history's own spread
// between runs by fb-noise's estimator (noise.Estimate, the history's
// level in place of the first invocation).
//
// A case scored against a reference workload (fb-pair --reference) is
// judged by its score instead, against the scores of the runs that have
// one: the machine's speed, which moves a level from run to run as much
// as a program's change does, cancels in the score.
func (h *History) item(sm *ndjson.Summary, past []ndjson.SeriesPoint, opt Options) ndjson.CheckItem {
	it := historyItem(sm.Name, opt)
	value, hw, show := sm.Median, 0.0, model.Dur
	if sm.Mean > 0 {
		hw = (sm.MeanCI[1] - sm.MeanCI[0]) / 2 / sm.Mean * 100
	}
	if n := sm.Normalized; n != nil {
		it.Metric, value, show = "score", n.Score, func(v float64) string { return fmt.Sprintf("score %.4g", v) }
		hw = 0
		if n.Score > 0 {
			hw = (n.CI[1] - n.CI[0]) / 2 / n.Score * 100
		}
	}
	if len(past) < MinHistoryRuns {
		kind := "comparable run"
		if it.Metric == "score" {
			kind = "comparable run with a score"
		}
		return skip(it, fmt.Sprintf("too little history: %s on this machine class, at least %d needed",
			model.Plural(len(past), kind), MinHistoryRuns))
	}
	values := make([]float64, len(past))
	for i, p := range past {
		values[i] = p.Value
	}
	level := medianOf(values)
	if !(level > 0) || !finite(value, hw) {
		return skip(it, "no positive level in the history or no finite median in this run")
	}
	spread := noise.Estimate(ndjson.NoiseLevel, append([]float64{level}, values...))
	it.Value, it.Window = (value/level-1)*100, math.Hypot(hw, spread)
	against := fmt.Sprintf("than the level of the last %s (%s)", model.Plural(len(past), "run"), show(level))
	parts := fmt.Sprintf("interval ±%s, history noise ±%s", meas(hw), meas(spread))
	var out ndjson.CheckItem
	switch {
	case it.Value < it.Threshold:
		out = pass(it, fmt.Sprintf("%s %s: below the %s threshold", slowerFaster(it.Value), against, pct(it.Threshold)))
	case it.Value <= it.Window:
		out = pass(it, fmt.Sprintf("%s %s: inside the ±%s window (%s)", slowerFaster(it.Value), against, meas(it.Window), parts))
	default:
		out = fail(it, fmt.Sprintf("%s %s: at least %s and outside the ±%s window (%s)",
			slowerFaster(it.Value), against, pct(it.Threshold), meas(it.Window), parts))
	}
	if note := h.newestChange(past, value); note != "" {
		out.Why += "; " + note
	}
	return out
}

// newestChange segments the history with E-divisive, extends the
// segmentation by this run's median (only the last window is examined
// again: changepoint.Segmentation) and says so when the newest level
// began with this run: a change point the history alone did not have,
// which needs Change.MinSize points of the new level, this run's among
// them. A change point the history already had is named too: the level
// above straddles it.
func (h *History) newestChange(past []ndjson.SeriesPoint, newest float64) string {
	if h.Change.Level <= 0 {
		return ""
	}
	x := make([]float64, 0, len(past)+1)
	for _, p := range past {
		x = append(x, p.Value)
	}
	before := changepoint.Segment(x, h.Change)
	x = append(x, newest)
	found := before.Extend(x, h.Change).Changes
	if len(found) == 0 {
		return ""
	}
	c := found[len(found)-1]
	if c.Before == 0 {
		return ""
	}
	change := fmt.Sprintf("%s, p %.2g", signedPct((c.After/c.Before-1)*100), c.P)
	from := describePoint(past[c.Index])
	if !slices.ContainsFunc(before.Changes, func(b changepoint.Change) bool { return b.Index == c.Index }) {
		return fmt.Sprintf("change point at the newest runs: %s from %s on, this run included", change, from)
	}
	return fmt.Sprintf("the history's level shifted %s at %s, %s before this one", change, from, model.Plural(len(x)-1-c.Index, "run"))
}

// describePoint names a run of the history: "run 71c4e865 (revision abc)".
func describePoint(p ndjson.SeriesPoint) string {
	s := "run " + model.ShortID(p.RunID)
	if p.Revision != "" {
		s += " (revision " + p.Revision + ")"
	}
	return s
}

// medianOf is the median of values (not empty).
func medianOf(values []float64) float64 {
	s := slices.Clone(values)
	sort.Float64s(s)
	if n := len(s); n%2 == 0 {
		return (s[n/2-1] + s[n/2]) / 2
	}
	return s[len(s)/2]
}

// historyItem is a case's history item before it is judged: its time
// against the MaxSlowdownPct threshold, in percent.
func historyItem(name string, opt Options) ndjson.CheckItem {
	return ndjson.CheckItem{Kind: KindHistory, Subject: name, Metric: "time", Design: ndjson.DesignIndependent,
		Unit: "%", Threshold: opt.MaxSlowdownPct}
}

// referenceOf is the reference workload's case in a run's summaries (the
// case the others are scored against), or -1 without one.
func referenceOf(summaries []ndjson.Summary) int {
	for _, s := range summaries {
		if s.Normalized != nil {
			return s.Normalized.ReferenceCase
		}
	}
	return -1
}
