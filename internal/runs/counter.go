package runs

import (
	"github.com/flybench/flybench/internal/axes"
	"github.com/flybench/flybench/pkg/ndjson"
)

// addCounter places a counter record in the open run: it must name that
// run, one of its cases and an axis the run record lists, and carry a
// value exactly when its status is collected.
func (g *Reader) addCounter(rec *Record, run *Run) error {
	v := &ndjson.Counter{}
	rec.Value = v
	if err := g.r.Decode(rec.Line, v); err != nil {
		return err
	}
	if err := g.sameRun(rec.Line, run, v.RunID); err != nil {
		return err
	}
	if err := g.checkCase(rec.Line, run, v.Case); err != nil {
		return err
	}
	if !listsAxis(run.Record, v.Axis) {
		return g.r.Errorf(rec.Line, "counter record for axis %q, which run %s does not list in its axes", v.Axis, run.ID())
	}
	collected := axes.Status(v.Status) == axes.Collected
	switch {
	case v.Status == "":
		return g.r.Errorf(rec.Line, "counter record for axis %q has no status", v.Axis)
	case collected && v.Value == nil:
		return g.r.Errorf(rec.Line, "counter record for axis %q is collected but has no value", v.Axis)
	case !collected && (v.Value != nil || len(v.Values) > 0):
		return g.r.Errorf(rec.Line, "counter record for axis %q has status %q and a value; an unavailable axis carries none", v.Axis, v.Status)
	}
	return nil
}

func listsAxis(run ndjson.Run, name string) bool {
	for _, a := range run.Axes {
		if a.Name == name {
			return true
		}
	}
	return false
}
