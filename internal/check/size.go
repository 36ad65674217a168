package check

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// sizeUnits are the suffixes ParseSize accepts, matched without regard
// to case: binary multiples (KiB, MiB, GiB) and decimal ones (kB, MB, GB).
var sizeUnits = []struct {
	suffix string
	mult   float64
}{
	{"kib", 1 << 10}, {"mib", 1 << 20}, {"gib", 1 << 30},
	{"kb", 1e3}, {"mb", 1e6}, {"gb", 1e9},
	{"b", 1}, {"", 1},
}

// ParseSize reads an amount of memory in bytes: "65536", "64KiB",
// "1.5 MiB", "100kB", "0". A bare "k", "M" or "G" is refused as
// ambiguous.
func ParseSize(s string) (float64, error) {
	t := strings.ToLower(strings.TrimSpace(s))
	for _, u := range sizeUnits {
		numPart, ok := strings.CutSuffix(t, u.suffix)
		if !ok {
			continue
		}
		numPart = strings.TrimSpace(numPart)
		v, err := strconv.ParseFloat(numPart, 64)
		if err != nil || numPart == "" || strings.ContainsAny(numPart, "xXpP") {
			break
		}
		if v < 0 || math.IsInf(v, 0) || math.IsNaN(v) {
			return 0, fmt.Errorf("size %q is not a non-negative amount", s)
		}
		return v * u.mult, nil
	}
	return 0, fmt.Errorf("size %q: use bytes, or a number with KiB, MiB, GiB (1024) or kB, MB, GB (1000), e.g. 64KiB", s)
}
