package worker

import (
	"fmt"
	"strings"

	"github.com/flybench/flybench/internal/axes"
)

// AxisDecl declares a custom axis (man fb-worker(7), CUSTOM AXES). Empty
// fields take the protocol's defaults.
type AxisDecl struct {
	Name string
	// Unit is the unit after normalization, such as "items/op".
	Unit string
	// Direction is "lower" (the default), "higher" or "diagnostic".
	Direction string
	// Semantics is "cumulative" (the default: a counter read before and
	// after the batch), "absolute" (a level read after it) or "elapsed" (a
	// duration the batch measured, read after it).
	Semantics string
	// Normalize is "op" (the default: divided by n) or "batch".
	Normalize string
	// Compare is "relative" (the default: paired ratios, refused for zero
	// or negative values), "absolute" (paired differences) or "exact" (a
	// deterministic count such as nodes visited: the same value in every
	// sample of a side, compared by its exact difference).
	Compare string
	// Scope and Attribution describe what the value covers; the defaults
	// are caller_defined_window and exact_window.
	Scope, Attribution string
}

// Reading is one read of an axis. A reader that cannot read returns the
// zero Reading; the axis is then left out of that answer, and the harness
// records the sample as probe_failed rather than as zero.
type Reading struct {
	Count int64   // a cumulative axis's counter
	Value float64 // an absolute or elapsed axis's value
	OK    bool
}

// Count is a successful reading of a cumulative axis.
func Count(c int64) Reading { return Reading{Count: c, OK: true} }

// Value is a successful reading of an absolute or elapsed axis.
func Value(v float64) Reading { return Reading{Value: v, OK: true} }

// maxAxes is the protocol's limit on custom axes.
const maxAxes = 8

// axis is a declared axis and its reader.
type axis struct {
	decl       AxisDecl
	read       func() Reading
	cumulative bool
	runtime    int // index in the runtime metrics sample, or -1
}

// Axis declares an axis of the program's own, read by read before and
// after each batch (cumulative) or after it (absolute, elapsed), outside
// the timed interval.
func (w *Worker) Axis(d AxisDecl, read func() Reading) {
	if read == nil {
		panic(fmt.Sprintf("worker: axis %q: nil reader", d.Name))
	}
	w.addAxis(&axis{decl: d, read: read, runtime: -1})
}

func (w *Worker) addAxis(a *axis) {
	if err := a.decl.validate(); err != nil {
		panic("worker: " + err.Error())
	}
	if len(w.axes) == maxAxes {
		panic(fmt.Sprintf("worker: axis %q: at most %d axes", a.decl.Name, maxAxes))
	}
	for _, b := range w.axes {
		if b.decl.Name == a.decl.Name {
			panic(fmt.Sprintf("worker: axis %q declared twice", a.decl.Name))
		}
	}
	a.cumulative = a.decl.Semantics == "" || a.decl.Semantics == "cumulative"
	w.axes = append(w.axes, a)
}

func (d AxisDecl) validate() error {
	if err := axes.ValidName(d.Name); err != nil {
		return fmt.Errorf("axis %w", err)
	}
	if d.Name == "elapsed_ns" {
		return fmt.Errorf("axis %q: reserved for the worker's own elapsed time", d.Name)
	}
	if err := axes.ValidText("unit", d.Unit, axes.MaxUnitLen); err != nil {
		return fmt.Errorf("axis %s: %w", d.Name, err)
	}
	for _, f := range []struct{ key, v, allowed string }{
		{"direction", d.Direction, "lower higher diagnostic"},
		{"semantics", d.Semantics, "cumulative absolute elapsed"},
		{"normalize", d.Normalize, "op batch"},
		{"compare", d.Compare, "relative absolute exact"},
	} {
		if f.v != "" && !strings.Contains(" "+f.allowed+" ", " "+f.v+" ") {
			return fmt.Errorf("axis %s: %s %q: use %s", d.Name, f.key, f.v, strings.ReplaceAll(f.allowed, " ", ", "))
		}
	}
	for key, v := range map[string]string{"scope": d.Scope, "attribution": d.Attribution} {
		if v != "" {
			if err := axes.ValidText(key, v, axes.MaxNameLen); err != nil {
				return fmt.Errorf("axis %s: %w", d.Name, err)
			}
		}
	}
	return nil
}

// line is the axis declaration line of the handshake.
func (d AxisDecl) line() string {
	parts := []string{"axis", d.Name, "unit=" + d.Unit}
	for _, kv := range [][2]string{
		{"direction", d.Direction}, {"semantics", d.Semantics}, {"normalize", d.Normalize},
		{"compare", d.Compare}, {"scope", d.Scope}, {"attribution", d.Attribution},
	} {
		if kv[1] != "" {
			parts = append(parts, kv[0]+"="+kv[1])
		}
	}
	return strings.Join(parts, " ")
}
