package history

import (
	"fmt"
	"slices"

	"github.com/flybench/flybench/pkg/ndjson"
)

// Before reads a case's median in the newest n runs the store holds
// before run, on run's machine class and with every tag of where: the
// runs fb-check --history judges run against. A run started before run's
// start (ties by run id) counts; run itself, if the store holds it, does
// not. Points are oldest first, each with its run, start, revision tag,
// median and sample count. With score set the points are the case's
// normalized scores instead (in its run's reference-workload units), from
// the runs that have one.
func (s *Store) Before(run *ndjson.Run, name string, score bool, n int, where map[string]string) ([]ndjson.SeriesPoint, error) {
	if n <= 0 {
		return nil, nil
	}
	started := sortableTime(run.Started)
	tags, args := filters(Query{Where: where}, [3]string{}, nil)
	value, only := "s.median_ns", ""
	if score {
		value, only = "s.score", " AND s.score IS NOT NULL"
	}
	text := fmt.Sprintf(`SELECT s.run_id, s.started, COALESCE(t.value, ''), %s, s.n
	FROM summaries s LEFT JOIN tags t ON t.run_id = s.run_id AND t.key = 'revision'
	WHERE s.name = ? AND s.class = ? AND s.run_id <> ? AND (s.started < ? OR (s.started = ? AND s.run_id < ?))%s AND %s
	ORDER BY s.started DESC, s.run_id DESC LIMIT %d`, value, only, tags, n)
	args = append([]any{name, Class(run.Host), run.RunID, started, started, run.RunID}, args...)
	rows, err := s.db.Query(s.dialect.bind(text), args...)
	if err != nil {
		return nil, fmt.Errorf("read the history of %q: %w", name, err)
	}
	defer rows.Close()
	var out []ndjson.SeriesPoint
	for rows.Next() {
		var p ndjson.SeriesPoint
		if err := rows.Scan(&p.RunID, &p.Started, &p.Revision, &p.Value, &p.N); err != nil {
			return nil, fmt.Errorf("read the history of %q: %w", name, err)
		}
		out = append(out, p)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("read the history of %q: %w", name, err)
	}
	slices.Reverse(out)
	return out, nil
}
