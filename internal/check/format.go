package check

import (
	"math"
	"strconv"
	"strings"

	"github.com/flybench/flybench/pkg/ndjson"
)

// num prints a percentage or a ratio: whole numbers without decimals,
// small ones with two, the rest with one.
func num(v float64) string {
	a := math.Abs(v)
	switch {
	case a == 0:
		return "0"
	case a < 0.1:
		return strconv.FormatFloat(v, 'f', 2, 64)
	case a == math.Trunc(a) && a < 1e6:
		return strconv.FormatFloat(v, 'f', 0, 64)
	}
	return strconv.FormatFloat(v, 'f', 1, 64)
}

// pct is a setting in percent: "5%", "2.5%".
func pct(v float64) string { return num(v) + "%" }

// meas is a measured percentage, always with its decimal: "10.0%", "0.04%".
func meas(v float64) string {
	if a := math.Abs(v); a > 0 && a < 0.1 {
		return strconv.FormatFloat(v, 'f', 2, 64) + "%"
	}
	return strconv.FormatFloat(v, 'f', 1, 64) + "%"
}

// signedPct is a measured change in percent with its sign: "+10.0%", "-3.0%".
func signedPct(v float64) string { return sign(v) + meas(v) }

func sign(v float64) string {
	if v > 0 {
		return "+"
	}
	return ""
}

// amount prints a value in an axis unit: bytes in binary units
// ("64 KiB", "48 B/op"), anything else as a number and its unit.
func amount(v float64, unit string) string {
	if !bytesUnit(unit) {
		return plainNumber(v) + " " + unit
	}
	s := binaryBytes(v)
	if _, per, ok := strings.Cut(unit, "/"); ok {
		s += "/" + per
	}
	return s
}

// signedAmount is amount with a sign on growth.
func signedAmount(v float64, unit string) string { return sign(v) + amount(v, unit) }

// quantity prints a count in its unit: "1200 instructions/op".
func quantity(v float64, unit string) string { return amount(v, unit) }

// plainNumber prints a count: whole numbers in full, others to four
// significant digits.
func plainNumber(v float64) string {
	if v == math.Trunc(v) && math.Abs(v) < 1e15 {
		return strconv.FormatFloat(v, 'f', 0, 64)
	}
	return strconv.FormatFloat(v, 'g', 4, 64)
}

// binaryBytes prints a number of bytes in B, KiB, MiB, GiB or TiB.
func binaryBytes(v float64) string {
	units := []string{"B", "KiB", "MiB", "GiB", "TiB"}
	a, i := math.Abs(v), 0
	for a >= 1024 && i < len(units)-1 {
		a /= 1024
		i++
	}
	s := strings.TrimSuffix(strconv.FormatFloat(a, 'f', 1, 64), ".0")
	if v < 0 && s != "0" {
		s = "-" + s
	}
	return s + " " + units[i]
}

// formatValue prints an item's value: a signed percentage, or a signed
// amount in the item's unit; "-" for a skipped item.
func formatValue(it ndjson.CheckItem) string {
	switch {
	case it.Outcome == ndjson.CheckItemSkip:
		return "-"
	case it.Unit == "%":
		return signedPct(it.Value)
	}
	return signedAmount(it.Value, it.Unit)
}

// formatThreshold prints an item's practical threshold: a percentage, a
// floor in the item's unit, or "any" for a count.
func formatThreshold(it ndjson.CheckItem) string {
	switch {
	case it.Kind == KindCounter:
		return "any"
	case it.Unit == "%":
		return pct(it.Threshold)
	}
	return amount(it.Threshold, it.Unit)
}

// formatWindow prints an item's statistical window: "±2.1%" for a time
// change (an interval both ways), "3.0%" for a memory growth (how far it
// must rise), "-" for none.
func formatWindow(it ndjson.CheckItem) string {
	switch {
	case it.Kind == KindCounter || it.Outcome == ndjson.CheckItemSkip:
		return "-"
	case it.Kind == KindTime || it.Kind == KindHistory:
		return "±" + meas(it.Window)
	case it.Unit == "%":
		return meas(it.Window)
	}
	return amount(it.Window, it.Unit)
}
