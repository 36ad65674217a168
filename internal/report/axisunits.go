package report

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
		return sig4(v)
	}
	k := min(exp/3, len(countSuffixes)-1)
	return sig4(v/math.Pow(1000, float64(k))) + countSuffixes[k]
}

// axisScale prints the numbers of one row of an axis in one unit, chosen
// for the row's largest value: durations in ns, µs, ms or s, bytes in
// binary units, counts with a k, M or G suffix of their own, and ratios
// such as instructions per cycle with three decimals.
type axisScale struct {
	div   float64 // 0 for counts and ratios, printed unscaled
	label string  // the unit after the number: "ms/op", "MiB", "faults/op"
	ratio bool
}

// scaleFor picks the scale of values as large as v in an axis unit.
func scaleFor(v float64, unit string) axisScale {
	base, per, _ := strings.Cut(unit, "/")
	if per != "" {
		per = "/" + per
	}
	switch {
	case math.IsNaN(v) || math.IsInf(v, 0):
		return axisScale{label: unit}
	case base == "ns":
		u := unitFor(v)
		return axisScale{div: u.ns, label: u.name + per}
	case base == "bytes":
		div, name := binary(v)
		return axisScale{div: div, label: name + per}
	}
	return axisScale{label: unit, ratio: per != "" && per != "/op"}
}

// rowScale is the scale of a row holding values vs.
func rowScale(unit string, vs ...float64) axisScale {
	top := 0.0
	for _, v := range vs {
		if !math.IsNaN(v) && !math.IsInf(v, 0) {
			top = max(top, math.Abs(v))
		}
	}
	return scaleFor(top, unit)
}

// num prints v in the scale, without its label.
func (s axisScale) num(v float64) string {
	switch {
	case math.IsNaN(v) || math.IsInf(v, 0):
		return "n/a"
	case s.ratio:
		return fmt.Sprintf("%.3f", v)
	case s.div > 0:
		return sig4(v / s.div)
	}
	return count(v)
}

// signed is num with an explicit sign, for differences.
func (s axisScale) signed(v float64) string {
	if v > 0 {
		return "+" + s.num(v)
	}
	return s.num(v)
}

// span prints an interval in the scale, without its label.
func (s axisScale) span(lo, hi float64, signed bool) string {
	if signed {
		return s.signed(lo) + " .. " + s.signed(hi)
	}
	return s.num(lo) + " .. " + s.num(hi)
}

// axisValue is v with its unit: "1.932 ms/op", "12.30 MiB", "1216 faults/op".
func axisValue(v float64, unit string) string {
	s := scaleFor(v, unit)
	return joinNonEmpty([]string{s.num(v), s.label}, " ")
}

// signedAxis is axisValue with an explicit sign, for differences.
func signedAxis(v float64, unit string) string {
	s := scaleFor(v, unit)
	return joinNonEmpty([]string{s.signed(v), s.label}, " ")
}

// axisRange prints an interval with its unit: "4.772 .. 4.808 ms/op".
// signed marks positive ends with "+".
func axisRange(lo, hi float64, unit string, signed bool) string {
	s := rowScale(unit, lo, hi)
	return joinNonEmpty([]string{s.span(lo, hi, signed), s.label}, " ")
}

// memory prints a resident-set size with one decimal: "12.3 MiB".
func memory(v float64) string {
	div, unit := binary(v)
	return fmt.Sprintf("%.1f %s", v/div, unit)
}
