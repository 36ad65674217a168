// Package hyperfine is fb-report --format hyperfine-json: every case of
// every run as a result of hyperfine's --export-json schema, so tools
// written for hyperfine read flybench's measurements.
package hyperfine

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"slices"

	"github.com/flybench/flybench/internal/report/model"
	"github.com/flybench/flybench/internal/report/splice"
)

// hfDocument is hyperfine's --export-json document: one result per
// command, in the order the commands ran.
type hfDocument struct {
	Results []hfResult `json:"results"`
}

// hfResult is one command's entry of hyperfine's --export-json schema.
// User and System are null: flybench records user plus system CPU time
// together, never apart. ExitCodes is null when the run kept failing
// batches (--ignore-failure), whose statuses the stream does not record.
// MemoryUsageByte (hyperfine 1.20) is each sample's rss_peak, present
// only when every sample of the case has one: a sample without a value
// (unattributable: only an upper bound) has no place in an array of
// numbers.
type hfResult struct {
	Command         string            `json:"command"`
	Mean            float64           `json:"mean"`
	Stddev          *float64          `json:"stddev"`
	Median          float64           `json:"median"`
	User            *float64          `json:"user"`
	System          *float64          `json:"system"`
	Min             float64           `json:"min"`
	Max             float64           `json:"max"`
	Times           *splice.Place     `json:"times"`
	MemoryUsageByte *splice.Place     `json:"memory_usage_byte,omitempty"`
	ExitCodes       *splice.Place     `json:"exit_codes"`
	Parameters      map[string]string `json:"parameters,omitempty"`
}

// errNoHyperfineRuns is a stream without run records: hyperfine's schema
// has nothing to hold for recordings alone.
var errNoHyperfineRuns = &model.NotAnalyzedError{Msg: "the stream holds no run records, nothing to export as hyperfine JSON " +
	"(recordings have no place in hyperfine's schema)"}

// Write writes every case of every run as a result of hyperfine's
// --export-json schema. Its statistics are the descriptive ones hyperfine
// writes, taken from the times; fb-analyze's estimates are not part of it.
// The arrays of one value per sample are written into the document as it
// goes to w, so that its text (every time and exit code on a line of its
// own, larger than the stream) is never held whole.
func Write(w io.Writer, runs []*model.Run) error {
	if len(runs) == 0 {
		return errNoHyperfineRuns
	}
	a := &numbers{marks: splice.NewMarks()}
	doc := hfDocument{Results: []hfResult{}}
	for _, r := range runs {
		for i := range r.Run.Cases {
			if res, ok := hfCase(r, i, a); ok {
				doc.Results = append(doc.Results, res)
			}
		}
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetIndent("", "  ")
	if err := enc.Encode(doc); err != nil {
		return err
	}
	return splice.Write(w, buf.Bytes(), a.arrays)
}

// hfCase is case i's result, or false when the stream holds no sample of it.
func hfCase(r *model.Run, i int, a *numbers) (hfResult, bool) {
	times, peaks := hfTimes(r.Times, i)
	if len(times) == 0 {
		return hfResult{}, false
	}
	c := r.Run.Cases[i]
	res := hfResult{Command: c.Command, Parameters: c.Params}
	if res.Command == "" {
		res.Command = r.CaseName(i)
	}
	res.Mean, res.Stddev = hfMeanStddev(times)
	res.Median, res.Min, res.Max = hfOrder(times)
	res.Times = a.add(len(times), func(k int) any { return times[k] })
	if peaks != nil {
		res.MemoryUsageByte = a.add(len(peaks), func(k int) any { return peaks[k] })
	}
	if !r.Run.Config.IgnoreFailure {
		res.ExitCodes = a.add(len(times), func(int) any { return 0 })
	}
	return res, true
}

// numbers are the arrays of one value per sample a document leaves out
// of its encoding, to be written in their places (package splice).
type numbers struct {
	marks  *splice.Marks
	arrays []splice.Array
}

// add leaves out an array of n numbers, value(k) the k-th, and returns
// its place.
func (a *numbers) add(n int, value func(k int) any) *splice.Place {
	mark := a.marks.Next()
	a.arrays = append(a.arrays, splice.Array{Mark: mark, Len: n, Item: func(k int, _ string) ([]byte, error) {
		b, err := json.Marshal(value(k))
		if err != nil {
			return nil, fmt.Errorf("encode hyperfine JSON: %w", err)
		}
		return b, nil
	}})
	return &mark
}

// hfTimes are case i's per-operation times in seconds, in collection
// order (the samples' seq), and their rss_peak in bytes when every one
// has it.
func hfTimes(all []model.Time, i int) ([]float64, []uint64) {
	var mine []model.Time
	for _, t := range all {
		if t.Case == i {
			mine = append(mine, t)
		}
	}
	slices.SortStableFunc(mine, func(a, b model.Time) int { return a.Seq - b.Seq })
	times, peaks := make([]float64, len(mine)), make([]uint64, len(mine))
	for k, s := range mine {
		times[k] = s.OpNS / 1e9
		if s.PeakBytes == nil || peaks == nil {
			peaks = nil
			continue
		}
		peaks[k] = uint64(*s.PeakBytes)
	}
	return times, peaks
}

// hfMeanStddev is the mean and the sample standard deviation (n-1) of x,
// the deviation nil for a single time, as hyperfine writes it.
func hfMeanStddev(x []float64) (float64, *float64) {
	var sum float64
	for _, v := range x {
		sum += v
	}
	mean := sum / float64(len(x))
	if len(x) < 2 {
		return mean, nil
	}
	var sq float64
	for _, v := range x {
		sq += (v - mean) * (v - mean)
	}
	sd := math.Sqrt(sq / float64(len(x)-1))
	return mean, &sd
}

// hfOrder is the median (the mean of the middle two for an even count),
// minimum and maximum of x.
func hfOrder(x []float64) (median, lo, hi float64) {
	s := slices.Clone(x)
	slices.Sort(s)
	n := len(s)
	median = s[n/2]
	if n%2 == 0 {
		median = (s[n/2-1] + s[n/2]) / 2
	}
	return median, s[0], s[n-1]
}
