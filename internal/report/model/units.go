package model

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// A TimeUnit is one step of the duration scale: its name and its size in
// nanoseconds.
type TimeUnit struct {
	Name string
	NS   float64
	exp  int // decimal exponent of NS
}

// TimeUnits are the steps of the duration scale, picoseconds to seconds.
var TimeUnits = []TimeUnit{
	{"ps", 1e-3, -3},
	{"ns", 1, 0},
	{"µs", 1e3, 3},
	{"ms", 1e6, 6},
	{"s", 1e9, 9},
}

// decimalExp is the decimal exponent of v once rounded to four significant
// digits, so 999.96 counts as 1.000e3.
func decimalExp(v float64) int {
	s := strconv.FormatFloat(v, 'e', 3, 64)
	exp, _ := strconv.Atoi(s[strings.IndexByte(s, 'e')+1:])
	return exp
}

// UnitFor picks the largest unit in which ns reads as at least 1.
func UnitFor(ns float64) TimeUnit {
	exp := decimalExp(math.Abs(ns))
	for i := len(TimeUnits) - 1; i > 0; i-- {
		if exp >= TimeUnits[i].exp {
			return TimeUnits[i]
		}
	}
	return TimeUnits[0]
}

// Sig4 prints v with four significant digits in plain decimal.
func Sig4(v float64) string {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return "n/a"
	}
	decimals := max(3-decimalExp(math.Abs(v)), 0)
	return strconv.FormatFloat(v, 'f', decimals, 64)
}

// Dur prints a duration in nanoseconds with four significant digits in the
// unit its magnitude calls for: 2153000 is "2.153 ms".
func Dur(ns float64) string {
	if math.IsNaN(ns) || math.IsInf(ns, 0) {
		return "n/a"
	}
	u := UnitFor(ns)
	return Sig4(ns/u.NS) + " " + u.Name
}

// SignedDur is dur with an explicit sign, for differences.
func SignedDur(ns float64) string {
	if ns > 0 {
		return "+" + Dur(ns)
	}
	return Dur(ns)
}

// DurRange prints an interval, sharing the unit when both ends pick the same
// one: "2.170 .. 2.236 ms", otherwise "950.0 µs .. 1.020 ms".
func DurRange(lo, hi float64) string {
	ulo, uhi := UnitFor(lo), UnitFor(hi)
	if ulo != uhi || math.IsNaN(lo) || math.IsNaN(hi) {
		return Dur(lo) + " .. " + Dur(hi)
	}
	return Sig4(lo/uhi.NS) + " .. " + Sig4(hi/uhi.NS) + " " + uhi.Name
}

// Fixed3 prints a clock characterization with three decimals: nanoseconds
// down to 0.01 ns, picoseconds below, larger units above 1000.
func Fixed3(ns float64) string {
	a, u := math.Abs(ns), TimeUnits[1]
	switch {
	case a >= 1e3:
		u = UnitFor(ns)
	case a > 0 && a < 0.01:
		u = TimeUnits[0]
	}
	return fmt.Sprintf("%.3f %s", ns/u.NS, u.Name)
}

// HMS prints a duration as hh:mm:ss.f.
func HMS(ns int64) string {
	tenths := (ns + 50_000_000) / 100_000_000
	h, rest := tenths/36000, tenths%36000
	return fmt.Sprintf("%02d:%02d:%02d.%d", h, rest/600, rest%600/10, rest%10)
}

// Pct prints a relative change with its sign and one decimal: "-7.6%".
func Pct(v float64) string { return fmt.Sprintf("%+.1f%%", v) }

// PctRange prints a change interval: "-9.3% .. -5.7%".
func PctRange(ci [2]float64) string { return Pct(ci[0]) + " .. " + Pct(ci[1]) }

// Speedup prints a time ratio: "1.082x".
func Speedup(v float64) string { return fmt.Sprintf("%.3fx", v) }

// SpeedupRange prints a ratio interval: "1.061x .. 1.103x".
func SpeedupRange(ci [2]float64) string { return Speedup(ci[0]) + " .. " + Speedup(ci[1]) }

// Confidence prints a confidence level without needless decimals: "95%".
func Confidence(v float64) string {
	return strconv.FormatFloat(math.Round(v*100)/100, 'f', -1, 64) + "%"
}

// Plain prints a number for machines: plain decimal, shortest round-trip form.
func Plain(v float64) string { return strconv.FormatFloat(v, 'f', -1, 64) }

// ShortID is the first eight characters of a run id, enough to tell runs apart.
func ShortID(id string) string {
	if len(id) > 8 {
		return id[:8]
	}
	return id
}
