package report

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// A timeUnit is one step of the duration scale, in nanoseconds.
type timeUnit struct {
	name string
	ns   float64
	exp  int // decimal exponent of ns
}

var timeUnits = []timeUnit{
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

// unitFor picks the largest unit in which ns reads as at least 1.
func unitFor(ns float64) timeUnit {
	exp := decimalExp(math.Abs(ns))
	for i := len(timeUnits) - 1; i > 0; i-- {
		if exp >= timeUnits[i].exp {
			return timeUnits[i]
		}
	}
	return timeUnits[0]
}

// sig4 prints v with four significant digits in plain decimal.
func sig4(v float64) string {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return "n/a"
	}
	decimals := max(3-decimalExp(math.Abs(v)), 0)
	return strconv.FormatFloat(v, 'f', decimals, 64)
}

// dur prints a duration in nanoseconds with four significant digits in the
// unit its magnitude calls for: 2153000 is "2.153 ms".
func dur(ns float64) string {
	if math.IsNaN(ns) || math.IsInf(ns, 0) {
		return "n/a"
	}
	u := unitFor(ns)
	return sig4(ns/u.ns) + " " + u.name
}

// signedDur is dur with an explicit sign, for differences.
func signedDur(ns float64) string {
	if ns > 0 {
		return "+" + dur(ns)
	}
	return dur(ns)
}

// durRange prints an interval, sharing the unit when both ends pick the same
// one: "2.170 .. 2.236 ms", otherwise "950.0 µs .. 1.020 ms".
func durRange(lo, hi float64) string {
	ulo, uhi := unitFor(lo), unitFor(hi)
	if ulo != uhi || math.IsNaN(lo) || math.IsNaN(hi) {
		return dur(lo) + " .. " + dur(hi)
	}
	return sig4(lo/uhi.ns) + " .. " + sig4(hi/uhi.ns) + " " + uhi.name
}

// fixed3 prints a clock characterization with three decimals: nanoseconds
// down to 0.01 ns, picoseconds below, larger units above 1000.
func fixed3(ns float64) string {
	a, u := math.Abs(ns), timeUnits[1]
	switch {
	case a >= 1e3:
		u = unitFor(ns)
	case a > 0 && a < 0.01:
		u = timeUnits[0]
	}
	return fmt.Sprintf("%.3f %s", ns/u.ns, u.name)
}

// hms prints a duration as hh:mm:ss.f.
func hms(ns int64) string {
	tenths := (ns + 50_000_000) / 100_000_000
	h, rest := tenths/36000, tenths%36000
	return fmt.Sprintf("%02d:%02d:%02d.%d", h, rest/600, rest%600/10, rest%10)
}

// pct prints a relative change with its sign and one decimal: "-7.6%".
func pct(v float64) string { return fmt.Sprintf("%+.1f%%", v) }

// pctRange prints a change interval: "-9.3% .. -5.7%".
func pctRange(ci [2]float64) string { return pct(ci[0]) + " .. " + pct(ci[1]) }

// speedup prints a time ratio: "1.082x".
func speedup(v float64) string { return fmt.Sprintf("%.3fx", v) }

// speedupRange prints a ratio interval: "1.061x .. 1.103x".
func speedupRange(ci [2]float64) string { return speedup(ci[0]) + " .. " + speedup(ci[1]) }

// confidence prints a confidence level without needless decimals: "95%".
func confidence(v float64) string {
	return strconv.FormatFloat(math.Round(v*100)/100, 'f', -1, 64) + "%"
}

// plain prints a number for machines: plain decimal, shortest round-trip form.
func plain(v float64) string { return strconv.FormatFloat(v, 'f', -1, 64) }

// shortID is the first eight characters of a run id, enough to tell runs apart.
func shortID(id string) string {
	if len(id) > 8 {
		return id[:8]
	}
	return id
}
