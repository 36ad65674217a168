package model

// NotAnalyzedError is an input a tool cannot report on or judge at all:
// no run, or a run or recording without fb-analyze's records. fb-report
// and fb-check exit 6 on it.
type NotAnalyzedError struct{ Msg string }

func (e *NotAnalyzedError) Error() string { return e.Msg }
