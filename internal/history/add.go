package history

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"fmt"
	"maps"
	"slices"
	"time"

	"github.com/flybench/flybench/pkg/ndjson"
)

// Added says what Add did with one run.
type Added struct {
	RunID string
	// Stored is false when the store already held the run.
	Stored bool
	Cases  int
	Comps  int
}

// Add records the runs of one analysed stream, raw is the stream's bytes,
// kept compressed under their SHA-256. Each run is added in a transaction
// of its own, and only when the store does not hold its run id: adding a
// stream twice changes nothing. tags are added to every run's own tags
// (and replace one of the same key).
func (s *Store) Add(raw []byte, entries []Entry, tags map[string]string) ([]Added, error) {
	hash, packed, err := pack(raw)
	if err != nil {
		return nil, err
	}
	now := sortableTime(time.Now().UTC().Format(time.RFC3339Nano))
	var out []Added
	for _, e := range entries {
		a, err := s.addOne(e, tags, hash, packed, len(raw), now)
		if err != nil {
			return out, fmt.Errorf("add run %s: %w", e.Run.RunID, err)
		}
		out = append(out, a)
	}
	return out, nil
}

// pack compresses a stream and names it by the hash of its bytes.
func pack(raw []byte) (hash string, packed []byte, err error) {
	sum := sha256.Sum256(raw)
	var b bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&b, gzip.BestCompression)
	if _, err := zw.Write(raw); err != nil {
		return "", nil, err
	}
	if err := zw.Close(); err != nil {
		return "", nil, err
	}
	return "sha256:" + hex.EncodeToString(sum[:]), b.Bytes(), nil
}

func (s *Store) addOne(e Entry, tags map[string]string, hash string, packed []byte, size int, now string) (Added, error) {
	a := Added{RunID: e.Run.RunID}
	tx, err := s.db.Begin()
	if err != nil {
		return a, err
	}
	defer tx.Rollback()
	if _, err := tx.Exec(s.dialect.bind(`INSERT INTO streams (hash, codec, size, data) VALUES (?, 'gzip', ?, ?) ON CONFLICT (hash) DO NOTHING`),
		hash, size, packed); err != nil {
		return a, fmt.Errorf("store stream: %w", err)
	}
	res, err := tx.Exec(s.dialect.bind(insertRun), runValues(e, hash, now)...)
	if err != nil {
		return a, fmt.Errorf("insert run: %w", err)
	}
	if n, err := res.RowsAffected(); err != nil || n == 0 {
		return a, err // already stored: idempotent
	}
	if err := s.addChildren(tx, e, tags); err != nil {
		return a, err
	}
	a.Stored, a.Cases, a.Comps = true, len(e.Summaries), len(e.Comparisons)
	return a, tx.Commit()
}

const insertRun = `INSERT INTO runs (run_id, started, added, tool, tool_version, mode, design, source,
	os, kernel, arch, cpu_model, cpus, governor, go_version, hostname, class,
	analyzer, seed, confidence_pct, threshold_pct, stream_hash)
	VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
	ON CONFLICT (run_id) DO NOTHING`

func runValues(e Entry, hash, now string) []any {
	r, h, an := e.Run, e.Run.Host, e.Analysis
	return []any{r.RunID, sortableTime(r.Started), now, r.Tool, r.ToolVersion, string(r.Mode), string(r.Design), r.Source,
		h.OS, h.Kernel, h.Arch, h.CPUModel, h.CPUs, h.Governor, h.GoVersion, h.Hostname, Class(h),
		an.Analyzer, int64(an.Seed), an.ConfidencePct, an.ThresholdPct, hash}
}

// sortableTime rewrites an RFC 3339 time in UTC with nine fractional
// digits, so that times sort as strings (RFC3339Nano drops trailing
// zeros: "05Z" would sort after "05.5Z"). Anything else is kept as given.
func sortableTime(s string) string {
	t, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		return s
	}
	return t.UTC().Format("2006-01-02T15:04:05.000000000Z07:00")
}

// Class is a host's machine class: the fingerprint fields that make
// timings comparable (os, arch, CPU model, CPU count).
func Class(h ndjson.Host) string {
	return fmt.Sprintf("%s/%s/%s/%d", h.OS, h.Arch, h.CPUModel, h.CPUs)
}

