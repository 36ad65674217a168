// Package check is the CI gate behind fb-check: it judges every comparison
// of an analyzed stream on two thresholds at once: a relative one and one against the measured noise. A
// metric fails only when the change is large enough to matter (a practical
// threshold: a slowdown of 5%, a memory growth of 3% and an absolute
// floor, any increase of a deterministic count) and also larger than what
// the measurement cannot tell from noise (a statistical window: the
// comparison's own interval, widened by a noise profile calibrated across
// whole invocations when one is given). It reads fb-analyze's records and
// computes no statistic of its own, but for the gate against history
// (history.go): a median and fb-noise's spread of the runs a store holds.
package check

import (
	"github.com/flybench/flybench/internal/field"
	"github.com/flybench/flybench/pkg/ndjson"
)

// Options are the gate's practical thresholds.
type Options struct {
	// MaxSlowdownPct is the smallest time change, in percent, that fails.
	MaxSlowdownPct float64
	// MaxMemoryGrowthPct is the smallest memory growth, in percent, that fails.
	MaxMemoryGrowthPct float64
	// MemoryFloor is the smallest absolute growth in bytes of a memory
	// amount (an axis in bytes, such as rss_peak) that fails.
	MemoryFloor float64
	// MemoryFloorOp is the same for a per-operation amount (bytes/op, B/op,
	// such as alloc_bytes), in bytes per operation.
	MemoryFloorOp float64
	// Names spells the options the judgements name (FieldNoise,
	// FieldBaseline) as the user knows them; nil spells their paths.
	Names field.Names
}

// The options a judgement or its rendering names, by field path: fb-check's
// noise profile and history conditions, and fb-analyze's baseline
// (analyze.FieldBaseline).
const (
	FieldNoise        = "check.Noise"
	FieldHistoryWhere = "check.HistoryWhere"
	FieldBaseline     = "analyze.Baseline"
)

// The fields of the thresholds, the format and the history's length, as
// their field errors name them.
const (
	FieldMaxSlowdown     = "check.MaxSlowdownPct"
	FieldMaxMemoryGrowth = "check.MaxMemoryGrowthPct"
	FieldMemoryFloor     = "check.MemoryFloor"
	FieldMemoryFloorOp   = "check.MemoryFloorOp"
	FieldFormat          = "check.Format"
	FieldHistoryRuns     = "check.HistoryRuns"
)

// DefaultOptions are the default thresholds: 5% slower, 3% and 64 KiB
// more memory; no floor per operation beyond the 3%.
var DefaultOptions = Options{MaxSlowdownPct: 5, MaxMemoryGrowthPct: 3, MemoryFloor: 64 << 10}

// Judge checks every analyzed run of all against the noise profile p (nil
// for none) and returns one check record per run, in input order, and the
// overall result. Every run must have its analysis (CheckAnalyzed).
func Judge(all []*Run, p *Profile, opt Options) Result {
	res, _ := judge(all, p, opt, nil)
	return res
}

// JudgeHistory is Judge that also checks every case of each run against
// its history in h (kind "history"). The runs are not added to the store.
// An error is a store that could not be read, a *HistoryError.
func JudgeHistory(all []*Run, p *Profile, opt Options, h History) (Result, error) {
	return judge(all, p, opt, &h)
}

func judge(all []*Run, p *Profile, opt Options, h *History) (Result, error) {
	checks := make([]ndjson.Check, 0, len(all))
	for _, r := range all {
		ck, err := judgeRun(r, p, opt, h)
		if err != nil {
			return Result{}, err
		}
		checks = append(checks, ck)
	}
	return summarize(checks), nil
}

// judgeRun checks every comparison of one run, and each of its cases
// against h when there is one.
func judgeRun(r *Run, p *Profile, opt Options, h *History) (ndjson.Check, error) {
	set := p.forRun(r.Run.Host)
	ck := ndjson.Check{RunID: r.Run.RunID, Items: []ndjson.CheckItem{}}
	if p != nil {
		ck.Noise = p.File
	}
	for _, c := range r.AllComparisons() {
		ck.Items = append(ck.Items, judgeComparison(c, r, set, opt)...)
	}
	if h == nil {
		decide(&ck, r, set, opt.Names)
		return ck, nil
	}
	items, short, err := h.historyItems(r, opt)
	if err != nil {
		return ck, err
	}
	ck.Items = append(ck.Items, items...)
	decideWithHistory(&ck, r, set, short, opt.Names)
	return ck, nil
}

// judgeComparison checks the time of one comparison, then each of its
// memory and counter axes.
func judgeComparison(c *ndjson.Comparison, r *Run, set noiseSet, opt Options) []ndjson.CheckItem {
	items := []ndjson.CheckItem{timeItem(c, set, opt)}
	for i := range c.Axes {
		a := &c.Axes[i]
		switch {
		case isCounter(a, r.Exact):
			items = append(items, counterItem(c, a, simulated(&r.Run, a.Name)))
		case isMemory(a, &r.Run):
			items = append(items, memoryItem(c, a, set, opt))
		}
	}
	return items
}

// subject names what a comparison compares: the case of a baseline
// comparison, "reference → contender" of a run's own.
func subject(c *ndjson.Comparison) string {
	if c.Design == ndjson.DesignIndependent {
		return c.ContenderName
	}
	return c.ReferenceName + " → " + c.ContenderName
}

// newItem starts the item of one metric of c.
func newItem(kind string, c *ndjson.Comparison, metric string) ndjson.CheckItem {
	return ndjson.CheckItem{Kind: kind, Subject: subject(c), Metric: metric, Design: c.Design}
}

// Item kinds.
const (
	KindTime    = "time"
	KindMemory  = "memory"
	KindCounter = "counter"
)
