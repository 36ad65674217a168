// Package collect runs a measurement: it warms and calibrates every case,
// collects timed batches on a paired, position-balanced or sequential
// schedule, and writes run, calibration, sample and end records. It does no
// statistics beyond what calibration and the sampling budget need.
package collect

import (
	"fmt"
	"math"
	"time"

	"github.com/flybench/flybench/internal/field"
	"github.com/flybench/flybench/pkg/ndjson"
)

// Bounds of a run's configuration.
const (
	MinSamples = 10
	MaxSamples = 1000
	MinCases   = 1
	MaxCases   = 16
	// MaxInvocations bounds Invocations.
	MaxInvocations = 1000
	minKeepUnits   = 10 // a sampling budget never stops a run before this many units
	sharedCap      = 8  // shared iterations stop growing when the slower side reaches 8x the slice
	// MaxSizeSpread bounds SizeSpread: sizes vary over at most a
	// factor of 64 (six doublings).
	MaxSizeSpread = 64
	// DefaultSizeSpread varies sizes over a factor of 4 (half to twice the
	// calibrated size): two doublings, enough to measure a dependence
	// per doubling without making any batch much shorter than its slice.
	DefaultSizeSpread = 4
)

// Batching is a batch-size policy.
type Batching string

// The batch-size policies. The stream names them in run.batching.
const (
	// SharedIterations gives every case of a unit the same number of
	// operations, so the sides of a pair or round do the same work: where
	// an operation's cost depends on how many a batch holds (a process
	// per batch, a warming cache, a collector's pace), both sides pay
	// the same dependence.
	SharedIterations Batching = ndjson.BatchingShared
	// EqualTime sizes each case's batch toward an equal timed slice; the
	// comparison then assumes an operation's cost does not depend on the
	// batch size.
	EqualTime Batching = ndjson.BatchingEqualTime
)

// BatchingAuto is the batching left to the mode: shared, unless every
// side of a worker run declares its cost independent of the batch size.
const BatchingAuto = "auto"

// ParseBatching reads a batching policy as a user names it: shared,
// equal-time, or BatchingAuto (also ""), for which auto is true.
func ParseBatching(v string) (b Batching, auto bool, err error) {
	switch v {
	case "", BatchingAuto:
		return SharedIterations, true, nil
	case "shared":
		return SharedIterations, false, nil
	case "equal-time":
		return EqualTime, false, nil
	}
	return "", false, field.Errorf("Batching", v, "%s %q: use shared, equal-time or auto", field.Name("Batching"), v)
}

// Config is the measurement policy. Zero values are not defaults; start from
// DefaultConfig.
type Config struct {
	// Warmup is untimed time spent running the cases before calibration,
	// divided across cases. Every case runs at least once regardless.
	Warmup time.Duration
	// Measurement is the target timed time of the whole run, divided across
	// cases and samples into the per-batch slice, never multiplied by them.
	Measurement time.Duration
	// MaxSampling is a hard budget for the sampling phase; 0 is unlimited.
	MaxSampling time.Duration
	// Samples is the number of timed batches per case (10..1000), or
	// AutoSamples to choose it after warm-up (SamplesRule).
	Samples int
	// MinSample is the shortest batch calibration may choose.
	MinSample time.Duration
	// MaxIterations bounds one batch's logical operation count.
	MaxIterations int64
	// Batching is the batch-size policy: one workload for every case of a
	// unit, or an equal timed slice each.
	Batching Batching
	// SizeSpread is the factor over which the batch sizes of successive
	// units vary (SizeFactor), 1 for one fixed size: a dependence of the
	// per-operation time on the batch size then shows in the samples
	// instead of hiding in the estimate.
	SizeSpread float64
	// Sequential collects each case's block in turn; exposed to drift. It
	// exists to show what pairing protects against, and for per-case blocks.
	Sequential bool
	// SubtractTimerCost subtracts the minimum clock-read cost once per batch.
	SubtractTimerCost bool
	// Seed fixes the order shuffles.
	Seed uint64
	// Watch is the interference-watch policy; the engine's Monitor applies it.
	Watch Watch
	// Until, when its Rule is set, replaces the fixed sample count by a
	// stopping rule checked at growing looks (Engine.Judge).
	Until Until
	// RandomizeLayout pads the environment of every unit's processes to
	// a length drawn from Seed and the unit (LayoutPad), the same for
	// every case of the unit; the operations must be Padded.
	RandomizeLayout bool
	// Invocations is the number of process blocks the whole collection is
	// repeated in (Engine.Process); 0 and 1 mean one, as without blocks.
	Invocations int
	// Rotate is the number of units after which the run's long-lived
	// processes are replaced with fresh ones (Engine.Rotate, rotate.go),
	// AutoRotation to choose it from the sample count, 0 for one process
	// per side for the whole run.
	Rotate int
	// Duet runs the two cases of every pair at the same time, one on
	// each of two CPUs (Engine.Duet, duet.go): interference that hits the
	// machine hits both sides of the pair.
	Duet bool
	// Timeout is the longest one run of an operation may take (a Limited
	// operation's process), AutoTimeout to derive it (RunLimit), or
	// NoTimeout.
	Timeout time.Duration
}

