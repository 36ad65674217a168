package cli

import (
	"github.com/flybench/flybench/internal/analyze"
	"github.com/flybench/flybench/pkg/ndjson"
)

// writeSuite ends fb-analyze's output with the suite record of every run
// it analysed, when there are two or more time comparisons.
func writeSuite(w *ndjson.Writer, opt analyze.Options) error {
	if err := analyze.WriteAA(w, opt.AA, opt); err != nil {
		return withCode(ExitFailure, err, "")
	}
	if err := analyze.WriteSuite(w, opt.Suite, opt); err != nil {
		return withCode(ExitFailure, err, "")
	}
	return nil
}
