package report

import "github.com/flybench/flybench/pkg/ndjson"

// addLock keeps a lock record for the run record that follows it. A second
// one before that run replaces the first, as in fb-analyze.
func (ld *loader) addLock(l ndjson.Line) error {
	var v ndjson.Lock
	if err := ld.r.Decode(l, &v); err != nil {
		return err
	}
	ld.lock = &v
	return nil
}

// addGate keeps a gate record for the run record that follows it.
func (ld *loader) addGate(l ndjson.Line) error {
	var v ndjson.Gate
	if err := ld.r.Decode(l, &v); err != nil {
		return err
	}
	ld.gate = &v
	return nil
}

func (ld *loader) addWindow(l ndjson.Line) error {
	run, err := ld.current(l)
	if err != nil {
		return err
	}
	var w ndjson.Window
	if err := ld.r.Decode(l, &w); err != nil {
		return err
	}
	run.Windows = append(run.Windows, w)
	return nil
}

func (ld *loader) addEnvironment(l ndjson.Line) error {
	var e ndjson.Environment
	if err := ld.r.Decode(l, &e); err != nil {
		return err
	}
	run, err := ld.owner(l, e.RunID)
	if err != nil {
		return err
	}
	if run.Environment != nil {
		return ld.r.Errorf(l, "second environment record for run %s", e.RunID)
	}
	run.Environment = &e
	return nil
}
