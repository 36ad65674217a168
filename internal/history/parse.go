package history

import (
	"bytes"
	"errors"
	"fmt"
	"io"

	"github.com/flybench/flybench/pkg/ndjson"
)

// Entry is one analysed run as the store keeps it.
type Entry struct {
	Run         ndjson.Run
	Analysis    ndjson.Analysis
	Summaries   []ndjson.Summary
	Comparisons []ndjson.Comparison
	// Line is the run record's line in its stream, for messages.
	Line int
}

// NotAnalyzedError is a run whose stream holds no analysis of it.
type NotAnalyzedError struct {
	File  string
	Line  int
	RunID string
}

func (e *NotAnalyzedError) Error() string {
	return fmt.Sprintf("%s:%d: run %s has no analysis records", e.File, e.Line, e.RunID)
}

// Parse reads an analysed stream (fb-analyze output) into one entry per
// run, in stream order. Records of other types are passed over; a run
// without its analysis and summaries is a *NotAnalyzedError, a stream
// without a run a *ndjson.SyntaxError, as is every bad line.
func Parse(name string, data []byte) ([]Entry, error) {
	r := ndjson.NewReader(bytes.NewReader(data), name)
	var entries []*Entry
	byID := map[string]*Entry{}
	analysed := map[string]bool{}
	for {
		l, err := r.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, err
		}
		e, err := place(r, l, byID)
		if err != nil {
			return nil, err
		}
		if e != nil && l.Type == ndjson.TypeRun {
			if _, dup := byID[e.Run.RunID]; dup {
				continue
			}
			byID[e.Run.RunID] = e
			entries = append(entries, e)
		}
		if e != nil && l.Type == ndjson.TypeAnalysis {
			analysed[e.Run.RunID] = true
		}
	}
	if len(entries) == 0 {
		return nil, &ndjson.SyntaxError{File: r.Name(), Line: 1, Msg: "no run record: not a flybench stream"}
	}
	out := make([]Entry, 0, len(entries))
	for _, e := range entries {
		if !analysed[e.Run.RunID] || len(e.Summaries) == 0 {
			return nil, &NotAnalyzedError{File: r.Name(), Line: e.Line, RunID: e.Run.RunID}
		}
		out = append(out, dedupe(*e))
	}
	return out, nil
}

// dedupe keeps the first summary of each case and the first comparison of
// each pair: a run analysed twice in one stream is the same run.
func dedupe(e Entry) Entry {
	seen := map[int]bool{}
	var sums []ndjson.Summary
	for _, s := range e.Summaries {
		if !seen[s.Case] {
			seen[s.Case] = true
			sums = append(sums, s)
		}
	}
	pairs := map[[2]int]bool{}
	var cmps []ndjson.Comparison
	for _, c := range e.Comparisons {
		k := [2]int{c.Reference, c.Contender}
		if !pairs[k] {
			pairs[k] = true
			cmps = append(cmps, c)
		}
	}
	e.Summaries, e.Comparisons = sums, cmps
	return e
}

// place decodes a record the store keeps into its entry: a run record
// makes a new one (returned, not yet indexed), an analysis record of a
// known run fills its entry's analysis, summaries and comparisons are
// appended. Other records, and analysis records of runs not in the
// stream, return nil.
func place(r *ndjson.Reader, l ndjson.Line, byID map[string]*Entry) (*Entry, error) {
	switch l.Type {
	case ndjson.TypeRun:
		e := &Entry{Line: l.No}
		if err := r.Decode(l, &e.Run); err != nil {
			return nil, err
		}
		if e.Run.RunID == "" {
			return nil, r.Errorf(l, "run record without a run_id")
		}
		return e, nil
	case ndjson.TypeAnalysis:
		var a ndjson.Analysis
		if err := r.Decode(l, &a); err != nil {
			return nil, err
		}
		if e := byID[a.RunID]; e != nil && e.Analysis.RunID == "" {
			e.Analysis = a
			return e, nil
		}
	case ndjson.TypeSummary:
		var s ndjson.Summary
		if err := r.Decode(l, &s); err != nil {
			return nil, err
		}
		if e := byID[s.RunID]; e != nil {
			e.Summaries = append(e.Summaries, s)
		}
	case ndjson.TypeComparison:
		var c ndjson.Comparison
		if err := r.Decode(l, &c); err != nil {
			return nil, err
		}
		if e := byID[c.RunID]; e != nil {
			e.Comparisons = append(e.Comparisons, c)
		}
	}
	return nil, nil
}
