// Package analyze turns a measurement stream into analysis records. Every
// input record is passed through in order (earlier analysis records are
// dropped, since they are being replaced), and each run's analysis follows
// its end record. The output is a pure function of the input and Options.
package analyze

import (
	"errors"
	"fmt"
	"io"

	"github.com/flybench/flybench/pkg/ndjson"
	"github.com/flybench/flybench/pkg/stats"
)

// Options are the analysis settings.
type Options struct {
	Seed         uint64
	Resamples    int
	Confidence   float64 // percent
	ThresholdPct float64
	// Estimator is the decision estimate of every comparison; "" is the
	// default, stats.EstimatorRobust.
	Estimator stats.Estimator
	// Analyzer identifies the analyzing tool and version in the output.
	Analyzer string
}

// DefaultOptions are the defaults: seed 1, 2000 resamples, 95%
// confidence, a 1% practical threshold.
var DefaultOptions = Options{Seed: 1, Resamples: 2000, Confidence: 95, ThresholdPct: 1}

// Validate names the flag and allowed range of a bad setting.
func (o Options) Validate() error {
	switch {
	case o.Resamples < 100 || o.Resamples > 10000:
		return fmt.Errorf("--resamples %d out of range: use 100 to 10000", o.Resamples)
	case !(o.Confidence >= 50 && o.Confidence <= 99.9):
		return fmt.Errorf("--confidence %g out of range: use 50 to 99.9 (percent)", o.Confidence)
	case !(o.ThresholdPct >= 0 && o.ThresholdPct < 100):
		return fmt.Errorf("--threshold %g out of range: use 0 up to (not including) 100 (percent)", o.ThresholdPct)
	}
	return nil
}

func (o Options) bootstrap() stats.Bootstrap {
	return stats.Bootstrap{Seed: o.Seed, Resamples: o.Resamples, Confidence: o.Confidence, Estimator: o.Estimator}
}

// legacy reports whether the analysis reproduces schema 1.2's.
func (o Options) legacy() bool { return o.Estimator == stats.EstimatorLegacy }

// Stream analyzes every run read from r and writes the result to w. It stops
// at the first bad line with that line's error; everything before it has
// been written, including the analysis of runs that ended earlier.
func Stream(r *ndjson.Reader, w *ndjson.Writer, opt Options) error {
	if err := opt.Validate(); err != nil {
		return err
	}
	if opt.legacy() {
		w.Version = ndjson.LegacyVersion
	}
	a := &analyzer{r: r, w: w, opt: opt}
	err := a.loop()
	if ferr := w.Flush(); err == nil {
		err = ferr
	}
	return err
}

func (a *analyzer) loop() error {
	for {
		l, err := a.r.Next()
		if errors.Is(err, io.EOF) {
			return a.flush(nil)
		}
		if err != nil {
			return err
		}
		if err := a.line(l); err != nil {
			return err
		}
	}
}

// maxIndex bounds unit and position indices, which the analysis keeps as
// 32-bit integers.
const maxIndex = 1<<31 - 1

type analyzer struct {
	r   *ndjson.Reader
	w   *ndjson.Writer
	opt Options
	cur *runData
	// pending holds the lock and gate records read since the last run
	// record: they precede, and belong to, the next run.
	pending hostRecords
	// onRun, when set, receives each complete run instead of its
	// analysis being written (precision planning).
	onRun func(d *runData, end *ndjson.End) error
}

