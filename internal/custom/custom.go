// Package custom describes caller-defined axes: values a batch process or
// a worker reports about its own work (its elapsed time, allocations, items
// processed), declared before the run with the same four facts as every
// built-in axis, validated, and turned into sample
// values with explicit statuses (counter reset, invalid value, conversion
// overflow) rather than silent zeros.
package custom

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/flybench/flybench/internal/axes"
	"github.com/flybench/flybench/pkg/ndjson"
)

// Bounds of custom axis declarations.
const (
	MaxAxes      = 8
	MaxNameLen   = axes.MaxNameLen
	MaxUnitLen   = axes.MaxUnitLen
	MaxSourceLen = axes.MaxSourceLen
)

// Semantics is what the value reported for a batch means.
type Semantics string

const (
	Cumulative Semantics = "cumulative" // a counter read before and after: the sample is the difference
	AbsoluteV  Semantics = "absolute"   // a level observed at the end of the batch
	Elapsed    Semantics = "elapsed"    // a duration returned by the measured work
)

// Normalization says whether a batch value is divided by its operations.
type Normalization string

const (
	PerOperation Normalization = "op"
	PerBatch     Normalization = "batch"
)

// Comparison is how two sides of the axis are compared.
type Comparison string

const (
	// Relative compares paired ratios and refuses any pair with a zero or
	// negative value instead of silently changing meaning.
	Relative Comparison = "relative"
	// Absolute compares paired signed differences.
	Absolute Comparison = "absolute"
	// Exact is a deterministic count (nodes visited, rows scanned): the
	// value depends only on the input and the code, so each side must
	// report the same value in every sample and the comparison is their
	// exact difference, without an interval.
	Exact Comparison = "exact"
)

// Descriptor declares one custom axis.
type Descriptor struct {
	Name        string
	Unit        string
	Direction   axes.Direction
	Semantics   Semantics
	Normalize   Normalization
	Compare     Comparison
	Scope       string
	Attribution string
	// Primary makes the axis the run's timer instead of wall time; it
	// must be an elapsed axis with a Source and a positive Resolution.
	Primary    bool
	Source     string
	Resolution float64
}

// Defaults fills what a declaration left out.
func (d Descriptor) Defaults() Descriptor {
	if d.Direction == "" {
		d.Direction = axes.LowerIsBetter
	}
	if d.Semantics == "" {
		d.Semantics = Cumulative
	}
	if d.Normalize == "" {
		d.Normalize = PerOperation
	}
	if d.Compare == "" {
		d.Compare = Relative
	}
	if d.Scope == "" {
		d.Scope = "caller_defined_window"
	}
	if d.Attribution == "" {
		d.Attribution = axes.AttrExactWindow
	}
	return d
}

// Info is the axis's descriptor for the run record.
func (d Descriptor) Info() ndjson.AxisInfo {
	norm := axes.PerOperation
	if d.Normalize == PerBatch {
		norm = "per_batch"
	}
	return ndjson.AxisInfo{
		Name: d.Name, Unit: d.Unit, Family: "custom", Scope: d.Scope, Attribution: d.Attribution,
		Direction: string(d.Direction), Normalization: string(norm), Status: string(axes.Collected),
		Semantics: string(d.Semantics), Comparison: string(d.Compare), Primary: d.Primary,
		Source: d.Source, Resolution: d.Resolution,
	}
}

// Value turns a reported field into a sample value for a batch of n
// operations: "begin:end" for cumulative axes, one number otherwise.
func (d Descriptor) Value(raw string, n int64) ndjson.AxisValue {
	var v float64
	if d.Semantics == Cumulative {
		delta, st, why := counterDelta(raw)
		if st != "" {
			return ndjson.AxisValue{S: string(st), R: why}
		}
		v = float64(delta)
	} else {
		f, err := strconv.ParseFloat(raw, 64)
		switch {
		case err != nil && !isRangeErr(err):
			return ndjson.AxisValue{S: string(axes.InvalidValue), R: fmt.Sprintf("%q is not a number", raw)}
		case err != nil || math.IsInf(f, 0) || math.IsNaN(f):
			return ndjson.AxisValue{S: string(axes.InvalidValue), R: fmt.Sprintf("%q is not finite", raw)}
		case d.Semantics == Elapsed && f < 0:
			return ndjson.AxisValue{S: string(axes.InvalidValue), R: fmt.Sprintf("negative elapsed %s", raw)}
		}
		v = f
	}
	if d.Normalize == PerOperation {
		v /= float64(n)
	}
	if math.IsInf(v, 0) || math.IsNaN(v) {
		return ndjson.AxisValue{S: string(axes.ConversionOverflow), R: "normalized value overflows"}
	}
	return ndjson.Collected(v)
}

func isRangeErr(err error) bool {
	ne, ok := err.(*strconv.NumError)
	return ok && ne.Err == strconv.ErrRange
}

// counterDelta parses "begin:end" and returns end - begin.
func counterDelta(raw string) (int64, axes.Status, string) {
	b, e, ok := strings.Cut(raw, ":")
	if !ok {
		return 0, axes.InvalidValue, fmt.Sprintf("%q: a cumulative axis reports begin:end", raw)
	}
	begin, err1 := strconv.ParseInt(b, 10, 64)
	end, err2 := strconv.ParseInt(e, 10, 64)
	if err1 != nil || err2 != nil {
		if isRangeErr(err1) || isRangeErr(err2) {
			return 0, axes.ConversionOverflow, fmt.Sprintf("%q does not fit a 64-bit counter", raw)
		}
		return 0, axes.InvalidValue, fmt.Sprintf("%q: begin and end must be integers", raw)
	}
	if end < begin {
		return 0, axes.CounterReset, fmt.Sprintf("counter went from %d to %d", begin, end)
	}
	if begin < 0 && end > math.MaxInt64+begin {
		return 0, axes.ConversionOverflow, fmt.Sprintf("%d - %d overflows", end, begin)
	}
	return end - begin, "", ""
}
