package check

import (
	"slices"
	"strings"

	"github.com/flybench/flybench/internal/field"
)

// ParseOptions makes the thresholds from the slowdown and the memory
// growth in percent, and the memory floors as sizes (64KiB, 64B; see
// ParseSize). A bad value is a *field.Error.
func ParseOptions(slowdownPct, growthPct float64, floor, floorOp string) (Options, error) {
	opt := Options{MaxSlowdownPct: slowdownPct, MaxMemoryGrowthPct: growthPct}
	for _, p := range []struct {
		path string
		v    float64
	}{{FieldMaxSlowdown, slowdownPct}, {FieldMaxMemoryGrowth, growthPct}} {
		if !(p.v >= 0 && p.v < 1e6) {
			return opt, field.Errorf(p.path, p.v, "%s %g: use a percentage of 0 or more", field.Name(p.path), p.v)
		}
	}
	var err error
	if opt.MemoryFloor, err = ParseSize(floor); err != nil {
		return opt, field.Errorf(FieldMemoryFloor, floor, "%s: %v", field.Name(FieldMemoryFloor), err)
	}
	if opt.MemoryFloorOp, err = ParseSize(floorOp); err != nil {
		return opt, field.Errorf(FieldMemoryFloorOp, floorOp, "%s: %v", field.Name(FieldMemoryFloorOp), err)
	}
	return opt, nil
}

// CheckFormat refuses a format Write does not know.
func CheckFormat(format string) error {
	if !slices.Contains(Formats(), format) {
		return field.Errorf(FieldFormat, format, "%s %q: use %s", field.Name(FieldFormat), format, strings.Join(Formats(), ", "))
	}
	return nil
}

// CheckHistoryRuns refuses a history of fewer than MinHistoryRuns runs.
func CheckHistoryRuns(n int) error {
	if n < MinHistoryRuns {
		return field.Errorf(FieldHistoryRuns, n, "%s %d: use %d or more (the fewest comparable runs a case is judged against)",
			field.Name(FieldHistoryRuns), n, MinHistoryRuns)
	}
	return nil
}
