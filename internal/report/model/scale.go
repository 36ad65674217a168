package model

import (
	"fmt"
	"math"
	"strings"
)

// binaryUnits are the byte scale, each 1024 times the one before.
var binaryUnits = []string{"B", "KiB", "MiB", "GiB", "TiB"}

// binary picks the largest binary unit in which a byte count reads as at
// least 1, and its size in bytes.
func binary(v float64) (div float64, unit string) {
	k, a := 0, math.Abs(v)
	for k < len(binaryUnits)-1 && a >= math.Pow(1024, float64(k+1)) {
		k++
	}
	return math.Pow(1024, float64(k)), binaryUnits[k]
}

// countSuffixes shorten large counts: 12345 reads "12.35k".
var countSuffixes = []string{"", "k", "M", "G", "T"}

// count prints a per-operation count with four significant digits, plain
// below 10000 ("1216") and with a suffix above ("12.35k", "2.500G").
func count(v float64) string {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return "n/a"
	}
	exp := decimalExp(math.Abs(v))
	if exp < 4 {
		return Sig4(v)
	}
	k := min(exp/3, len(countSuffixes)-1)
	return Sig4(v/math.Pow(1000, float64(k))) + countSuffixes[k]
}

// Scale prints the numbers of one row of an axis in one unit, chosen
// for the row's largest value: durations in ns, µs, ms or s, bytes in
// binary units, counts with a k, M or G suffix of their own, and ratios
// such as instructions per cycle with three decimals.
type Scale struct {
	div   float64 // 0 for counts and ratios, printed unscaled
	Label string  // the unit after the number: "ms/op", "MiB", "faults/op"
	ratio bool
}

// ScaleFor picks the scale of values as large as v in an axis unit.
func ScaleFor(v float64, unit string) Scale {
	base, per, _ := strings.Cut(unit, "/")
	if per != "" {
		per = "/" + per
	}
	switch {
	case math.IsNaN(v) || math.IsInf(v, 0):
		return Scale{Label: unit}
	case base == "ns":
		u := UnitFor(v)
		return Scale{div: u.NS, Label: u.Name + per}
	case base == "bytes":
		div, name := binary(v)
		return Scale{div: div, Label: name + per}
	}
	return Scale{Label: unit, ratio: per != "" && per != "/op"}
}

// RowScale is the scale of a row holding values vs.
func RowScale(unit string, vs ...float64) Scale {
	top := 0.0
	for _, v := range vs {
		if !math.IsNaN(v) && !math.IsInf(v, 0) {
			top = max(top, math.Abs(v))
		}
	}
	return ScaleFor(top, unit)
}

// Num prints v in the scale, without its label.
func (s Scale) Num(v float64) string {
	switch {
	case math.IsNaN(v) || math.IsInf(v, 0):
		return "n/a"
	case s.ratio:
		return fmt.Sprintf("%.3f", v)
	case s.div > 0:
		return Sig4(v / s.div)
	}
	return count(v)
}

// Signed is num with an explicit sign, for differences.
func (s Scale) Signed(v float64) string {
	if v > 0 {
		return "+" + s.Num(v)
	}
	return s.Num(v)
}

// Span prints an interval in the scale, without its label.
func (s Scale) Span(lo, hi float64, signed bool) string {
	if signed {
		return s.Signed(lo) + " .. " + s.Signed(hi)
	}
	return s.Num(lo) + " .. " + s.Num(hi)
}

// AxisValue is v with its unit: "1.932 ms/op", "12.30 MiB", "1216 faults/op".
func AxisValue(v float64, unit string) string {
	s := ScaleFor(v, unit)
	return JoinNonEmpty([]string{s.Num(v), s.Label}, " ")
}

// SignedAxis is axisValue with an explicit sign, for differences.
func SignedAxis(v float64, unit string) string {
	s := ScaleFor(v, unit)
	return JoinNonEmpty([]string{s.Signed(v), s.Label}, " ")
}

// AxisRange prints an interval with its unit: "4.772 .. 4.808 ms/op".
// signed marks positive ends with "+".
func AxisRange(lo, hi float64, unit string, signed bool) string {
	s := RowScale(unit, lo, hi)
	return JoinNonEmpty([]string{s.Span(lo, hi, signed), s.Label}, " ")
}

// Memory prints a resident-set size with one decimal: "12.3 MiB".
func Memory(v float64) string {
	div, unit := binary(v)
	return fmt.Sprintf("%.1f %s", v/div, unit)
}

// Bounds are the smallest and largest values of x.
func Bounds(x []float64) (lo, hi float64) {
	if len(x) == 0 {
		return 0, 0
	}
	lo, hi = x[0], x[0]
	for _, v := range x[1:] {
		lo, hi = min(lo, v), max(hi, v)
	}
	return lo, hi
}
