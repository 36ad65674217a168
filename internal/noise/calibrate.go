package noise

import (
	"context"
	"fmt"
	"io"
	"math"

	"github.com/flybench/flybench/internal/analyze"
	"github.com/flybench/flybench/internal/field"
	"github.com/flybench/flybench/pkg/ndjson"
)

// Runner runs invocation i (from 1) of the benchmark command and returns
// its stream.
type Runner func(ctx context.Context, i int) (io.Reader, error)

// Config is a calibration's stopping rule and the analysis of raw streams.
type Config struct {
	// MinRuns invocations at least (3 or more), MaxRuns at most.
	MinRuns, MaxRuns int
	// TolerancePct: the calibration has converged when no estimate moved
	// by more than this percentage of its previous value.
	TolerancePct float64
	Analyze      analyze.Options
}

// DefaultConfig is the calibration rule: at least 10 invocations, until every
// estimate moves by less than 10%, at most 50.
var DefaultConfig = Config{MinRuns: 10, MaxRuns: 50, TolerancePct: 10, Analyze: analyze.DefaultOptions}

// The fields of a Config as its field errors name them.
const (
	FieldMinRuns   = "noise.MinRuns"
	FieldMaxRuns   = "noise.MaxRuns"
	FieldTolerance = "noise.TolerancePct"
	FieldKeep      = "noise.Keep"
)

// pairNames is fb-pair's request field of the case names (measure.Request's
// Names), which a duplicate metric's error names.
const pairNames = "Names"

// Validate returns a field error naming a bad setting.
func (c Config) Validate() error {
	switch {
	case c.MinRuns < 3:
		return field.Errorf(FieldMinRuns, c.MinRuns, "%s %d: use 3 or more (two deltas are the fewest a spread can be taken of)", field.Name(FieldMinRuns), c.MinRuns)
	case c.MaxRuns < c.MinRuns:
		return field.Errorf(FieldMaxRuns, c.MaxRuns, "%s %d is below %s %d", field.Name(FieldMaxRuns), c.MaxRuns, field.Name(FieldMinRuns), c.MinRuns)
	case !(c.TolerancePct > 0) || math.IsInf(c.TolerancePct, 0):
		return field.Errorf(FieldTolerance, c.TolerancePct, "%s %g: use a positive percentage", field.Name(FieldTolerance), c.TolerancePct)
	}
	return c.Analyze.Validate()
}

// Progress is the state after one invocation.
type Progress struct {
	Invocation, MaxRuns, Metrics int
	// Estimates is false after the first invocation, which has no delta.
	Estimates bool
	// Largest is the largest relative change of an estimate from the
	// previous invocation's (a fraction, +Inf from zero), and Of its
	// metric; zero after the second invocation, which has no previous
	// estimate.
	Largest float64
	Of      Key
	// Dropped are metrics this invocation lacked; they leave the profile.
	Dropped []Key
	// TagsDiffer is set by the invocation at which the tags first
	// disagreed; the profile then carries none.
	TagsDiffer bool
}

// Result is a finished calibration.
type Result struct {
	Invocations int
	Converged   bool
	Class       ndjson.MachineClass
	Tags        map[string]string
	Metrics     []ndjson.NoiseMetric
	// Largest and Of are the last invocation's largest change of estimate.
	Largest float64
	Of      Key
}

// InvocationError is a failure of invocation I: its stream was bad, or it
// measured another machine class.
type InvocationError struct {
	I   int
	Err error
}

func (e *InvocationError) Unwrap() error { return e.Err }

func (e *InvocationError) Error() string {
	switch err := e.Err.(type) {
	case *ndjson.SyntaxError:
		return fmt.Sprintf("invocation %d: line %d: %s", e.I, err.Line, err.Msg)
	case *ndjson.TornError:
		return fmt.Sprintf("invocation %d: line %d: the stream ends mid-record (a last line without its newline)", e.I, err.Line)
	case *ndjson.VersionError:
		return fmt.Sprintf("invocation %d: line %d: stream schema version %s is not supported (this is schema %s)", e.I, err.Line, err.Found, ndjson.Version)
	}
	return fmt.Sprintf("invocation %d: %v", e.I, e.Err)
}
