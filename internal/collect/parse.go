package collect

import (
	"strconv"
	"time"

	"github.com/flybench/flybench/internal/field"
)

// ParseTimeout reads a run's time limit as written: auto, none (or 0), or
// a positive duration. A bad one is a *field.Error of Timeout.
func ParseTimeout(v string) (time.Duration, error) {
	switch v {
	case "auto":
		return AutoTimeout, nil
	case "none", "0":
		return NoTimeout, nil
	}
	d, err := time.ParseDuration(v)
	if err != nil || d <= 0 {
		return 0, field.Errorf("Timeout", v, "%s %q: use a duration such as 30s, none, or auto", field.Name("Timeout"), v)
	}
	return d, nil
}

// ParseSamples reads a sample count as written: auto, or a count. A count
// that is not a number becomes -1, which Validate refuses with the range.
func ParseSamples(s string) int {
	if s == "auto" {
		return AutoSamples
	}
	n, err := strconv.Atoi(s)
	if err != nil || n == AutoSamples {
		return -1
	}
	return n
}

// ParseRotate reads the units per process block as written: AutoRotation
// for auto, 0 for off, or a positive count. A bad one is a *field.Error of
// Rotate.
func ParseRotate(v string) (int, error) {
	switch v {
	case "", "auto":
		return AutoRotation, nil
	case "off", "0":
		return 0, nil
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < 1 {
		return 0, field.Errorf("Rotate", v, "%s %q: use auto, off or a number of pairs or rounds per process block", field.Name("Rotate"), v)
	}
	return n, nil
}
