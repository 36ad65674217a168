package analyze

import (
	"fmt"

	"github.com/flybench/flybench/pkg/ndjson"
	"github.com/flybench/flybench/pkg/stats"
)

// Checkpoint analyses the samples an unfinished run has kept so far, for
// a look of a stopping rule: the decision interval of every comparison at
// opt.Confidence, or, for a single case, the interval of its mean as a
// percentage of the mean. The intervals are exactly those fb-analyze
// computes for the same samples and options.
func Checkpoint(run ndjson.Run, samples []ndjson.Sample, opt Options) ([]ndjson.LookInterval, error) {
	if err := opt.Validate(); err != nil {
		return nil, err
	}
	run.Axes = nil // axes do not decide when to stop
	d := newRunData(run, opt.Names)
	for _, s := range samples {
		if s.Case < 0 || s.Case >= len(run.Cases) {
			return nil, fmt.Errorf("sample for case %d, but the run has %d cases", s.Case, len(run.Cases))
		}
		if err := d.add(ndjson.Sample{Case: s.Case, Unit: s.Unit, Pos: s.Pos, Iter: s.Iter, WallNS: s.WallNS, OpNS: s.OpNS, Proc: s.Proc}); err != nil {
			return nil, err
		}
	}
	if d.measured() == 1 {
		return d.meanInterval(opt)
	}
	out := make([]ndjson.LookInterval, 0, len(d.cases)-1)
	for c := 1; c < len(d.cases); c++ {
		if !d.compared(c) {
			continue
		}
		k, err := d.compare(c, opt)
		if err != nil {
			return nil, fmt.Errorf("%s vs %s: %w", d.name(0), d.name(c), err)
		}
		out = append(out, ndjson.LookInterval{Contender: c, ChangePct: k.ChangePct, CI: k.ChangeCI,
			HalfWidthPct: (k.ChangeCI[1] - k.ChangeCI[0]) / 2, Verdict: k.Verdict})
	}
	return out, nil
}

// meanInterval is a single case's mean with its interval, in percent of
// the mean.
func (d *runData) meanInterval(opt Options) ([]ndjson.LookInterval, error) {
	x := d.ops(0)
	if len(x) < 2 {
		return nil, fmt.Errorf("%d samples: need at least 2", len(x))
	}
	m := stats.Mean(x)
	lo, hi, _ := opt.bootstrap().MeanIntervalAuto(x, "mean/0")
	ci := [2]float64{100 * (lo/m - 1), 100 * (hi/m - 1)}
	return []ndjson.LookInterval{{Contender: 0, CI: ci, HalfWidthPct: (ci[1] - ci[0]) / 2}}, nil
}
