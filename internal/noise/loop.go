package noise

import (
	"context"
	"errors"
	"maps"
	"slices"

	"github.com/flybench/flybench/pkg/ndjson"
)

// Calibrate runs invocations 1, 2, ... until, at or after cfg.MinRuns,
// every metric's estimate moved by at most cfg.TolerancePct percent of
// the previous invocation's estimate (Converged), or until cfg.MaxRuns.
// progress is called after every invocation. The metrics are those of
// the first invocation (a level only when its value there is positive,
// since its deltas are relative to it) that every later invocation has
// too. A runner error is returned as it is; a bad stream or another
// machine class as an *InvocationError; a cancelled ctx as its cause.
func Calibrate(ctx context.Context, cfg Config, run Runner, progress func(Progress)) (*Result, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	c := &calibration{series: map[Key][]float64{}}
	tol := cfg.TolerancePct / 100
	for i := 1; i <= cfg.MaxRuns; i++ {
		if err := context.Cause(ctx); err != nil {
			return nil, err
		}
		stream, err := run(ctx, i)
		if err != nil {
			return nil, err
		}
		obs, err := Observe(stream, cfg.Analyze)
		if err != nil {
			return nil, &InvocationError{I: i, Err: err}
		}
		p, err := c.add(i, obs)
		if err != nil {
			return nil, &InvocationError{I: i, Err: err}
		}
		p.MaxRuns = cfg.MaxRuns
		est := c.estimates()
		if i >= 3 {
			p.Largest, p.Of = largest(c.prev, est)
		}
		progress(p)
		if i >= cfg.MinRuns && converged(c.prev, est, tol) {
			return c.result(i, true, p), nil
		}
		if i == cfg.MaxRuns {
			return c.result(i, false, p), nil
		}
		c.prev = est
	}
	panic("unreachable: the loop returns at MaxRuns")
}

// calibration is the values seen so far, one per invocation per metric.
type calibration struct {
	series     map[Key][]float64
	class      ndjson.MachineClass
	tags       map[string]string
	tagsDiffer bool
	prev       map[Key]float64
}

// add takes invocation i's observation.
func (c *calibration) add(i int, o *Observation) (Progress, error) {
	p := Progress{Invocation: i, Estimates: i > 1}
	if i == 1 {
		c.first(o)
		p.Metrics = len(c.series)
		if p.Metrics == 0 {
			return p, ErrNoMetrics
		}
		return p, nil
	}
	if err := compareClass(c.class, o.Class); err != nil {
		return p, err
	}
	if !c.tagsDiffer && (o.TagsDiffer || !maps.Equal(c.tags, o.Tags)) {
		c.tags, c.tagsDiffer, p.TagsDiffer = nil, true, true
	}
	for _, k := range sortedKeys(c.series) {
		v, ok := o.Values[k]
		if !ok {
			delete(c.series, k)
			p.Dropped = append(p.Dropped, k)
			continue
		}
		c.series[k] = append(c.series[k], v)
	}
	if p.Metrics = len(c.series); p.Metrics == 0 {
		return p, errors.New("none of the first invocation's metrics is in this stream")
	}
	return p, nil
}

// first starts the series from the first invocation.
func (c *calibration) first(o *Observation) {
	c.class, c.tags, c.tagsDiffer = o.Class, o.Tags, o.TagsDiffer
	for k, v := range o.Values {
		if k.Kind == ndjson.NoiseLevel && v <= 0 {
			continue // no relative delta against zero
		}
		c.series[k] = []float64{v}
	}
}

// estimates are the current noise estimates of every metric.
func (c *calibration) estimates() map[Key]float64 {
	est := make(map[Key]float64, len(c.series))
	for k, vals := range c.series {
		est[k] = Estimate(k.Kind, vals)
	}
	return est
}

// result is the profile after n invocations; last is the last progress.
func (c *calibration) result(n int, converged bool, last Progress) *Result {
	r := &Result{Invocations: n, Converged: converged, Class: c.class, Tags: c.tags, Largest: last.Largest, Of: last.Of}
	for _, k := range sortedKeys(c.series) {
		vals := c.series[k]
		r.Metrics = append(r.Metrics, ndjson.NoiseMetric{
			Metric: k.Metric, Kind: k.Kind, Case: k.Case, Reference: k.Reference,
			NoisePct: Estimate(k.Kind, vals), N: len(vals) - 1,
		})
	}
	return r
}

// converged reports whether every estimate settled against prev.
func converged(prev, est map[Key]float64, tol float64) bool {
	for k, v := range est {
		if !settled(prev[k], v, tol) {
			return false
		}
	}
	return true
}

// largest is the metric whose estimate moved most from prev, first in
// metric order among equals.
func largest(prev, est map[Key]float64) (float64, Key) {
	var most float64
	var of Key
	for i, k := range sortedKeys(est) {
		if ch := change(prev[k], est[k]); i == 0 || ch > most {
			most, of = ch, k
		}
	}
	return most, of
}

func sortedKeys[V any](m map[Key]V) []Key {
	return slices.SortedFunc(maps.Keys(m), compareKeys)
}
