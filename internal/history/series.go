package history

import (
	"cmp"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/flybench/flybench/pkg/ndjson"
)

// Query selects the series Series reads.
type Query struct {
	// Case is the case name; "" reads every case.
	Case string
	// Where keeps the runs whose tags hold every key with its value.
	Where map[string]string
	// Class keeps one machine class (Class); "" keeps every class, each
	// its own series. Metric "score" compares classes: one series of all.
	Class string
	// Metric is one of Metrics.
	Metric string
	// Last keeps each series' newest points; 0 keeps all.
	Last int
}

// metricColumns are the summary columns of each metric: value, and the
// interval's ends where fb-analyze gives one.
var metricColumns = map[string][3]string{
	"median_ns": {"median_ns"},
	"mean_ns":   {"mean_ns", "mean_lo_ns", "mean_hi_ns"},
	"min_ns":    {"min_ns"},
	"score":     {"score", "score_lo", "score_hi"},
}

// Metrics lists the metrics a series can follow.
func Metrics() []string { return slices.Sorted(maps.Keys(metricColumns)) }

// QueryError is a query that can name no series.
type QueryError struct{ Msg string }

func (e *QueryError) Error() string { return e.Msg }

// Series reads the series q selects: one per case and machine class
// (per case for the score), points in the order the runs started, the
// series ordered by case, then class.
func (s *Store) Series(q Query) ([]ndjson.Series, error) {
	cols, ok := metricColumns[q.Metric]
	if !ok {
		return nil, &QueryError{Msg: fmt.Sprintf("unknown metric %q: use %s", q.Metric, strings.Join(Metrics(), ", "))}
	}
	query, args := seriesSQL(q, cols)
	rows, err := s.db.Query(s.dialect.bind(query), args...)
	if err != nil {
		return nil, fmt.Errorf("read series: %w", err)
	}
	defer rows.Close()
	byKey := map[[2]string]*ndjson.Series{}
	var order []*ndjson.Series
	for rows.Next() {
		var name, class string
		var p ndjson.SeriesPoint
		var lo, hi *float64
		if err := rows.Scan(&name, &class, &p.RunID, &p.Started, &p.Revision, &p.Value, &lo, &hi, &p.N); err != nil {
			return nil, fmt.Errorf("read series: %w", err)
		}
		if lo != nil && hi != nil {
			p.CI = &[2]float64{*lo, *hi}
		}
		if q.Metric == "score" {
			class = ""
		}
		k := [2]string{name, class}
		sr := byKey[k]
		if sr == nil {
			sr = &ndjson.Series{Series: ndjson.SeriesLevels, Case: name, Metric: q.Metric, Class: class, Where: q.Where}
			byKey[k] = sr
			order = append(order, sr)
		}
		sr.Points = append(sr.Points, p)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("read series: %w", err)
	}
	return finish(order, q.Last), nil
}

// seriesSQL is the query of q's points, oldest first. The score exists
// only where a reference workload ran; other metrics always.
func seriesSQL(q Query, cols [3]string) (string, []any) {
	lo, hi := "NULL", "NULL"
	if cols[1] != "" {
		lo, hi = "s."+cols[1], "s."+cols[2]
	}
	var b strings.Builder
	fmt.Fprintf(&b, `SELECT s.name, r.class, r.run_id, r.started, COALESCE(t.value, ''), s.%s, %s, %s, s.n
	FROM summaries s JOIN runs r ON r.run_id = s.run_id
	LEFT JOIN tags t ON t.run_id = r.run_id AND t.key = 'revision'
	WHERE s.%s IS NOT NULL`, cols[0], lo, hi, cols[0])
	var args []any
	if q.Case != "" {
		b.WriteString(" AND s.name = ?")
		args = append(args, q.Case)
	}
	if q.Class != "" {
		b.WriteString(" AND r.class = ?")
		args = append(args, q.Class)
	}
	for _, k := range slices.Sorted(maps.Keys(q.Where)) {
		b.WriteString(" AND EXISTS (SELECT 1 FROM tags w WHERE w.run_id = r.run_id AND w.key = ? AND w.value = ?)")
		args = append(args, k, q.Where[k])
	}
	b.WriteString(" ORDER BY r.started, r.run_id")
	return b.String(), args
}

// finish counts each series' points, keeps its newest last ones, and
// orders the series by case, then class.
func finish(order []*ndjson.Series, last int) []ndjson.Series {
	out := make([]ndjson.Series, 0, len(order))
	for _, s := range order {
		s.Total = len(s.Points)
		if last > 0 && len(s.Points) > last {
			s.Points = s.Points[len(s.Points)-last:]
		}
		out = append(out, *s)
	}
	slices.SortStableFunc(out, func(a, b ndjson.Series) int {
		return cmp.Or(strings.Compare(a.Case, b.Case), strings.Compare(a.Class, b.Class))
	})
	return out
}