func (s *Store) addChildren(tx *sql.Tx, e Entry, extra map[string]string) error {
	tags := maps.Clone(e.Run.Tags)
	if tags == nil {
		tags = map[string]string{}
	}
	maps.Copy(tags, extra)
	for _, k := range slices.Sorted(maps.Keys(tags)) {
		if _, err := tx.Exec(s.dialect.bind(`INSERT INTO tags (run_id, key, value) VALUES (?, ?, ?)`), e.Run.RunID, k, tags[k]); err != nil {
			return fmt.Errorf("insert tag %q: %w", k, err)
		}
	}
	started, class := sortableTime(e.Run.Started), Class(e.Run.Host)
	for _, sm := range e.Summaries {
		if _, err := tx.Exec(s.dialect.bind(insertSummary), append(summaryValues(sm), started, class)...); err != nil {
			return fmt.Errorf("insert summary of case %q: %w", sm.Name, err)
		}
	}
	baseline := ""
	if e.Analysis.Baseline != nil {
		baseline = e.Analysis.Baseline.RunID
	}
	for _, c := range e.Comparisons {
		if _, err := tx.Exec(s.dialect.bind(insertComparison), comparisonValues(c, baseline)...); err != nil {
			return fmt.Errorf("insert comparison %s vs %s: %w", c.ContenderName, c.ReferenceName, err)
		}
	}
	return countPoints(tx, s.dialect, e.Summaries, class)
}

// countPoints adds the run's summaries to the counts of their series
// (case, class), in the order of the case names: a PostgreSQL writer
// holds the rows it updates until it commits, and two writers that took
// the same rows in opposite orders would wait for each other. Last in
// the transaction, so the rows are held briefly.
func countPoints(tx *sql.Tx, d dialect, summaries []ndjson.Summary, class string) error {
	points := map[string]int{}
	for _, sm := range summaries {
		points[sm.Name]++
	}
	for _, name := range slices.Sorted(maps.Keys(points)) {
		if _, err := tx.Exec(d.bind(insertKey), name, class, points[name]); err != nil {
			return fmt.Errorf("count the series of case %q: %w", name, err)
		}
	}
	return nil
}

// insertKey records a series (case, class) the store holds, so show
// lists them without scanning the summaries, and counts its points.
const insertKey = `INSERT INTO series_keys (name, class, points) VALUES (?, ?, ?)
	ON CONFLICT (name, class) DO UPDATE SET points = series_keys.points + excluded.points`

const insertSummary = `INSERT INTO summaries (run_id, case_index, name, n, min_ns, median_ns, mean_ns,
	p95_ns, p99_ns, max_ns, sd_ns, mad_ns, cv_pct, mean_lo_ns, mean_hi_ns, score, score_lo, score_hi, started, class)
	VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`

func summaryValues(s ndjson.Summary) []any {
	var score, lo, hi sql.NullFloat64
	if n := s.Normalized; n != nil {
		score = sql.NullFloat64{Float64: n.Score, Valid: true}
		lo = sql.NullFloat64{Float64: n.CI[0], Valid: true}
		hi = sql.NullFloat64{Float64: n.CI[1], Valid: true}
	}
	return []any{s.RunID, s.Case, s.Name, s.N, s.Min, s.Median, s.Mean, s.P95, s.P99, s.Max,
		s.SD, s.MAD, s.CVPct, s.MeanCI[0], s.MeanCI[1], score, lo, hi}
}

const insertComparison = `INSERT INTO comparisons (run_id, reference, contender, reference_name, contender_name,
	design, pairs, speedup, speedup_lo, speedup_hi, change_pct, change_lo_pct, change_hi_pct,
	confidence_pct, threshold_pct, verdict, baseline_run)
	VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`

func comparisonValues(c ndjson.Comparison, baseline string) []any {
	return []any{c.RunID, c.Reference, c.Contender, c.ReferenceName, c.ContenderName,
		string(c.Design), c.Pairs, c.GeoSpeedup, c.SpeedupCI[0], c.SpeedupCI[1], c.ChangePct,
		c.ChangeCI[0], c.ChangeCI[1], c.ConfidencePct, c.ThresholdPct, string(c.Verdict), baseline}
}

// Stream returns a stored stream's bytes by its hash.
func (s *Store) Stream(hash string) ([]byte, error) {
	var packed []byte
	if err := s.db.QueryRow(s.dialect.bind(`SELECT data FROM streams WHERE hash = ?`), hash).Scan(&packed); err != nil {
		return nil, fmt.Errorf("stream %s: %w", hash, err)
	}
	zr, err := gzip.NewReader(bytes.NewReader(packed))
	if err != nil {
		return nil, fmt.Errorf("stream %s: %w", hash, err)
	}
	var b bytes.Buffer
	if _, err := b.ReadFrom(zr); err != nil {
		return nil, fmt.Errorf("stream %s: %w", hash, err)
	}
	return b.Bytes(), nil
}
