package measure

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
)

// maxScanValues bounds one range before the case count is checked, so a
// huge range is refused without being listed.
const maxScanValues = 1000

// rangeValues lists LO, LO+STEP, ... up to HI. Integer bounds and step
// give integers; a decimal in any of them gives decimals printed with
// the most decimal places the three were written with (as hyperfine
// does, e.g. 0..1 step 0.25 gives 0.00, 0.25, ... 1.00).
func rangeValues(lo, hi, step string) ([]string, error) {
	a, errA := strconv.ParseFloat(lo, 64)
	b, errB := strconv.ParseFloat(hi, 64)
	d, errD := strconv.ParseFloat(step, 64)
	switch {
	case errA != nil || errB != nil || math.IsInf(a, 0) || math.IsInf(b, 0):
		return nil, errors.New("LO and HI must be numbers")
	case errD != nil || !(d > 0) || math.IsInf(d, 0):
		return nil, fmt.Errorf("step %q must be a positive number", step)
	case b < a:
		return nil, errors.New("HI is below LO")
	}
	places := max(decimals(lo), decimals(hi), decimals(step))
	n := int(math.Floor((b-a)/d+1e-9)) + 1
	if n > maxScanValues {
		return nil, fmt.Errorf("%d values: at most %d", n, maxScanValues)
	}
	values := make([]string, n)
	for i := range values {
		values[i] = strconv.FormatFloat(a+float64(i)*d, 'f', places, 64)
	}
	return values, nil
}

// decimals is how many digits follow the decimal point in s.
func decimals(s string) int {
	_, frac, ok := strings.Cut(s, ".")
	if !ok {
		return 0
	}
	return len(frac)
}
