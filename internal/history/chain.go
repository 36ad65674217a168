package history

import (
	"database/sql"
	"fmt"
	"math"
	"slices"

	"github.com/flybench/flybench/pkg/ndjson"
)

// Chains reads, for each pair of case names compared in the runs q
// selects (Case: the contender's name), the chain of their paired
// comparisons in the order the runs started: each point the product of
// the contender/reference time ratios (1/speedup) of every run up to it.
// When each run compares a revision with its parent, the product is the
// trend from the first parent, measured only by paired comparisons, so
// drift between runs and differences between runners cancel.
//
// The interval of a product: each run's ratio interval, on the log
// scale, is taken as a normal interval at the comparison's confidence,
// its standard error (log hi - log lo) / (2 z); runs are independent
// measurements, so the log of the product has the sum of the logs as its
// estimate and the root of the summed squared errors as its standard
// error, and the interval is exp(sum ± z·se) at the first comparison's
// confidence.
func (s *Store) Chains(q Query) ([]ndjson.Series, error) {
	where, args := "1 = 1", []any{}
	if q.Case != "" {
		where += " AND c.contender_name = ?"
		args = append(args, q.Case)
	}
	for _, key := range sortedKeys(q.Where) {
		where += " AND EXISTS (SELECT 1 FROM tags w WHERE w.run_id = c.run_id AND w.key = ? AND w.value = ?)"
		args = append(args, key, q.Where[key])
	}
	rows, err := s.db.Query(s.dialect.bind(`SELECT c.reference_name, c.contender_name, r.run_id, r.started, COALESCE(t.value, ''),
		c.speedup, c.speedup_lo, c.speedup_hi, c.confidence_pct, c.pairs
		FROM comparisons c JOIN runs r ON r.run_id = c.run_id
		LEFT JOIN tags t ON t.run_id = c.run_id AND t.key = 'revision'
		WHERE c.baseline_run = '' AND `+where+` ORDER BY c.reference_name, c.contender_name, r.started, r.run_id`), args...)
	if err != nil {
		return nil, fmt.Errorf("read chains: %w", err)
	}
	defer rows.Close()
	return scanChains(rows, q)
}

func scanChains(rows *sql.Rows, q Query) ([]ndjson.Series, error) {
	var out []ndjson.Series
	var acc chain
	for rows.Next() {
		var ref, con string
		var p ndjson.SeriesPoint
		var sp, lo, hi, conf float64
		if err := rows.Scan(&ref, &con, &p.RunID, &p.Started, &p.Revision, &sp, &lo, &hi, &conf, &p.N); err != nil {
			return nil, fmt.Errorf("read chains: %w", err)
		}
		if len(out) == 0 || out[len(out)-1].Reference != ref || out[len(out)-1].Case != con {
			out = append(out, ndjson.Series{Series: ndjson.SeriesChain, Case: con, Reference: ref, Metric: "time_ratio", Where: q.Where})
			acc = chain{z: normalQuantile(conf)}
		}
		if !(sp > 0 && lo > 0 && hi >= lo && conf > 0 && conf < 100) {
			continue // a comparison without a usable speedup interval is left out of the chain
		}
		var ci [2]float64
		p.Value, ci = acc.add(sp, lo, hi, conf)
		p.CI = &ci
		cur := &out[len(out)-1]
		cur.Points = append(cur.Points, p)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("read chains: %w", err)
	}
	for i := range out {
		out[i].Total = len(out[i].Points)
		if q.Last > 0 && len(out[i].Points) > q.Last {
			out[i].Points = out[i].Points[len(out[i].Points)-q.Last:]
		}
	}
	return slices.DeleteFunc(out, func(s ndjson.Series) bool { return len(s.Points) == 0 }), nil
}

// chain accumulates a product of ratios on the log scale (Chains).
type chain struct{ sum, vars, z float64 }

// add multiplies in one run's time ratio, 1/sp, whose speedup interval
// [lo, hi] is at conf percent, and returns the product and its interval.
func (c *chain) add(sp, lo, hi, conf float64) (float64, [2]float64) {
	se := (math.Log(hi) - math.Log(lo)) / (2 * normalQuantile(conf))
	c.sum -= math.Log(sp)
	c.vars += se * se
	w := c.z * math.Sqrt(c.vars)
	return math.Exp(c.sum), [2]float64{math.Exp(c.sum - w), math.Exp(c.sum + w)}
}

// normalQuantile is the two-sided normal quantile of a confidence in percent.
func normalQuantile(confPct float64) float64 {
	return math.Sqrt2 * math.Erfinv(confPct/100)
}

func sortedKeys(m map[string]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