// AutoSamples asks the engine to choose the sample count after warm-up.
const AutoSamples = 0

// AutoTimeout and NoTimeout are the Timeouts that are not a duration.
const (
	AutoTimeout time.Duration = 0
	NoTimeout   time.Duration = -1
)

// Bounds of the automatic sample count.
const (
	autoMinSamples = 50 // the classic fixed default: a minimum worth keeping
	autoMaxSamples = MaxSamples
	// autoMinBatch is the shortest batch the automatic count plans for:
	// a worker woken for a 0.3 ms request ran popcount-loop at 20.6 ns/op
	// where 5 ms requests ran it at 13.8 ns/op (and popcount-bits at 1.16
	// against 0.61): per-request wake-up costs must be amortized.
	autoMinBatch = 5 * time.Millisecond
	// overheadShare is how many times its untimed overhead a batch lasts
	// at least, so that the overhead is at most a third of the wall time
	// a batch costs: a Go test binary started per batch spends 10-40 ms
	// before its benchmark loop, and with 5 ms batches a -t 5s run of
	// strconv's BenchmarkQuote took 22 s, three quarters of it starting
	// processes (README, Process starts count).
	overheadShare = 2
)

// SamplesRule describes in one line how AutoSamples chooses the count,
// for the run record, the fields it depends on spelled by names.
func SamplesRule(names field.Names) string {
	return fmt.Sprintf("auto: as many units as fit the budget (%s, or %s with %s) with every batch at least one operation of the slowest case, 5 ms, twice the time a batch spends untimed (a process start under its own timer) and %s long, 50 to 1000; measured: at a fixed budget, single-operation pairs of a 20 ms program gave intervals 1.3 to 3 times narrower than 50 longer pairs, idle and under load (README, Pair granularity)",
		names.Spell("Measurement"), names.Spell("Until.MaxTime"), names.Spell("Until.Rule"), names.Spell("MinSample"))
}

// DefaultConfig is the default policy: 100 ms warm-up, a 500 ms budget,
// the sample count chosen automatically.
var DefaultConfig = Config{
	Warmup:        100 * time.Millisecond,
	Measurement:   500 * time.Millisecond,
	Samples:       AutoSamples,
	MinSample:     100 * time.Microsecond,
	MaxIterations: math.MaxInt64,
	Batching:      SharedIterations,
	SizeSpread:    DefaultSizeSpread,
	Seed:          1,
}

// Validate reports the first setting out of bounds for k cases: a
// *field.Error naming the Config field at fault by its path ("Samples",
// "Watch.MaxPause"), which a front end spells as its users know it.
func (c Config) Validate(k int) error {
	switch {
	case k < MinCases || k > MaxCases:
		return fmt.Errorf("%d cases: give 1 to %d operations", k, MaxCases)
	case c.Samples != AutoSamples && (c.Samples < MinSamples || c.Samples > MaxSamples):
		return field.Errorf("Samples", c.Samples, "%s %d out of range: use auto or %d to %d", field.Name("Samples"), c.Samples, MinSamples, MaxSamples)
	case c.Warmup < 0:
		return field.Errorf("Warmup", c.Warmup, "%s %v is negative", field.Name("Warmup"), c.Warmup)
	case c.Measurement <= 0:
		return field.Errorf("Measurement", c.Measurement, "%s %v must be positive", field.Name("Measurement"), c.Measurement)
	case c.MaxSampling < 0:
		return field.Errorf("MaxSampling", c.MaxSampling, "%s %v is negative (0 means unlimited)", field.Name("MaxSampling"), c.MaxSampling)
	case c.MinSample <= 0:
		return field.Errorf("MinSample", c.MinSample, "%s %v must be positive", field.Name("MinSample"), c.MinSample)
	case c.MaxIterations < 1:
		return field.Errorf("MaxIterations", c.MaxIterations, "%s %d must be at least 1", field.Name("MaxIterations"), c.MaxIterations)
	case c.Sequential && k < 2:
		return field.Errorf("Sequential", true, "%s needs 2 or more operations", field.Name("Sequential"))
	case c.Batching != SharedIterations && c.Batching != EqualTime:
		return field.Errorf("Batching", c.Batching, "%s %q: use shared or equal-time", field.Name("Batching"), c.Batching)
	case c.Duet && k != 2:
		return field.Errorf("Duet", true, "%s runs two operations side by side; %d given", field.Name("Duet"), k)
	case c.Duet && c.Sequential:
		return field.Errorf("Duet", true, "%s with %s: a duet runs both sides of each pair at once", field.Name("Duet"), field.Name("Sequential"))
	case !(c.SizeSpread >= 1 && c.SizeSpread <= MaxSizeSpread):
		return field.Errorf("SizeSpread", c.SizeSpread, "%s %g out of range: use 1 (one fixed size) to %d", field.Name("SizeSpread"), c.SizeSpread, MaxSizeSpread)
	}
	if c.Timeout < NoTimeout {
		return field.Errorf("Timeout", c.Timeout, "%s %v is negative: use a duration, or none", field.Name("Timeout"), c.Timeout)
	}
	if err := c.validateInvocations(); err != nil {
		return err
	}
	if err := c.Until.Validate(k, c.Sequential); err != nil {
		return err
	}
	return c.Watch.Validate()
}

