package history

import (
	"fmt"
	"io"

	"github.com/flybench/flybench/internal/changepoint"
	"github.com/flybench/flybench/pkg/ndjson"
)

// Input is one analysed stream to add, read and parsed whole before
// anything is added.
type Input struct {
	Name    string
	Raw     []byte
	Entries []Entry
}

// ParseInput parses the stream data read from name ("stdin" is shown as
// "<stdin>"), as Parse does.
func ParseInput(name string, data []byte) (Input, error) {
	if name == "stdin" {
		name = "<stdin>"
	}
	entries, err := Parse(name, data)
	return Input{Name: name, Raw: data, Entries: entries}, err
}

// AddAll adds every input's runs, with tags, in order, saying on w what
// became of each run (WriteAdded); it stops at the first input the store
// or w refuses, with an error naming the store.
func (s *Store) AddAll(w io.Writer, inputs []Input, tags map[string]string) error {
	for _, in := range inputs {
		added, err := s.Add(in.Raw, in.Entries, tags)
		if werr := WriteAdded(w, in.Name, added); werr != nil && err == nil {
			err = werr
		}
		if err != nil {
			return fmt.Errorf("%s: %w", s.Name, err)
		}
	}
	return nil
}

// Show reads the series q selects: each case's levels, or with chain its
// chained paired changes. A level series gets its change points as
// changes says, unless changes.Level is 0; a series shown whole extends
// the search kept from an earlier show (segmentations.go). When the
// series are complete but their change points could not be kept, the
// error is a *KeepError.
func (s *Store) Show(q Query, chain bool, changes changepoint.Options) ([]ndjson.Series, error) {
	read := s.Series
	if chain {
		read = s.Chains
	}
	series, err := read(q)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", s.Name, err)
	}
	if changes.Level == 0 || chain {
		return series, nil
	}
	var keepErr error
	for i := range series {
		sr := &series[i]
		x := values(*sr)
		if len(sr.Points) < sr.Total { // --last: searched as shown, not kept
			markSeries(sr, x, changepoint.Segment(x, changes), changes)
			continue
		}
		seg, err := s.segmentWithKept(*sr, x, changes)
		if err != nil && keepErr == nil {
			keepErr = fmt.Errorf("%s: %w", s.Name, err)
		}
		markSeries(sr, x, seg, changes)
	}
	return series, keepErr
}
