package model

// NotAnalyzedError is an input a tool cannot report on or judge at all:
// no run, or a run or recording without fb-analyze's records. fb-report
// and fb-check exit 6 on it.
type NotAnalyzedError struct {
	Msg string
	// Cut says the stream ended mid-record before the analysis: no
	// format takes such a run, not even one that reads samples only.
	Cut bool
}

func (e *NotAnalyzedError) Error() string { return e.Msg }
