// Package model is what fb-report and fb-check know of an analysed
// stream: its runs and recordings, each with the records package runs
// groups into it, and the words every format shares for them (durations
// and axis values in their units, axis statuses as people read them). It
// formats no report and draws no figure; the formats and figures of
// internal/report sit on top of it.
package model

import (
	"fmt"

	"github.com/flybench/flybench/internal/field"
	"github.com/flybench/flybench/pkg/ndjson"
)

// Spell has every run and recording of s spell the options their words
// name (fb-pair's request fields, fb-analyze's options) with names.
func (s *Stream) Spell(names field.Names) {
	for _, r := range s.Runs {
		r.Names = names
	}
	for _, rec := range s.Recordings {
		rec.Names = names
	}
}

// Stream is a whole report's input: its runs and its recordings, each in
// stream order.
type Stream struct {
	Runs       []*Run
	Recordings []*Recording
	// Series are fb-history's series records, in stream order.
	Series []ndjson.Series
	// Torn is the warning of a last line cut short, which ended the
	// stream; "" when the stream ended whole. The run or recording before
	// it carries it too, in its StreamWarnings.
	Torn string
}

// Add appends the runs, recordings and series of another input, o (nil
// for none), to s.
func (s *Stream) Add(o *Stream) {
	if o != nil {
		s.Runs = append(s.Runs, o.Runs...)
		s.Recordings = append(s.Recordings, o.Recordings...)
		s.Series = append(s.Series, o.Series...)
	}
}

// MarkRepeats notes, on each of the runs that share a run_id, which of
// them it is: the same measurement analysed more than once (fb-stream(5)).
func MarkRepeats(runs []*Run) {
	total := map[string]int{}
	for _, r := range runs {
		total[r.Run.RunID]++
	}
	seen := map[string]int{}
	for _, r := range runs {
		id := r.Run.RunID
		seen[id]++
		r.repeat = ""
		if total[id] > 1 {
			r.repeat = fmt.Sprintf("%d of %d with this id", seen[id], total[id])
		}
	}
}

// Suites gathers the suite records of all runs, in stream order.
func Suites(runs []*Run) []ndjson.Suite {
	var all []ndjson.Suite
	for _, r := range runs {
		all = append(all, r.Suites...)
	}
	return all
}

// AAs gathers the aa records (A/A series) of all runs, in stream order.
func AAs(runs []*Run) []ndjson.AA {
	var all []ndjson.AA
	for _, r := range runs {
		all = append(all, r.AAs...)
	}
	return all
}
