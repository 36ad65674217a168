package report

import (
	"fmt"

	"github.com/flybench/flybench/internal/report/model"
)

// checkStream refuses an empty stream and an unanalyzed run or recording.
func checkStream(s *model.Stream) error {
	if len(s.Runs) > 0 || len(s.Recordings) == 0 {
		if err := checkAnalyzed(s.Runs); err != nil {
			return err
		}
	}
	return checkRecordings(s.Recordings)
}

// checkAnalyzed refuses an empty stream and a raw one: a report is made of
// fb-analyze's records, never of statistics computed here.
func checkAnalyzed(runs []*model.Run) error {
	if len(runs) == 0 {
		return &model.NotAnalyzedError{Msg: "the stream holds no run records, nothing to report"}
	}
	for _, r := range runs {
		if r.Analysis == nil && len(r.StreamWarnings) > 0 {
			return &model.NotAnalyzedError{Msg: fmt.Sprintf("run %s has no analysis record: the %s", model.ShortID(r.Run.RunID), r.StreamWarnings[0]), Cut: true}
		}
		if r.Analysis == nil {
			return &model.NotAnalyzedError{Msg: fmt.Sprintf("run %s was not analyzed: pipe the stream through fb-analyze first "+
				"(fb-pair ... | fb-analyze | fb-report)", model.ShortID(r.Run.RunID))}
		}
	}
	return nil
}

// checkRecordings refuses a recording fb-analyze did not summarize.
func checkRecordings(recs []*model.Recording) error {
	for _, r := range recs {
		switch {
		case len(r.Summaries) > 0:
		case len(r.StreamWarnings) > 0:
			return &model.NotAnalyzedError{Msg: fmt.Sprintf("recording %s has no span_summary records: the %s", model.ShortID(r.Record.RunID), r.StreamWarnings[0]), Cut: true}
		default:
			return &model.NotAnalyzedError{Msg: fmt.Sprintf("recording %s was not analyzed: pipe the stream through fb-analyze first "+
				"(fb-record ... | fb-analyze | fb-report)", model.ShortID(r.Record.RunID))}
		}
	}
	return nil
}
