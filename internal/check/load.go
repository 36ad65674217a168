package check

import (
	"fmt"

	"github.com/flybench/flybench/internal/report/model"
	"github.com/flybench/flybench/pkg/ndjson"
)

// Run is a run of an analysed stream as fb-check judges it, the report's
// model of it (package model): its run record, its analysis, its
// comparisons (AllComparisons) and the axes it measured as deterministic
// counts (Exact).
type Run = model.Run

// Load reads a whole stream into its runs by the report's model (the
// rules of fb-stream(5)); recordings have nothing to judge and are left
// out. Unknown record types are skipped. Errors are the reader's
// *ndjson.SyntaxError and *ndjson.VersionError; a torn last line ends the
// stream and is noted on the last run, which CheckAnalyzed names when it
// has no analysis.
func Load(r *ndjson.Reader) ([]*Run, error) {
	s, err := model.Load(r, 0)
	if err != nil {
		return nil, err
	}
	if last := len(s.Runs) - 1; s.Torn != "" && last >= 0 && len(s.Runs[last].StreamWarnings) == 0 {
		// A recording after the last run took the torn line; fb-check
		// judges runs only and names it with the run before it.
		s.Runs[last].StreamWarnings = []string{s.Torn}
	}
	return s.Runs, nil
}

// CheckAnalyzed refuses an empty input and a run fb-analyze did not
// analyze, with a *model.NotAnalyzedError: the gate judges fb-analyze's
// records and computes no statistic of its own.
func CheckAnalyzed(all []*Run) error {
	if len(all) == 0 {
		return &model.NotAnalyzedError{Msg: "the input holds no run records, nothing to check"}
	}
	for _, r := range all {
		if r.Analysis != nil {
			continue
		}
		id := model.ShortID(r.Run.RunID)
		msg := fmt.Sprintf("run %s was not analyzed: pipe the stream through fb-analyze first (fb-pair ... | fb-analyze | fb-check)", id)
		if len(r.StreamWarnings) > 0 {
			msg = fmt.Sprintf("run %s has no analysis record: the %s", id, r.StreamWarnings[0])
		}
		return &model.NotAnalyzedError{Msg: msg, Cut: len(r.StreamWarnings) > 0}
	}
	return nil
}
