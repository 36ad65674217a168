package custom

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/flybench/flybench/internal/axes"
)

// Validate checks one declaration on its own.
func (d Descriptor) Validate() error {
	if err := axes.ValidName(d.Name); err != nil {
		return fmt.Errorf("axis %w", err)
	}
	if err := axes.ValidText("unit", d.Unit, MaxUnitLen); err != nil {
		return fmt.Errorf("axis %s: %w", d.Name, err)
	}
	if err := d.validEnums(); err != nil {
		return fmt.Errorf("axis %s: %w", d.Name, err)
	}
	if d.Primary {
		if d.Semantics != Elapsed {
			return fmt.Errorf("axis %s: a primary timer must have semantics elapsed", d.Name)
		}
		if err := axes.ValidText("timing source", d.Source, MaxSourceLen); err != nil {
			return fmt.Errorf("axis %s: %w", d.Name, err)
		}
		if !(d.Resolution > 0) {
			return fmt.Errorf("axis %s: a primary timer needs a positive resolution", d.Name)
		}
	}
	return nil
}

func (d Descriptor) validEnums() error {
	switch {
	case d.Direction != axes.LowerIsBetter && d.Direction != axes.HigherIsBetter && d.Direction != axes.Diagnostic:
		return fmt.Errorf("direction %q: use lower, higher or diagnostic", d.Direction)
	case d.Semantics != Cumulative && d.Semantics != AbsoluteV && d.Semantics != Elapsed:
		return fmt.Errorf("semantics %q: use cumulative, absolute or elapsed", d.Semantics)
	case d.Normalize != PerOperation && d.Normalize != PerBatch:
		return fmt.Errorf("normalize %q: use op or batch", d.Normalize)
	case d.Compare != Relative && d.Compare != Absolute && d.Compare != Exact:
		return fmt.Errorf("compare %q: use relative, absolute or exact", d.Compare)
	}
	return nil
}

// reserved are names a custom axis may not take besides the built-in axes:
// the worker's own elapsed time, and the timing axis of a CPU-timed run.
var reserved = map[string]bool{"elapsed_ns": true, axes.CPUTime: true}

// ValidateSet checks a whole declaration list: each axis, the count, unique
// names, no collision with a built-in axis, at most one primary timer.
func ValidateSet(ds []Descriptor) error {
	if len(ds) > MaxAxes {
		return fmt.Errorf("%d custom axes declared: at most %d", len(ds), MaxAxes)
	}
	seen := map[string]bool{}
	primary := ""
	for _, d := range ds {
		if err := d.Validate(); err != nil {
			return err
		}
		if _, builtin := axes.Lookup(d.Name); builtin || reserved[d.Name] {
			return fmt.Errorf("axis %s: collides with a built-in axis name", d.Name)
		}
		if seen[d.Name] {
			return fmt.Errorf("axis %s: declared twice", d.Name)
		}
		seen[d.Name] = true
		if d.Primary && primary != "" {
			return fmt.Errorf("axes %s and %s both declare primary=1: at most one primary timer", primary, d.Name)
		}
		if d.Primary {
			primary = d.Name
		}
	}
	return nil
}

// ParseDecl reads the fields of an "axis NAME key=value ..." line after
// the word axis.
func ParseDecl(fields []string) (Descriptor, error) {
	if len(fields) == 0 {
		return Descriptor{}, fmt.Errorf("axis declaration without a name")
	}
	d := Descriptor{Name: fields[0]}
	for _, f := range fields[1:] {
		k, v, ok := strings.Cut(f, "=")
		if !ok || v == "" {
			return Descriptor{}, fmt.Errorf("axis %s: %q is not key=value", d.Name, f)
		}
		if err := d.set(k, v); err != nil {
			return Descriptor{}, fmt.Errorf("axis %s: %w", d.Name, err)
		}
	}
	if d.Unit == "" {
		return Descriptor{}, fmt.Errorf("axis %s: unit= is required", d.Name)
	}
	d = d.Defaults()
	return d, d.Validate()
}

func (d *Descriptor) set(k, v string) error {
	switch k {
	case "unit":
		d.Unit = v
	case "direction":
		d.Direction = axes.Direction(v)
	case "semantics":
		d.Semantics = Semantics(v)
	case "normalize":
		d.Normalize = Normalization(v)
	case "compare":
		d.Compare = Comparison(v)
	case "scope":
		d.Scope = v
	case "attribution":
		d.Attribution = v
	case "primary":
		d.Primary = v == "1" || v == "true"
	case "source":
		d.Source = v
	case "resolution":
		r, err := strconv.ParseFloat(v, 64)
		if err != nil {
			return fmt.Errorf("resolution %q is not a number", v)
		}
		d.Resolution = r
	default:
		return fmt.Errorf("unknown attribute %q", k)
	}
	return nil
}
