package gotest

import (
	"cmp"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/flybench/flybench/internal/axes"
	"github.com/flybench/flybench/internal/custom"
	"github.com/flybench/flybench/pkg/ndjson"
)

// The primary timer of a gotest run: Go's ns/op, reported as the batch's
// elapsed time (Result.ElapsedNS), not as a custom axis.
const (
	TimerSource       = "go-testing"
	TimerResolutionNS = 1 // the monotonic clock the testing package reads
	TimerNote         = "Go's own ns/op times (b.N iterations, printed to 4 significant digits or to the ns); process start-up and test runtime initialization are excluded"
)

// Units go test prints itself, with the axis names they take.
var known = map[string]custom.Descriptor{
	"B/op":      {Name: "alloc_bytes", Direction: axes.LowerIsBetter, Compare: custom.Absolute},
	"allocs/op": {Name: "allocs", Direction: axes.LowerIsBetter, Compare: custom.Absolute},
	"MB/s":      {Name: "mb_per_s", Direction: axes.HigherIsBetter, Compare: custom.Relative},
}

// Axes declares the custom axes the units of the given results imply, one
// per unit in any of them (pass a result of every side, so that both
// declare the same set): alloc_bytes, allocs and mb_per_s first, then the
// b.ReportMetric units by axis name. Every axis is semantics absolute and
// normalize batch, because Go already divided the value by b.N: dividing
// again would be wrong. B/op and allocs/op are lower-is-better and compared
// as absolute differences (they are integers, often zero, and a ratio is
// undefined at zero); MB/s is higher-is-better and relative; any other unit
// is diagnostic and compared as differences, since its sign is unknown.
// Each descriptor is valid alone; check the set with custom.ValidateSet
// (at most custom.MaxAxes, names distinct).
func Axes(results ...Result) []custom.Descriptor {
	units := map[string]bool{}
	for _, r := range results {
		for u := range r.Metrics {
			units[u] = true
		}
	}
	ds := make([]custom.Descriptor, 0, len(units))
	for _, u := range slices.Sorted(maps.Keys(units)) {
		ds = append(ds, describe(u))
	}
	slices.SortFunc(ds, func(a, b custom.Descriptor) int {
		return cmp.Or(rank(a.Name)-rank(b.Name), strings.Compare(a.Name, b.Name))
	})
	return ds
}

func rank(name string) int {
	switch name {
	case "alloc_bytes":
		return 0
	case "allocs":
		return 1
	case "mb_per_s":
		return 2
	}
	return 3
}

// describe is the axis of one unit.
func describe(unit string) custom.Descriptor {
	d, ok := known[unit]
	if !ok {
		d = custom.Descriptor{Direction: axes.Diagnostic, Compare: custom.Absolute}
	}
	d.Name, d.Unit = AxisName(unit), AxisUnit(unit)
	d.Semantics, d.Normalize = custom.AbsoluteV, custom.PerBatch
	return d.Defaults()
}

// Values turns a result into the sample values of the declared axes, by
// name. A declared axis the result lacks is probe_failed, never zero; a
// unit the declarations lack is an error, as an undeclared axis is on the
// report channel.
func Values(ds []custom.Descriptor, r Result) (map[string]ndjson.AxisValue, error) {
	byName := map[string]string{}
	for u := range r.Metrics {
		byName[AxisName(u)] = u
	}
	out := make(map[string]ndjson.AxisValue, len(ds))
	for _, d := range ds {
		u, ok := byName[d.Name]
		if !ok {
			out[d.Name] = ndjson.AxisValue{S: string(axes.ProbeFailed), R: fmt.Sprintf("the benchmark did not report %s", d.Unit)}
			continue
		}
		out[d.Name] = d.Value(strconv.FormatFloat(r.Metrics[u], 'g', -1, 64), r.Iterations)
		delete(byName, d.Name)
	}
	if len(byName) > 0 {
		name := slices.Min(slices.Collect(maps.Keys(byName)))
		return nil, fmt.Errorf("%s reported %s, which was not declared as axis %s: declare the axes from a result of every side", r.Name, byName[name], name)
	}
	return out, nil
}

// AxisName is the axis a unit becomes: alloc_bytes for B/op, allocs for
// allocs/op, mb_per_s for MB/s; any other unit loses a final "/op", is
// lowercased, spells "/" as "_per_", "%" as "pct" and µ as u, turns any
// other character a name may not hold into "_", and is cut to
// custom.MaxNameLen. A name that would not begin with a letter, or would
// take a built-in axis's or a go test unit's name, is prefixed with "go_".
func AxisName(unit string) string {
	if d, ok := known[unit]; ok {
		return d.Name
	}
	var b strings.Builder
	for _, r := range strings.TrimSuffix(unit, "/op") {
		switch {
		case r >= 'A' && r <= 'Z':
			b.WriteRune(r + 'a' - 'A')
		case r >= 'a' && r <= 'z', r >= '0' && r <= '9', r == '.', r == '-', r == '_':
			b.WriteRune(r)
		case r == '/':
			b.WriteString("_per_")
		case r == '%':
			b.WriteString("pct")
		case r == 'µ' || r == 'μ':
			b.WriteByte('u')
		default:
			b.WriteByte('_')
		}
	}
	name := b.String()
	if name == "" || name[0] < 'a' || name[0] > 'z' || taken(name) {
		name = "go_" + name
	}
	return strings.TrimRight(name[:min(len(name), custom.MaxNameLen)], "_")
}

// taken reports whether a name belongs to a built-in axis, the reserved
// elapsed_ns, or one of go test's own units.
func taken(name string) bool {
	if _, ok := axes.Lookup(name); ok || name == "elapsed_ns" {
		return true
	}
	for _, d := range known {
		if d.Name == name {
			return true
		}
	}
	return false
}

// AxisUnit is the unit an axis declares: the Go unit itself when a
// declaration can hold it, else with µ as u, each character a unit may not
// hold (space, comma, quote, backslash, non-ASCII) as "_", and cut to
// custom.MaxUnitLen keeping a final "/op".
func AxisUnit(unit string) string {
	var b strings.Builder
	for _, r := range unit {
		switch {
		case r == 'µ' || r == 'μ':
			b.WriteByte('u')
		case r <= ' ' || r > '~' || r == ',' || r == '"' || r == '\'' || r == '\\':
			b.WriteByte('_')
		default:
			b.WriteRune(r)
		}
	}
	u := b.String()
	if len(u) <= custom.MaxUnitLen {
		return u
	}
	if strings.HasSuffix(u, "/op") {
		return u[:custom.MaxUnitLen-3] + "/op"
	}
	return u[:custom.MaxUnitLen]
}
