package report

import (
	"github.com/flybench/flybench/internal/report/model"
	"github.com/flybench/flybench/pkg/ndjson"
)

// Load reads a whole stream, grouped into runs the way fb-analyze groups
// it (package runs; fb-stream(5)). A run_id that appears on more than one
// run record gives as many runs, each with its own analysis. Unknown record
// types are skipped. Errors are the reader's *ndjson.SyntaxError and
// *ndjson.VersionError, or a *ndjson.SyntaxError for a record that does not
// fit the runs around it. A last line cut short ends the stream: the run
// it followed gets a warning in StreamWarnings.
// Recordings are skipped; LoadStream keeps them.
func Load(r *ndjson.Reader) ([]*Run, error) {
	s, err := LoadStream(r)
	if err != nil {
		return nil, err
	}
	return s.Runs, nil
}

// LoadStream reads a whole stream like Load, keeping its recordings too.
func LoadStream(r *ndjson.Reader) (*Stream, error) { return model.Load(r) }
