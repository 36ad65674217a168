// Package history is fb-history's results store: analysed streams kept in
// a database (a SQLite file by default, PostgreSQL for a fleet) with their
// runs, tags, per-case summaries and comparisons, and the raw stream
// compressed by content hash so any point can be analysed again.
//
// Files: dsn.go opens a store by its DSN; schema.go the versioned
// migrations both databases share; parse.go reads an analysed stream into
// entries; add.go records them; series.go reads a case's series back.
package history

import (
	"database/sql"
	"fmt"
	"strings"
)

// Store is an open results store.
type Store struct {
	db      *sql.DB
	dialect dialect
	// Name is the DSN as the user can be shown it (a password masked).
	Name string
}

// Close closes the store's connections.
func (s *Store) Close() error { return s.db.Close() }

// Dialect is "sqlite" or "postgres".
func (s *Store) Dialect() string { return string(s.dialect) }

// dialect is the SQL spoken by a store's database.
type dialect string

const (
	sqliteDialect   dialect = "sqlite"
	postgresDialect dialect = "postgres"
)

// bind rewrites a query written with ? placeholders for the dialect:
// PostgreSQL numbers them ($1, $2, ...). No query here holds a literal ?.
func (d dialect) bind(q string) string {
	if d != postgresDialect {
		return q
	}
	var b strings.Builder
	n := 0
	for _, r := range q {
		if r == '?' {
			n++
			fmt.Fprintf(&b, "$%d", n)
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}
