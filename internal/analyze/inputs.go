package analyze

import (
	"strconv"
	"strings"

	"github.com/flybench/flybench/internal/field"
	"github.com/flybench/flybench/pkg/ndjson"
	"github.com/flybench/flybench/pkg/stats"
)

// FieldPlan is the field of a plan's target half-width, as its field
// errors name it.
const FieldPlan = "analyze.Plan"

// ParsePlanWidth reads a plan's target, half-width=P%, with P above 0 and
// below 100.
func ParsePlanWidth(s string) (float64, error) {
	v, ok := strings.CutPrefix(s, "half-width=")
	w, err := strconv.ParseFloat(strings.TrimSuffix(v, "%"), 64)
	if !ok || err != nil || !(w > 0 && w < 100) {
		return 0, field.Errorf(FieldPlan, s, "%s %q: use half-width=P%% with P above 0 and below 100, e.g. half-width=1%%", field.Name(FieldPlan), s)
	}
	return w, nil
}

// CheckBaseline checks, before the baseline is read, its file and the
// fingerprint fields allowed to differ from it (each value of allow a
// comma-separated list), and returns those fields. Without a file (file
// "") none may be allowed.
func CheckBaseline(file string, allow []string, est stats.Estimator) ([]string, error) {
	var fields []string
	for _, v := range allow {
		for _, f := range strings.Split(v, ",") {
			if f = strings.TrimSpace(f); f != "" {
				fields = append(fields, f)
			}
		}
	}
	if file == "" {
		if len(fields) > 0 {
			return nil, field.Errorf(FieldAllowMismatch, fields, "%s needs %s", field.Name(FieldAllowMismatch), field.Name(FieldBaseline))
		}
		return nil, nil
	}
	if err := CheckAllowed(fields); err != nil {
		return nil, err
	}
	switch {
	case est == stats.EstimatorLegacy:
		return nil, field.Errorf(FieldBaseline, file, "%s needs schema 1.4 records: use %s robust or mean, not legacy",
			field.Name(FieldBaseline), field.Name(FieldEstimator))
	case file == "-":
		return nil, field.Errorf(FieldBaseline, file, "%s -: the baseline must be a file (stdin carries the current run)", field.Name(FieldBaseline))
	}
	return fields, nil
}

// WriteAfterInputs ends an analysis of several inputs with what follows
// them all: the A/A series' summaries (opt.AA), the suite record
// (opt.Suite) and the recordings' comparisons (opt.Recordings).
func WriteAfterInputs(w *ndjson.Writer, opt Options) error {
	if err := WriteAA(w, opt.AA, opt); err != nil {
		return err
	}
	if err := WriteSuite(w, opt.Suite, opt); err != nil {
		return err
	}
	return WriteSpanComparisons(w, opt.Recordings, opt)
}
