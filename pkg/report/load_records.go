package report

import "github.com/flybench/flybench/pkg/ndjson"

func (ld *loader) addLook(l ndjson.Line) error {
	run, err := ld.current(l)
	if err != nil {
		return err
	}
	var v ndjson.Look
	if err := ld.r.Decode(l, &v); err != nil {
		return err
	}
	run.Looks = append(run.Looks, v)
	return nil
}

func (ld *loader) addCalibration(l ndjson.Line) error {
	run, err := ld.current(l)
	if err != nil {
		return err
	}
	var c ndjson.Calibration
	if err := ld.r.Decode(l, &c); err != nil {
		return err
	}
	if err := ld.checkCase(l, run, c.Case); err != nil {
		return err
	}
	run.Calibrations = append(run.Calibrations, c)
	return nil
}

func (ld *loader) addSample(l ndjson.Line) error {
	run, err := ld.current(l)
	if err != nil {
		return err
	}
	var s ndjson.Sample
	if err := ld.r.Decode(l, &s); err != nil {
		return err
	}
	if err := ld.checkCase(l, run, s.Case); err != nil {
		return err
	}
	run.Samples = append(run.Samples, s)
	return nil
}

func (ld *loader) addEnd(l ndjson.Line) error {
	run, err := ld.current(l)
	if err != nil {
		return err
	}
	var e ndjson.End
	if err := ld.r.Decode(l, &e); err != nil {
		return err
	}
	switch {
	case e.RunID != "" && e.RunID != run.Run.RunID:
		return ld.r.Errorf(l, "end record for run %s inside run %s", e.RunID, run.Run.RunID)
	case run.End != nil:
		return ld.r.Errorf(l, "second end record for run %s", run.Run.RunID)
	}
	run.End = &e
	return nil
}

func (ld *loader) addAnalysis(l ndjson.Line) error {
	var a ndjson.Analysis
	if err := ld.r.Decode(l, &a); err != nil {
		return err
	}
	run, err := ld.owner(l, a.RunID)
	if err != nil {
		return err
	}
	if run.Analysis != nil {
		return ld.r.Errorf(l, "second analysis record for run %s", a.RunID)
	}
	run.Analysis = &a
	return nil
}

func (ld *loader) addSummary(l ndjson.Line) error {
	var s ndjson.Summary
	if err := ld.r.Decode(l, &s); err != nil {
		return err
	}
	run, err := ld.owner(l, s.RunID)
	if err != nil {
		return err
	}
	if err := ld.checkCase(l, run, s.Case); err != nil {
		return err
	}
	if run.summary(s.Case) != nil {
		return ld.r.Errorf(l, "second summary for case %d of run %s", s.Case, s.RunID)
	}
	run.Summaries = append(run.Summaries, s)
	return nil
}

func (ld *loader) addComparison(l ndjson.Line) error {
	var c ndjson.Comparison
	if err := ld.r.Decode(l, &c); err != nil {
		return err
	}
	run, err := ld.owner(l, c.RunID)
	if err != nil {
		return err
	}
	if err := ld.checkCase(l, run, c.Reference); err != nil {
		return err
	}
	if err := ld.checkCase(l, run, c.Contender); err != nil {
		return err
	}
	run.Comparisons = append(run.Comparisons, c)
	return nil
}
