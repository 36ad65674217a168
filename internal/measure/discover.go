package measure

import (
	"fmt"
	"reflect"

	"github.com/flybench/flybench/internal/custom"
	"github.com/flybench/flybench/internal/wproto"
	"github.com/flybench/flybench/pkg/ndjson"
)

// discovered is what the first, untimed batch of every side declared.
type discovered struct {
	timer   *wproto.Timer
	elapsed bool // the sides report elapsed_ns
	axes    []custom.Descriptor
}

// agree checks that every side declared the same timer and axes, and that
// all or none report their elapsed time; it returns the run's timer.
func agree(names []string, found []discovered) (*ndjson.Timer, []custom.Descriptor, error) {
	first := found[0]
	for i, f := range found[1:] {
		if !reflect.DeepEqual(f.axes, first.axes) {
			return nil, nil, &CommandError{Err: fmt.Errorf("%s declares other custom axes than %s: both sides must declare the same", names[i+1], names[0])}
		}
		if f.elapsed != first.elapsed {
			return nil, nil, &CommandError{Err: fmt.Errorf("%s and %s disagree on reporting elapsed_ns: the timer must be the same on every side", names[0], names[i+1])}
		}
	}
	if err := custom.ValidateSet(first.axes); err != nil {
		return nil, nil, &CommandError{Err: err}
	}
	return timerOf(first), first.axes, nil
}

// timerOf is the run's timer: a primary custom axis, elapsed_ns, or wall.
func timerOf(f discovered) *ndjson.Timer {
	for _, d := range f.axes {
		if d.Primary {
			return &ndjson.Timer{Kind: "self", Axis: d.Name, Source: d.Source, ResolutionNS: d.Resolution}
		}
	}
	if !f.elapsed {
		return nil
	}
	t := &ndjson.Timer{Kind: "self", Axis: wproto.ElapsedField}
	if f.timer != nil {
		t.Source, t.ResolutionNS = f.timer.Source, f.timer.ResolutionNS
	}
	return t
}

// primaryOf is the primary custom axis's name, or "" for elapsed_ns.
func primaryOf(t *ndjson.Timer) string {
	if t == nil || t.Axis == wproto.ElapsedField {
		return ""
	}
	return t.Axis
}
