package report

import (
	"cmp"

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

// LoadStream reads a whole stream like Load, keeping its recordings too,
// and of its samples whatever any format needs.
func LoadStream(r *ndjson.Reader) (*Stream, error) { return model.Load(r, model.KeepAll) }

// LoadFor reads a whole stream like LoadStream, keeping of its samples
// only what the format of opt needs: a stream is mostly samples, and most
// formats are made of fb-analyze's records alone. Write the stream in
// that format only.
func LoadFor(r *ndjson.Reader, opt Options) (*Stream, error) {
	var keep model.Keep
	if f := formatNamed(cmp.Or(opt.Format, "console")); f != nil && f.keep != nil {
		keep = f.keep(opt)
	}
	s, err := model.Load(r, keep)
	if s != nil {
		s.Spell(opt.Names)
	}
	return s, err
}
