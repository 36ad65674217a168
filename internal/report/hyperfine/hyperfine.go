// Package hyperfine is fb-report --format hyperfine-json: every case of
// every run as a result of hyperfine's --export-json schema, so tools
// written for hyperfine read flybench's measurements.
package hyperfine

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"slices"
	"strconv"

	"github.com/flybench/flybench/internal/report/model"
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
	Times           *array            `json:"times"`
	MemoryUsageByte *array            `json:"memory_usage_byte,omitempty"`
	ExitCodes       *array            `json:"exit_codes"`
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
	arrays := &arrays{mark: fmt.Sprintf("flybench-array-%016x", rand.Uint64())}
	doc := hfDocument{Results: []hfResult{}}
	for _, r := range runs {
		for i := range r.Run.Cases {
			if res, ok := hfCase(r, i, arrays); ok {
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
	bw := bufio.NewWriter(w)
	if err := arrays.splice(bw, buf.Bytes()); err != nil {
		return err
	}
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("write report: %w", err)
	}
	return nil
}

// hfCase is case i's result, or false when the stream holds no sample of it.
func hfCase(r *model.Run, i int, a *arrays) (hfResult, bool) {
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

// array stands in the document for an array of n numbers until splice
// writes them in its place.
type array struct {
	id   string
	n    int
	elem func(k int) any
}

func (a *array) MarshalJSON() ([]byte, error) { return []byte(strconv.Quote(a.id)), nil }

// arrays are a document's arrays in the order the encoder writes them.
type arrays struct {
	mark string
	list []*array
}

func (as *arrays) add(n int, elem func(k int) any) *array {
	a := &array{id: fmt.Sprintf("%s-%d", as.mark, len(as.list)), n: n, elem: elem}
	as.list = append(as.list, a)
	return a
}

// splice writes doc with each array's mark replaced by its numbers, one
// on a line, indented as the encoder indents the rest.
func (as *arrays) splice(w *bufio.Writer, doc []byte) error {
	for _, a := range as.list {
		quoted := []byte(strconv.Quote(a.id))
		at := bytes.Index(doc, quoted)
		if at < 0 {
			return fmt.Errorf("encode hyperfine JSON: array %s has no place in the document", a.id)
		}
		line := doc[bytes.LastIndexByte(doc[:at], '\n')+1 : at]
		indent := string(line[:len(line)-len(bytes.TrimLeft(line, " "))])
		if _, err := w.Write(doc[:at]); err != nil {
			return fmt.Errorf("write report: %w", err)
		}
		if a.n == 0 {
			w.WriteString("[]")
		} else {
			w.WriteByte('[')
			for k := range a.n {
				b, err := json.Marshal(a.elem(k))
				if err != nil {
					return fmt.Errorf("encode hyperfine JSON: %w", err)
				}
				if k > 0 {
					w.WriteByte(',')
				}
				w.WriteString("\n" + indent + "  ")
				w.Write(b)
			}
			w.WriteString("\n" + indent + "]")
		}
		doc = doc[at+len(quoted):]
	}
	if _, err := w.Write(doc); err != nil {
		return fmt.Errorf("write report: %w", err)
	}
	return nil
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
