package history

import (
	"database/sql"
	"fmt"
	"strings"
	"time"
)

// migrations are the schema's versions, applied in order and recorded in
// schema_migrations; a store is never changed but by appending one. Both
// databases run the same text; {blob} is the one type they spell apart.
var migrations = []string{
	// 1: runs, their tags, per-case summaries, comparisons, raw streams.
	`CREATE TABLE streams (
		hash TEXT PRIMARY KEY,
		codec TEXT NOT NULL,
		size BIGINT NOT NULL,
		data {blob} NOT NULL
	);
	CREATE TABLE runs (
		run_id TEXT PRIMARY KEY,
		started TEXT NOT NULL,
		added TEXT NOT NULL,
		tool TEXT NOT NULL,
		tool_version TEXT NOT NULL,
		mode TEXT NOT NULL,
		design TEXT NOT NULL,
		source TEXT NOT NULL,
		os TEXT NOT NULL,
		kernel TEXT NOT NULL,
		arch TEXT NOT NULL,
		cpu_model TEXT NOT NULL,
		cpus INTEGER NOT NULL,
		governor TEXT NOT NULL,
		go_version TEXT NOT NULL,
		hostname TEXT NOT NULL,
		class TEXT NOT NULL,
		analyzer TEXT NOT NULL,
		seed BIGINT NOT NULL,
		confidence_pct DOUBLE PRECISION NOT NULL,
		threshold_pct DOUBLE PRECISION NOT NULL,
		stream_hash TEXT NOT NULL REFERENCES streams(hash)
	);
	CREATE INDEX runs_started ON runs(started, run_id);
	CREATE TABLE tags (
		run_id TEXT NOT NULL REFERENCES runs(run_id),
		key TEXT NOT NULL,
		value TEXT NOT NULL,
		PRIMARY KEY (run_id, key)
	);
	CREATE INDEX tags_key_value ON tags(key, value);
	CREATE TABLE summaries (
		run_id TEXT NOT NULL REFERENCES runs(run_id),
		case_index INTEGER NOT NULL,
		name TEXT NOT NULL,
		n INTEGER NOT NULL,
		min_ns DOUBLE PRECISION NOT NULL,
		median_ns DOUBLE PRECISION NOT NULL,
		mean_ns DOUBLE PRECISION NOT NULL,
		p95_ns DOUBLE PRECISION NOT NULL,
		p99_ns DOUBLE PRECISION NOT NULL,
		max_ns DOUBLE PRECISION NOT NULL,
		sd_ns DOUBLE PRECISION NOT NULL,
		mad_ns DOUBLE PRECISION NOT NULL,
		cv_pct DOUBLE PRECISION NOT NULL,
		mean_lo_ns DOUBLE PRECISION NOT NULL,
		mean_hi_ns DOUBLE PRECISION NOT NULL,
		score DOUBLE PRECISION,
		score_lo DOUBLE PRECISION,
		score_hi DOUBLE PRECISION,
		started TEXT NOT NULL,
		class TEXT NOT NULL,
		PRIMARY KEY (run_id, case_index)
	);
	CREATE INDEX summaries_series ON summaries(name, class, started, run_id);
	CREATE TABLE series_keys (
		name TEXT NOT NULL,
		class TEXT NOT NULL,
		PRIMARY KEY (name, class)
	);
	CREATE TABLE comparisons (
		run_id TEXT NOT NULL REFERENCES runs(run_id),
		reference INTEGER NOT NULL,
		contender INTEGER NOT NULL,
		reference_name TEXT NOT NULL,
		contender_name TEXT NOT NULL,
		design TEXT NOT NULL,
		pairs INTEGER NOT NULL,
		speedup DOUBLE PRECISION NOT NULL,
		speedup_lo DOUBLE PRECISION NOT NULL,
		speedup_hi DOUBLE PRECISION NOT NULL,
		change_pct DOUBLE PRECISION NOT NULL,
		change_lo_pct DOUBLE PRECISION NOT NULL,
		change_hi_pct DOUBLE PRECISION NOT NULL,
		confidence_pct DOUBLE PRECISION NOT NULL,
		threshold_pct DOUBLE PRECISION NOT NULL,
		verdict TEXT NOT NULL,
		baseline_run TEXT NOT NULL,
		PRIMARY KEY (run_id, reference, contender)
	);
	CREATE INDEX comparisons_names ON comparisons(contender_name, reference_name);`,
	// 2: each level series' change points, kept so that a show after
	// appended runs extends the search (segmentations.go).
	`CREATE TABLE segmentations (
		key TEXT PRIMARY KEY,
		metric TEXT NOT NULL,
		name TEXT NOT NULL,
		class TEXT NOT NULL,
		n INTEGER NOT NULL,
		points_hash TEXT NOT NULL,
		open INTEGER NOT NULL,
		settled INTEGER NOT NULL,
		changes TEXT NOT NULL,
		updated TEXT NOT NULL
	);`,
	// 3: each series' number of points, kept by add, so that a show of
	// its newest points need not count them all for its total.
	`ALTER TABLE series_keys ADD COLUMN points BIGINT NOT NULL DEFAULT 0;
	UPDATE series_keys SET points = (SELECT COUNT(*) FROM summaries s WHERE s.name = series_keys.name AND s.class = series_keys.class);`,
}

