package history

import (
	"slices"
	"strings"

	"github.com/flybench/flybench/internal/field"
)

// The fields of a Query as its field errors name them, and the change
// points' level.
const (
	FieldMetric = "history.Metric"
	FieldLast   = "history.Last"
	FieldWhere  = "history.Where"
	FieldLevel  = "history.ChangeLevel"
)

// ParseQuery checks a query and reads its tag conditions, each written
// tag.KEY=VALUE; level is the change points' significance level, from 0
// (none) up to 1. A bad value is a *field.Error.
func ParseQuery(q Query, where []string, level float64) (Query, error) {
	switch {
	case !slices.Contains(Metrics(), q.Metric):
		return q, field.Errorf(FieldMetric, q.Metric, "%s %q: use %s", field.Name(FieldMetric), q.Metric, strings.Join(Metrics(), ", "))
	case q.Last < 0:
		return q, field.Errorf(FieldLast, q.Last, "%s %d: use 0 (all) or more", field.Name(FieldLast), q.Last)
	case !(level >= 0 && level < 1):
		return q, field.Errorf(FieldLevel, level, "%s %g: use a level between 0 (no change points) and 1, e.g. 0.01", field.Name(FieldLevel), level)
	}
	var err error
	q.Where, err = ParseWhere(FieldWhere, where)
	return q, err
}

// ParseWhere reads tag conditions, each written tag.KEY=VALUE, as the tags
// a run must hold (nil for none); a bad one is a *field.Error of the field
// at path.
func ParseWhere(path string, where []string) (map[string]string, error) {
	w := field.Name(path)
	var tags map[string]string
	for _, c := range where {
		kv, ok := strings.CutPrefix(c, "tag.")
		k, v, ok2 := strings.Cut(kv, "=")
		if !ok || !ok2 || k == "" {
			return nil, field.Errorf(path, c, "%s %q: want tag.KEY=VALUE, e.g. %s tag.branch=main", w, c, w)
		}
		if tags == nil {
			tags = map[string]string{}
		}
		if _, dup := tags[k]; dup {
			return nil, field.Errorf(path, c, "%s tag.%s given twice", w, k)
		}
		tags[k] = v
	}
	return tags, nil
}