// validateInvocations refuses process blocks the schedule cannot hold:
// a stopping rule decides when the whole run stops, and a sequential run
// has no pairs or rounds to balance inside a block.
func (c Config) validateInvocations() error {
	k := field.Name("Invocations")
	switch {
	case c.Invocations < 0 || c.Invocations > MaxInvocations:
		return field.Errorf("Invocations", c.Invocations, "%s %d out of range: use 1 to %d", k, c.Invocations, MaxInvocations)
	case c.Rotate < AutoRotation:
		return field.Errorf("Rotate", c.Rotate, "process rotation every %d units: use a positive count, auto or none", c.Rotate)
	case c.Rotate != 0 && c.Invocations > 1:
		return field.Errorf("Rotate", c.Rotate, "process rotation with %d process blocks: the blocks start fresh processes already; rotate or repeat, not both", c.Invocations)
	case c.Rotate != 0 && c.Sequential:
		return field.Errorf("Rotate", c.Rotate, "process rotation in a sequential run: blocks of fresh processes are collected paired or in rounds")
	case c.Invocations <= 1:
		return nil
	case c.Until.Rule != "":
		return field.Errorf("Invocations", c.Invocations, "%s with %s: a stopping rule cannot stop inside a process design; fix the number of blocks and samples instead", k, field.Name("Until.Rule"))
	case c.Sequential:
		seq := field.Name("Sequential")
		return field.Errorf("Invocations", c.Invocations, "%s with %s: blocks are collected paired or in rounds; drop %s", k, seq, seq)
	}
	return nil
}

// Slice is the target duration of one timed batch for k cases: the
// budget divided by the batches it holds. Under a stopping rule the
// budget is --max-time. Before AutoSamples is resolved it is 0.
func (c Config) Slice(k int) time.Duration {
	if c.Samples == AutoSamples {
		return 0
	}
	return c.budget() / time.Duration(c.lanes(k)*c.Samples)
}

// lanes is how many of k batches run one after another in a unit: all of
// them, or one at a time's worth in a duet, whose two sides run at once.
func (c Config) lanes(k int) int {
	if c.Duet {
		return 1
	}
	return k
}

// budget is the time the batches are sized to fill.
func (c Config) budget() time.Duration {
	if c.Until.Rule != "" {
		return c.Until.MaxTime
	}
	return c.Measurement
}

// autoSamples is SamplesRule for k cases whose operations take est ns
// each and whose batches spend over ns each beyond what is timed (the
// warm-up's estimates): the budget over k batches each at least the
// slowest case's operation, autoMinBatch, the shortest batch allowed and
// overheadShare times the largest overhead.
func (c Config) autoSamples(k int, est, over []float64) int {
	batch := float64(max(c.MinSample, autoMinBatch))
	for i, v := range est {
		batch = max(batch, v, overheadShare*over[i])
	}
	return c.unitsFitting(float64(c.lanes(k)) * batch)
}

// fitSamples is the automatic sample count for the calibrated batches:
// iters[c] operations of est[c] ns each, a unit lasting their sum (a
// duet's sides run at once: the longest).
func (c Config) fitSamples(iters []int64, est []float64) int {
	return c.unitsFitting(c.unitWall(iters, est, nil))
}

// unitsFitting is how many units of unit ns fit the budget, 50 to 1000.
func (c Config) unitsFitting(unit float64) int {
	n := math.Floor(float64(c.budget()) / max(unit, 1))
	return int(min(max(n, autoMinSamples), autoMaxSamples))
}

// unitWall is how long a unit of iters[c] operations of est[c] ns each
// lasts on the wall, each batch over[c] ns beyond what is timed (nil:
// none; a duet's sides run at once: the longest).
func (c Config) unitWall(iters []int64, est, over []float64) float64 {
	unit := 0.0
	for i, n := range iters {
		d := float64(n) * est[i]
		if over != nil {
			d += over[i]
		}
		if c.Duet {
			unit = max(unit, d)
		} else {
			unit += d
		}
	}
	return unit
}

// Design names the schedule used for k cases.
func (c Config) Design(k int) ndjson.Design {
	switch {
	case k == 1:
		return ndjson.DesignSingle
	case c.Sequential:
		return ndjson.DesignSequential
	case k == 2:
		return ndjson.DesignPaired
	}
	return ndjson.DesignRounds
}

// BatchingName names the batch-size policy as the stream does.
func (c Config) BatchingName() string {
	return string(c.Batching)
}
