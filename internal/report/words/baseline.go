package words

import (
	"fmt"
	"strings"

	"github.com/flybench/flybench/internal/report/model"
	"github.com/flybench/flybench/pkg/ndjson"
)

// BaselineTitle names the baseline a run was compared with.
func BaselineTitle(b *ndjson.Baseline) string {
	what := "times"
	if b.Normalized {
		what = "reference-normalized scores"
	}
	src := ""
	if b.Source != "" {
		src = ", from " + b.Source
	}
	return fmt.Sprintf("against baseline %s (run %s%s, %s; design independent, %s)", b.File, model.ShortID(b.RunID), src, Started(b.Started), what)
}

// Started is an RFC 3339 time to the minute, or the text as it is.
func Started(s string) string {
	if len(s) >= 16 && s[10] == 'T' {
		return s[:10] + " " + s[11:16]
	}
	return s
}

// Allowed lists the fingerprint fields allowed to differ.
func Allowed(b *ndjson.Baseline) string {
	parts := make([]string, len(b.Allowed))
	for i, m := range b.Allowed {
		parts[i] = fmt.Sprintf("%s %q → %q", m.Field, m.Baseline, m.Current)
	}
	return strings.Join(parts, ", ")
}

// baselineValue is a baseline comparison's side in the table: the median
// time per operation, or the median score when normalized.
func baselineValue(k *ndjson.Comparison, v float64) string {
	if k.Normalized {
		return fmt.Sprintf("%.4g", v)
	}
	return model.Dur(v)
}

// BaselineMedians are the two sides' medians from the wall-time axis, when
// the comparison carries axes.
func BaselineMedians(k *ndjson.Comparison) (ref, con string) {
	for _, a := range k.Axes {
		if a.Name == "wall" && a.Result != nil {
			return baselineValue(k, a.Result.RefMedian), baselineValue(k, a.Result.ConMedian)
		}
	}
	return "", ""
}
