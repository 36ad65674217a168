package analyze

import (
	"fmt"

	"github.com/flybench/flybench/internal/axes"
	"github.com/flybench/flybench/pkg/ndjson"
)

// axisVal is one axis in one sample.
type axisVal struct {
	st axes.Status
	v  float64
	r  string
}

// extraAxes are the run's axes other than its timing axis, in record
// order; samples carry a value or a status for each. Under a CPU timer
// wall time is one of them.
func extraAxes(run ndjson.Run) []ndjson.AxisInfo {
	var out []ndjson.AxisInfo
	for i, a := range run.Axes {
		if axes.Extra(i, a.Name) && !axes.IsCounter(a.Family) { // counters are not in samples (exact.go)
			out = append(out, a)
		}
	}
	return out
}

// wallInfo is the timing axis's descriptor: the run's (wall time, or the
// self-reported or CPU time that replaces it), or the catalogue's wall
// time for streams written before axes were recorded.
func wallInfo(run ndjson.Run) ndjson.AxisInfo {
	if len(run.Axes) > 0 && axes.IsTiming(run.Axes[0].Name) {
		return run.Axes[0]
	}
	w, _ := axes.Lookup(axes.Wall)
	return ndjson.AxisInfo{Name: w.Name, Unit: w.Unit, Family: w.Family, Scope: w.Scope, Attribution: w.Attribution,
		Direction: string(w.Direction), Normalization: string(w.Normalization), Status: string(axes.Collected)}
}

// sampleAxes checks a sample's axis values against the run's axes and
// returns them in the run's order. A value with an unavailable status, or
// a collected status without a value, is a bad record.
func sampleAxes(infos []ndjson.AxisInfo, s ndjson.Sample) ([]axisVal, error) {
	if len(infos) == 0 {
		return nil, nil
	}
	out := make([]axisVal, len(infos))
	for i, in := range infos {
		v, ok := s.Axes[in.Name]
		switch {
		case !ok:
			out[i] = axisVal{st: axes.ProbeFailed, r: "absent from the sample record"}
		case axes.Status(v.S) == axes.Collected && v.V == nil:
			return nil, fmt.Errorf("axis %s is collected but has no value", in.Name)
		case axes.Status(v.S) != axes.Collected && v.V != nil:
			return nil, fmt.Errorf("axis %s has status %q and a value; an unavailable axis carries none", in.Name, v.S)
		case v.S == "":
			return nil, fmt.Errorf("axis %s has no status", in.Name)
		case v.V != nil:
			out[i] = axisVal{st: axes.Collected, v: *v.V}
		default:
			out[i] = axisVal{st: axes.Status(v.S), r: v.R}
		}
	}
	return out, nil
}

// column gathers axis i of case c: the values, and how many samples lack one.
func (d *runData) column(c, i int) (vals []float64, missing int) {
	for _, p := range d.cases[c] {
		if d.val(p, i).st == axes.Collected {
			vals = append(vals, d.val(p, i).v)
		} else {
			missing++
		}
	}
	return vals, missing
}

// status is the aggregate status of axis i in case c, and its reason.
func (d *runData) status(c, i int, info ndjson.AxisInfo) (axes.Status, string) {
	vals, missing := d.column(c, i)
	switch {
	case missing == 0 && len(vals) > 0:
		return axes.Collected, ""
	case len(vals) > 0:
		return axes.PartiallyCollected, fmt.Sprintf("%d of %d samples have no value: %s", missing, missing+len(vals), d.firstFailure(c, i, info))
	case missing == 0:
		return axes.Status(info.Status), info.Reason
	}
	return d.dominant(c, i), d.firstFailure(c, i, info)
}

// dominant is the most frequent unavailable status of axis i in case c.
func (d *runData) dominant(c, i int) axes.Status {
	count := map[axes.Status]int{}
	best := axes.ProbeFailed
	for _, p := range d.cases[c] {
		st := d.val(p, i).st
		count[st]++
		if count[st] > count[best] || count[st] == count[best] && st < best {
			best = st
		}
	}
	return best
}

// firstFailure explains the first sample without a value of axis i.
func (d *runData) firstFailure(c, i int, info ndjson.AxisInfo) string {
	for _, p := range d.cases[c] {
		if v := d.val(p, i); v.st != axes.Collected {
			reason := v.r
			if reason == "" {
				reason = info.Reason
			}
			if reason == "" {
				return v.st.Text()
			}
			return v.st.Text() + ": " + reason
		}
	}
	return ""
}
