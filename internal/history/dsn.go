package history

import (
	"database/sql"
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"strings"
	"time"

	_ "github.com/jackc/pgx/v5/stdlib" // registers "pgx"
	_ "modernc.org/sqlite"             // registers "sqlite"
)

// DefaultDSN is the store used when neither --db nor $FLYBENCH_DB names one.
const DefaultDSN = "flybench.db"

// busyTimeoutMS is how long a SQLite writer waits for another process's
// write transaction before it gives up.
const busyTimeoutMS = 60000

// DSNError is a DSN that names no store this package can open.
type DSNError struct {
	DSN string
	Msg string
}

func (e *DSNError) Error() string { return fmt.Sprintf("DSN %q: %s", e.DSN, e.Msg) }

// Open opens the store a DSN names and brings its schema to the newest
// version: postgres:// or postgresql:// is a PostgreSQL server; anything
// else (a path, or sqlite:PATH) is a SQLite file, created when missing.
func Open(dsn string) (*Store, error) {
	if dsn == "" {
		return nil, &DSNError{DSN: dsn, Msg: "empty: give a SQLite file or a postgres:// URL"}
	}
	var s *Store
	var err error
	if isPostgres(dsn) {
		s, err = openPostgres(dsn)
	} else {
		s, err = openSQLite(strings.TrimPrefix(dsn, "sqlite:"))
	}
	if err != nil {
		return nil, err
	}
	if err := s.migrate(); err != nil {
		s.Close()
		return nil, fmt.Errorf("%s: %w", s.Name, err)
	}
	return s, nil
}

// OpenExisting is Open for a reader: a SQLite file that does not exist
// is a *DSNError rather than a new, empty store.
func OpenExisting(dsn string) (*Store, error) {
	if path := strings.TrimPrefix(dsn, "sqlite:"); dsn != "" && !isPostgres(dsn) && path != "" {
		if _, err := os.Stat(path); errors.Is(err, fs.ErrNotExist) {
			return nil, &DSNError{DSN: dsn, Msg: "no such store"}
		}
	}
	return Open(dsn)
}

func isPostgres(dsn string) bool {
	return strings.HasPrefix(dsn, "postgres://") || strings.HasPrefix(dsn, "postgresql://")
}

// openSQLite opens a file with a busy timeout, write-ahead logging (readers
// do not block the writer) and write transactions that take the write lock
// when they begin, so concurrent writers queue instead of deadlocking.
func openSQLite(path string) (*Store, error) {
	if path == "" {
		return nil, &DSNError{DSN: "sqlite:", Msg: "no file named"}
	}
	if strings.ContainsAny(path, "?#") {
		return nil, &DSNError{DSN: path, Msg: "a SQLite file name may not hold '?' or '#'"}
	}
	q := url.Values{}
	q.Add("_pragma", fmt.Sprintf("busy_timeout(%d)", busyTimeoutMS))
	q.Add("_pragma", "journal_mode(WAL)")
	q.Add("_pragma", "foreign_keys(1)")
	q.Set("_txlock", "immediate")
	db, err := sql.Open("sqlite", "file:"+path+"?"+q.Encode())
	if err != nil {
		return nil, fmt.Errorf("open %q: %w", path, err)
	}
	db.SetMaxOpenConns(1)
	if err := pingSQLite(db); err != nil {
		db.Close()
		return nil, fmt.Errorf("open %q: %w", path, err)
	}
	return &Store{db: db, dialect: sqliteDialect, Name: path}, nil
}

// pingSQLite opens the store's connection. Processes that open a new file
// at once race to switch it to write-ahead logging, and the loser can be
// told SQLITE_BUSY without the busy handler's wait (one first open in
// about 24 of six processes here): a busy open is tried again, with a
// growing pause, until the busy timeout.
func pingSQLite(db *sql.DB) error {
	deadline := time.Now().Add(busyTimeoutMS * time.Millisecond)
	for pause := 2 * time.Millisecond; ; pause = min(2*pause, 100*time.Millisecond) {
		err := db.Ping()
		if err == nil || !isBusy(err) || time.Now().After(deadline) {
			return err
		}
		time.Sleep(pause)
	}
}

// isBusy reports whether err is SQLite's SQLITE_BUSY (primary code 5).
func isBusy(err error) bool {
	var coded interface{ Code() int }
	return errors.As(err, &coded) && coded.Code()&0xff == 5
}

func openPostgres(dsn string) (*Store, error) {
	name := maskPassword(dsn)
	db, err := sql.Open("pgx", dsn)
	if err != nil {
		return nil, &DSNError{DSN: name, Msg: err.Error()}
	}
	if err := db.Ping(); err != nil {
		db.Close()
		return nil, fmt.Errorf("connect %s: %w", name, err)
	}
	return &Store{db: db, dialect: postgresDialect, Name: name}, nil
}

// maskPassword hides a URL's password for messages.
func maskPassword(dsn string) string {
	u, err := url.Parse(dsn)
	if err != nil || u.User == nil {
		return dsn
	}
	if _, ok := u.User.Password(); ok {
		u.User = url.UserPassword(u.User.Username(), "xxxxx")
	}
	return u.String()
}
