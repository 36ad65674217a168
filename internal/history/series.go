package history

import (
	"database/sql"
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

// seriesKey names one series: a case on a machine class ("" for the
// score's series across classes).
type seriesKey struct{ name, class string }

// Series reads the series q selects: one per case and machine class
// (per case for the score), points in the order the runs started, the
// series ordered by case, then class. Each series is read newest first
// down the index summaries_series (name, class, started, run_id), so
// --last costs its points, not the store's.
func (s *Store) Series(q Query) ([]ndjson.Series, error) {
	cols, ok := metricColumns[q.Metric]
	if !ok {
		return nil, &QueryError{Msg: fmt.Sprintf("unknown metric %q: use %s", q.Metric, strings.Join(Metrics(), ", "))}
	}
	keys, err := s.seriesKeys(q, cols)
	if err != nil {
		return nil, fmt.Errorf("read series: %w", err)
	}
	var out []ndjson.Series
	for _, k := range keys {
		sr, err := s.readSeries(q, cols, k)
		if err != nil {
			return nil, fmt.Errorf("read series of %q: %w", k.name, err)
		}
		if sr.Total > 0 {
			out = append(out, sr)
		}
	}
	return out, nil
}

// filters is the WHERE clause q puts on summaries s and runs' tags.
func filters(q Query, cols [3]string, k *seriesKey) (string, []any) {
	var b strings.Builder
	var args []any
	b.WriteString("1 = 1")
	if q.Metric == "score" { // the one column that may be NULL: runs without a reference workload
		b.WriteString(" AND s.score IS NOT NULL")
	}
	name, class := q.Case, q.Class
	if k != nil {
		name = k.name
		if q.Metric != "score" {
			class = k.class
		}
	}
	if name != "" {
		b.WriteString(" AND s.name = ?")
		args = append(args, name)
	}
	if class != "" {
		b.WriteString(" AND s.class = ?")
		args = append(args, class)
	}
	for _, key := range slices.Sorted(maps.Keys(q.Where)) {
		b.WriteString(" AND EXISTS (SELECT 1 FROM tags w WHERE w.run_id = s.run_id AND w.key = ? AND w.value = ?)")
		args = append(args, key, q.Where[key])
	}
	return b.String(), args
}

// seriesKeys lists the series q may select from series_keys, ordered by
// case, then class; tag filters are left to readSeries, which drops a
// series without points.
func (s *Store) seriesKeys(q Query, _ [3]string) ([]seriesKey, error) {
	where, args := "1 = 1", []any{}
	if q.Case != "" {
		where += " AND name = ?"
		args = append(args, q.Case)
	}
	if q.Class != "" {
		where += " AND class = ?"
		args = append(args, q.Class)
	}
	classCol := "class"
	if q.Metric == "score" {
		classCol = "''"
	}
	rows, err := s.db.Query(s.dialect.bind(fmt.Sprintf(`SELECT DISTINCT name, %s FROM series_keys WHERE %s ORDER BY 1, 2`, classCol, where)), args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var keys []seriesKey
	for rows.Next() {
		var k seriesKey
		if err := rows.Scan(&k.name, &k.class); err != nil {
			return nil, err
		}
		keys = append(keys, k)
	}
	return keys, rows.Err()
}

// pointsSQL is the query of one series' points, newest first.
func pointsSQL(q Query, cols [3]string, k seriesKey) (string, []any) {
	lo, hi := "NULL", "NULL"
	if cols[1] != "" {
		lo, hi = "s."+cols[1], "s."+cols[2]
	}
	where, args := filters(q, cols, &k)
	text := fmt.Sprintf(`SELECT s.run_id, s.started, COALESCE(t.value, ''), s.%s, %s, %s, s.n
	FROM summaries s LEFT JOIN tags t ON t.run_id = s.run_id AND t.key = 'revision'
	WHERE %s ORDER BY s.started DESC, s.run_id DESC`, cols[0], lo, hi, where)
	if q.Last > 0 {
		text += fmt.Sprintf(" LIMIT %d", q.Last)
	}
	return text, args
}

// readSeries reads one series: its points, oldest first, and its total.
func (s *Store) readSeries(q Query, cols [3]string, k seriesKey) (ndjson.Series, error) {
	sr := ndjson.Series{Series: ndjson.SeriesLevels, Case: k.name, Metric: q.Metric, Class: k.class, Where: q.Where}
	text, args := pointsSQL(q, cols, k)
	rows, err := s.db.Query(s.dialect.bind(text), args...)
	if err != nil {
		return sr, err
	}
	defer rows.Close()
	for rows.Next() {
		var p ndjson.SeriesPoint
		var lo, hi sql.NullFloat64
		if err := rows.Scan(&p.RunID, &p.Started, &p.Revision, &p.Value, &lo, &hi, &p.N); err != nil {
			return sr, err
		}
		if lo.Valid && hi.Valid {
			p.CI = &[2]float64{lo.Float64, hi.Float64}
		}
		sr.Points = append(sr.Points, p)
	}
	if err := rows.Err(); err != nil {
		return sr, err
	}
	slices.Reverse(sr.Points)
	sr.Total = len(sr.Points)
	if q.Last > 0 && sr.Total == q.Last {
		total, err := s.total(q, cols, k)
		if err != nil {
			return sr, err
		}
		sr.Total = total
	}
	return sr, nil
}

// total is how many points the series k of q has: the count add keeps
// for a case on a class, when q filters no runs by their tags and its
// metric has a value in every run; counted otherwise.
func (s *Store) total(q Query, cols [3]string, k seriesKey) (int, error) {
	var n int
	if len(q.Where) == 0 && q.Metric != "score" {
		err := s.db.QueryRow(s.dialect.bind(`SELECT points FROM series_keys WHERE name = ? AND class = ?`), k.name, k.class).Scan(&n)
		return n, err
	}
	where, args := filters(q, cols, &k)
	err := s.db.QueryRow(s.dialect.bind(`SELECT COUNT(*) FROM summaries s WHERE `+where), args...).Scan(&n)
	return n, err
}