// SchemaVersion is the newest schema this build knows.
var SchemaVersion = len(migrations)

// VersionError is a store whose schema is newer than this build.
type VersionError struct{ Found, Known int }

func (e *VersionError) Error() string {
	return fmt.Sprintf("the store's schema is version %d, newer than this fb-history's %d", e.Found, e.Known)
}

// migrate applies every migration the store lacks, in one transaction
// that holds the store's write lock (SQLite's immediate transaction, a
// PostgreSQL advisory lock), so concurrent first opens apply each once.
func (s *Store) migrate() error {
	tx, err := s.db.Begin()
	if err != nil {
		return fmt.Errorf("migrate: %w", err)
	}
	defer tx.Rollback()
	if s.dialect == postgresDialect {
		if _, err := tx.Exec(`SELECT pg_advisory_xact_lock(8723149)`); err != nil {
			return fmt.Errorf("migrate: lock: %w", err)
		}
	}
	if _, err := tx.Exec(`CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, applied TEXT NOT NULL)`); err != nil {
		return fmt.Errorf("migrate: %w", err)
	}
	var have int
	if err := tx.QueryRow(`SELECT COALESCE(MAX(version), 0) FROM schema_migrations`).Scan(&have); err != nil {
		return fmt.Errorf("migrate: %w", err)
	}
	if have > len(migrations) {
		return &VersionError{Found: have, Known: len(migrations)}
	}
	for v := have + 1; v <= len(migrations); v++ {
		if err := s.apply(tx, v); err != nil {
			return err
		}
	}
	return tx.Commit()
}

// apply runs migration v statement by statement and records it.
func (s *Store) apply(tx *sql.Tx, v int) error {
	blob := map[dialect]string{sqliteDialect: "BLOB", postgresDialect: "BYTEA"}[s.dialect]
	for _, stmt := range strings.Split(strings.ReplaceAll(migrations[v-1], "{blob}", blob), ";") {
		if strings.TrimSpace(stmt) == "" {
			continue
		}
		if _, err := tx.Exec(stmt); err != nil {
			return fmt.Errorf("migration %d: %w", v, err)
		}
	}
	_, err := tx.Exec(s.dialect.bind(`INSERT INTO schema_migrations (version, applied) VALUES (?, ?)`),
		v, time.Now().UTC().Format(time.RFC3339))
	if err != nil {
		return fmt.Errorf("migration %d: %w", v, err)
	}
	return nil
}
