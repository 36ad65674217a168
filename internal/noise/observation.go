package noise

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"maps"
	"math"

	"github.com/flybench/flybench/internal/analyze"
	"github.com/flybench/flybench/internal/field"
	"github.com/flybench/flybench/pkg/ndjson"
)

// Observation is what one invocation measured: every metric's value, the
// machine class and the tags of its run records.
type Observation struct {
	Values map[Key]float64
	Class  ndjson.MachineClass
	// Tags are the run records' tags; TagsDiffer is set when the
	// stream's runs disagree on them (Tags is then nil).
	Tags       map[string]string
	TagsDiffer bool
	runs       int
	names      field.Names // spells the case names' field in errors
}

// ErrNoMetrics is a stream with neither summaries nor comparisons to take
// a metric from.
var ErrNoMetrics = errors.New("the stream has no summary or comparison records: " +
	"the command must write a flybench stream (raw, as fb-pair writes it, or analysed)")

// Observe reads one invocation's stream. A raw stream (no analysis
// records) is analysed first with opt; an analysed one is taken as it is.
// Errors are the reader's (*ndjson.SyntaxError, *ndjson.VersionError),
// ErrNoMetrics, a *ClassError when its runs disagree on the machine
// class, or a duplicate case name.
func Observe(stream io.Reader, opt analyze.Options) (*Observation, error) {
	data, err := io.ReadAll(stream)
	if err != nil {
		return nil, fmt.Errorf("read the stream: %w", err)
	}
	analysed, err := scan(data)
	if err != nil {
		return nil, err
	}
	if !analysed {
		var out bytes.Buffer
		if err := analyze.Stream(ndjson.NewReader(bytes.NewReader(data), ""), ndjson.NewWriter(&out), opt); err != nil {
			return nil, err
		}
		data = out.Bytes()
	}
	return parse(data, opt.Names)
}

// scan checks every line of data and reports whether it holds analysis
// records. A stream cut short mid-record is an error here.
func scan(data []byte) (analysed bool, err error) {
	r := ndjson.NewReader(bytes.NewReader(data), "")
	for {
		l, err := r.Next()
		if errors.Is(err, io.EOF) {
			return analysed, nil
		}
		if err != nil {
			return false, err
		}
		switch l.Type {
		case ndjson.TypeAnalysis, ndjson.TypeSummary, ndjson.TypeComparison:
			analysed = true
		}
	}
}

// parse takes the metrics, class and tags from an analysed stream.
func parse(data []byte, names field.Names) (*Observation, error) {
	o := &Observation{Values: map[Key]float64{}, names: names}
	r := ndjson.NewReader(bytes.NewReader(data), "")
	for {
		l, err := r.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, err
		}
		if err := o.record(r, l); err != nil {
			return nil, err
		}
	}
	if len(o.Values) == 0 {
		return nil, ErrNoMetrics
	}
	if o.runs == 0 {
		return nil, errors.New("the stream has no run record: the machine class of the measurement is unknown")
	}
	return o, nil
}

// record takes what one line contributes.
func (o *Observation) record(r *ndjson.Reader, l ndjson.Line) error {
	switch l.Type {
	case ndjson.TypeRun:
		var run ndjson.Run
		if err := r.Decode(l, &run); err != nil {
			return err
		}
		return o.run(run)
	case ndjson.TypeSummary:
		var s ndjson.Summary
		if err := r.Decode(l, &s); err != nil {
			return err
		}
		return o.levels(r, l, s)
	case ndjson.TypeComparison:
		var c ndjson.Comparison
		if err := r.Decode(l, &c); err != nil {
			return err
		}
		return o.changes(r, l, c)
	}
	return nil
}

// run notes a run record's class and tags; every run of the stream must
// be of one machine class.
func (o *Observation) run(run ndjson.Run) error {
	class := ClassOf(run.Host)
	o.runs++
	if o.runs == 1 {
		o.Class, o.Tags = class, run.Tags
		return nil
	}
	if err := compareClass(o.Class, class); err != nil {
		return fmt.Errorf("run %d of the stream: %w", o.runs, err)
	}
	if !o.TagsDiffer && !maps.Equal(o.Tags, run.Tags) {
		o.Tags, o.TagsDiffer = nil, true
	}
	return nil
}

// levels takes a summary's time per operation (its mean_ns) and the mean
// of every other axis that has values.
func (o *Observation) levels(r *ndjson.Reader, l ndjson.Line, s ndjson.Summary) error {
	k := Key{Kind: ndjson.NoiseLevel, Metric: MetricTime, Case: s.Name}
	if err := o.put(r, l, k, s.Mean); err != nil {
		return err
	}
	for i, a := range s.Axes {
		if i == 0 || a.Stats == nil || a.N == 0 {
			continue // the timing axis is metric time; an axis without values has no level
		}
		k.Metric = a.Name
		if err := o.put(r, l, k, a.Stats.Mean); err != nil {
			return err
		}
	}
	return nil
}

// changes takes a comparison's change_pct and every available axis's
// relative change (in percent).
func (o *Observation) changes(r *ndjson.Reader, l ndjson.Line, c ndjson.Comparison) error {
	k := Key{Kind: ndjson.NoiseChange, Metric: MetricTime, Case: c.ContenderName, Reference: c.ReferenceName}
	if err := o.put(r, l, k, c.ChangePct); err != nil {
		return err
	}
	for i, a := range c.Axes {
		if i == 0 || !a.Available || a.Result == nil || a.Result.Method != ndjson.AxisMethodRelative {
			continue // the timing axis is metric time; absolute and exact changes are not in percent
		}
		k.Metric = a.Name
		if err := o.put(r, l, k, a.Result.Change); err != nil {
			return err
		}
	}
	return nil
}

// put stores one finite value; a case name seen twice (two runs with
// the same case names) makes the metrics ambiguous.
func (o *Observation) put(r *ndjson.Reader, l ndjson.Line, k Key, v float64) error {
	if _, dup := o.Values[k]; dup {
		return r.Errorf(l, "metric %s appears twice in one stream: metrics are matched by case name, so give the cases of every run distinct names (%s)", k, o.names.Spell(pairNames))
	}
	if !math.IsNaN(v) && !math.IsInf(v, 0) {
		o.Values[k] = v
	}
	return nil
}