func (a *analyzer) line(l ndjson.Line) error {
	switch l.Type {
	case ndjson.TypeAnalysis, ndjson.TypeSummary, ndjson.TypeComparison, ndjson.TypeEnvironment:
		return nil // replaced by this analysis
	case ndjson.TypeLock, ndjson.TypeGate, ndjson.TypeWindow:
		if err := a.host(l); err != nil {
			return err
		}
	case ndjson.TypeRun:
		return a.run(l)
	case ndjson.TypeSample:
		return a.sample(l)
	case ndjson.TypeEnd:
		return a.end(l)
	case ndjson.TypeCalibration:
		var c ndjson.Calibration
		if err := a.r.Decode(l, &c); err != nil {
			return err
		}
		if a.cur != nil {
			a.cur.calibrations = append(a.cur.calibrations, c)
		}
	case ndjson.TypeLook:
		var v ndjson.Look
		if err := a.r.Decode(l, &v); err != nil {
			return err
		}
		if a.cur == nil {
			return a.r.Errorf(l, "look record before any run record")
		}
		a.cur.looks = append(a.cur.looks, v)
	}
	return a.w.WriteRaw(l.Raw)
}

func (a *analyzer) run(l ndjson.Line) error {
	var run ndjson.Run
	if err := a.r.Decode(l, &run); err != nil {
		return err
	}
	if len(run.Cases) == 0 {
		return a.r.Errorf(l, "run record has no cases")
	}
	if err := a.flush(nil); err != nil {
		return err
	}
	if err := a.w.WriteRaw(l.Raw); err != nil {
		return err
	}
	a.cur = newRunData(run)
	a.cur.host, a.pending = a.pending, hostRecords{}
	return nil
}

// host keeps a lock, gate or window record for the run it belongs to.
func (a *analyzer) host(l ndjson.Line) error {
	switch l.Type {
	case ndjson.TypeLock:
		var v ndjson.Lock
		if err := a.r.Decode(l, &v); err != nil {
			return err
		}
		a.pending.lock = &v
	case ndjson.TypeGate:
		var v ndjson.Gate
		if err := a.r.Decode(l, &v); err != nil {
			return err
		}
		a.pending.gate = &v
	case ndjson.TypeWindow:
		var v ndjson.Window
		if err := a.r.Decode(l, &v); err != nil {
			return err
		}
		if a.cur == nil {
			return a.r.Errorf(l, "window record before any run record")
		}
		a.cur.host.windows = append(a.cur.host.windows, v)
	}
	return nil
}

func (a *analyzer) sample(l ndjson.Line) error {
	if a.cur == nil {
		return a.r.Errorf(l, "sample record before any run record")
	}
	s, err := decodeSample(a.r, l)
	if err != nil {
		return err
	}
	if s.Case < 0 || s.Case >= len(a.cur.run.Cases) {
		return a.r.Errorf(l, "sample for case %d, but the run has %d cases (0 to %d)", s.Case, len(a.cur.run.Cases), len(a.cur.run.Cases)-1)
	}
	if s.Unit < 0 || s.Unit > maxIndex || s.Pos < 0 || s.Pos > maxIndex {
		return a.r.Errorf(l, "sample with unit %d and position %d; both count from 0", s.Unit, s.Pos)
	}
	if s.Iter < 1 {
		return a.r.Errorf(l, "sample with %d iterations; a batch has at least one", s.Iter)
	}
	if err := a.cur.add(s); err != nil {
		return a.r.Errorf(l, "bad sample record: %v", err)
	}
	return a.w.WriteRaw(l.Raw)
}

func (a *analyzer) end(l ndjson.Line) error {
	var e ndjson.End
	if err := a.r.Decode(l, &e); err != nil {
		return err
	}
	if a.cur == nil {
		return a.r.Errorf(l, "end record before any run record")
	}
	if err := a.w.WriteRaw(l.Raw); err != nil {
		return err
	}
	return a.flush(&e)
}

// flush analyzes the current run, if any. end is nil when the run was cut
// short (another run began, or the stream ended).
func (a *analyzer) flush(end *ndjson.End) error {
	if a.cur == nil {
		return nil
	}
	d := a.cur
	a.cur = nil
	if a.onRun != nil {
		return a.onRun(d, end)
	}
	for _, rec := range d.analyze(end, a.opt) {
		if err := a.w.Write(rec); err != nil {
			return err
		}
	}
	return a.w.Flush()
}
