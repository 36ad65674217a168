package collect

import (
	"time"

	"github.com/flybench/flybench/pkg/ndjson"
)

// closeWindow judges the open window, writes its record, and either keeps
// its samples or discards them. It returns how many jobs to collect again
// (0 when the window was kept).
func (s *sampler) closeWindow() (int, error) {
	w := s.win
	s.win = nil
	rec := s.windowRecord(w)
	discard, err := s.respondForeign(w, &rec)
	if err != nil {
		return 0, err
	}
	if discard && rec.Conditions != nil && !rec.Conditions.Acceptable {
		s.e.Conditions.Record(rec.Units, false, true) // collected again anyway
	}
	if !discard && rec.Conditions != nil && !rec.Conditions.Acceptable {
		if discard, err = s.respondConditions(&rec); err != nil {
			s.writeWindow(w, &rec, true)
			return 0, err
		}
	}
	if err := s.writeWindow(w, &rec, !discard); err != nil {
		return 0, err
	}
	if discard {
		s.rewarm()
		return len(w.jobs), nil
	}
	return 0, nil
}

// windowRecord measures a closed window: foreign load and conditions.
func (s *sampler) windowRecord(w *window) ndjson.Window {
	rec := ndjson.Window{
		Index: s.nwin, FirstUnit: w.firstUnit, Units: len(w.jobs), Samples: w.samples(),
		WallNS: s.e.Clock.Now() - w.start, Verdict: ndjson.WindowUnjudged, Action: ndjson.ActionKept,
		Attribution: "host_wide",
	}
	s.nwin++
	if m := s.e.Monitor; m != nil {
		est := m.End()
		rec.Judged = est.Judged && rec.WallNS >= w.min
		rec.ForeignPct, rec.HostBusyPct, rec.OwnPct = est.ForeignPct, est.HostBusyPct, est.OwnPct
		rec.AllowancePct = est.AllowancePct
		rec.Attribution, rec.WatchedCPUs, rec.Diluted = est.Attribution, est.WatchedCPUs, est.Diluted
		rec.Pressure, rec.PressureUnavailable = est.Pressure, est.PressureUnavailable
		if rec.Judged {
			rec.Verdict = ndjson.WindowClean
			if est.ForeignPct-est.AllowancePct > s.e.Config.Watch.MaxForeignPct {
				rec.Verdict = ndjson.WindowContaminated
			}
		}
	}
	if c := s.e.Conditions; c != nil {
		cond, ok := c.Check()
		cond.Acceptable = ok
		rec.Conditions = &cond
	}
	return rec
}

// respondForeign applies the interference response to a contaminated
// window. Budgets that run out leave the window kept and say so.
func (s *sampler) respondForeign(w *window, rec *ndjson.Window) (bool, error) {
	if rec.Verdict != ndjson.WindowContaminated {
		return false, nil
	}
	p := s.e.Config.Watch
	switch p.Response {
	case ndjson.WatchRetake:
		if s.end.Retakes >= p.MaxRetakes {
			rec.Exhausted, s.end.BudgetExhausted = true, true
			return false, nil
		}
		s.end.Retakes++
		rec.Action = ndjson.ActionRetaken
		return true, nil
	case ndjson.WatchPause:
		return s.pauseForeign(rec), nil
	}
	return false, nil
}

// pauseForeign waits for the host to settle within the pause budget. The
// window is discarded and collected again once it has; if the budget is
// gone, it is kept and the run continues under observe.
func (s *sampler) pauseForeign(rec *ndjson.Window) bool {
	p := s.e.Config.Watch
	left := int64(p.MaxPause) - s.end.PausedNS
	if left < int64(p.Settle) {
		rec.Exhausted, s.end.BudgetExhausted = true, true
		return false
	}
	s.e.report(Status{Phase: "paused"})
	waited, settled := s.e.Monitor.Settle(p.Settle, time.Duration(left))
	s.paused += int64(waited)
	s.end.Pauses++
	s.end.PausedNS += int64(waited)
	rec.PauseNS, rec.Action = int64(waited), ndjson.ActionPaused
	if !settled {
		s.end.BudgetExhausted, rec.Exhausted = true, true
	}
	return true
}

// respondConditions applies the operating-conditions policy to a window
// observed under unacceptable conditions.
func (s *sampler) respondConditions(rec *ndjson.Window) (bool, error) {
	c := s.e.Conditions
	switch c.Response() {
	case ndjson.ConditionsFail:
		c.Record(rec.Units, false, false)
		return false, &ConditionsError{Why: rec.Conditions.Why}
	case ndjson.ConditionsPause:
		s.e.report(Status{Phase: "waiting for conditions"})
		waited, ok := c.Wait()
		s.paused += int64(waited)
		fallback := ""
		if !ok {
			fallback = c.Expired()
			rec.ConditionsExpired, rec.Fallback = true, fallback
		}
		c.RecordPause(waited, !ok, fallback)
		if !ok && fallback == ndjson.ConditionsFail {
			c.Record(rec.Units, false, false)
			return false, &ConditionsError{Why: rec.Conditions.Why + " (and the pause budget ran out)"}
		}
		c.Record(rec.Units, false, ok)
		if ok {
			rec.Action, rec.PauseNS = ndjson.ActionPaused, rec.PauseNS+int64(waited)
		}
		return ok, nil
	}
	c.Record(rec.Units, false, false)
	return false, nil
}

// writeWindow writes the window record and, when kept, its samples.
func (s *sampler) writeWindow(w *window, rec *ndjson.Window, kept bool) error {
	if c := s.e.Conditions; c != nil && rec.Conditions != nil && rec.Conditions.Acceptable {
		c.Record(rec.Units, true, false)
	}
	if err := s.e.Out.Write(rec); err != nil {
		return err
	}
	if !kept {
		s.seq -= rec.Samples // discarded batches give their sequence numbers back
		return nil
	}
	for _, recs := range w.recs {
		if err := s.keep(recs); err != nil {
			return err
		}
	}
	return nil
}

// flushOpen closes the open window, if any, keeping it whatever it shows:
// the run is ending (budget) and there is nothing to collect again.
func (s *sampler) flushOpen() error {
	if s.win == nil {
		return nil
	}
	w := s.win
	s.win = nil
	rec := s.windowRecord(w)
	if rec.Conditions != nil && !rec.Conditions.Acceptable {
		s.e.Conditions.Record(rec.Units, false, false)
	}
	return s.writeWindow(w, &rec, true)
}

// abandon ends sampling with err, keeping the complete units of the open
// window so nothing collected before the failure or interrupt is lost.
func (s *sampler) abandon(err error) error {
	if s.win != nil && len(s.win.jobs) > 0 {
		if ferr := s.flushOpen(); ferr != nil {
			return ferr
		}
	}
	s.win = nil
	return err
}

// rewarm runs every case untimed for the rewarm time (at least one batch
// each) after a pause, so the first sample collected again is not cold;
// each batch has its case's --prepare and --conclude, as every batch does.
func (s *sampler) rewarm() {
	e := s.e
	d := e.Config.Watch.Rewarm
	if d <= 0 {
		return
	}
	e.report(Status{Phase: "rewarming"})
	until := e.Clock.Now() + int64(d)
	for first := true; first || e.Clock.Now() < until; first = false {
		for c := range e.Cases {
			if e.stopped.Load() {
				return
			}
			if _, err := e.runBatch(c, s.iters[c], nil); err != nil {
				return // the next timed batch will report it
			}
		}
	}
}
