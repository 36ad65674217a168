package collect

import (
	"time"

	"github.com/flybench/flybench/pkg/ndjson"
)

// sampler is the state of the sampling phase.
type sampler struct {
	e     *Engine
	iters []int64
	end   *ndjson.End
	began int64
	seq   int
	total int
	tele  *ndjson.Telemetry
}

// sample collects the timed batches. A unit's samples are written together
// once the whole unit is complete, so an interrupted run never leaves half a
// pair or half a round in the stream.
func (e *Engine) sample(iters []int64, end *ndjson.End) error {
	s := &sampler{e: e, iters: iters, end: end, began: e.Clock.Now(), total: e.unitsPlanned()}
	defer func() { end.SamplingNS = e.Clock.Now() - s.began }()
	if e.Config.Design(len(e.Cases)) == ndjson.DesignSequential {
		return s.sequential()
	}
	budget := int64(e.Config.MaxSampling)
	for u, order := range e.plan().Units {
		if e.stopped.Load() {
			return ErrInterrupted
		}
		if s.overBudget(s.began, budget, u) {
			end.Reason = ndjson.EndBudget
			return nil
		}
		if err := s.unit(u, order); err != nil {
			return err
		}
	}
	return nil
}

// sequential collects each case's block in turn. The sampling budget is
// divided among the cases; once one case stops early, later cases stop at
// the same count, since only the count every case completed is comparable.
func (s *sampler) sequential() error {
	e := s.e
	k, n := len(e.Cases), e.Config.Samples
	budget := int64(e.Config.MaxSampling) / int64(k)
	limit := n
	for c := 0; c < k; c++ {
		began := e.Clock.Now()
		for i := 0; i < limit; i++ {
			if e.stopped.Load() {
				return ErrInterrupted
			}
			if s.overBudget(began, budget, i) {
				s.end.Reason = ndjson.EndBudget
				limit = i
				break
			}
			if err := s.unit(i, []int{c}); err != nil {
				return err
			}
		}
	}
	s.end.Units = limit
	return nil
}

// overBudget reports whether a budget that started at began has run out
// before unit number done. The first minKeepUnits units always run.
func (s *sampler) overBudget(began, budget int64, done int) bool {
	return budget > 0 && done >= minKeepUnits && s.e.Clock.Now()-began >= budget
}

// unit runs one sample, pair or round and writes its samples.
func (s *sampler) unit(u int, order []int) error {
	e := s.e
	recs := make([]ndjson.Sample, 0, len(order))
	for pos, c := range order {
		e.report(s.status(c))
		rec := ndjson.Sample{Case: c, Unit: u, Pos: pos, Seq: s.seq + pos, Iter: s.iters[c]}
		ns, err := e.runBatch(c, s.iters[c], &rec)
		if err != nil {
			return err
		}
		rec.WallNS, rec.OpNS = ns, opTime(ns, e.Run.Clock.SubtractNS, s.iters[c])
		s.tele = rec.Tele
		recs = append(recs, rec)
	}
	for i := range recs {
		if err := e.Out.Write(&recs[i]); err != nil {
			return err
		}
		s.end.Samples[recs[i].Case]++
	}
	s.seq += len(order)
	s.end.Units++
	if s.end.Units == 1 && e.Check != nil {
		if err := e.Check(recs); err != nil {
			return &RequirementError{Err: err}
		}
	}
	return nil
}

func (s *sampler) status(c int) Status {
	done := s.end.Units
	st := Status{Phase: "sampling", Case: s.e.Cases[c].Name, Done: done, Total: s.total, Tele: s.tele}
	if done > 0 {
		per := float64(s.e.Clock.Now()-s.began) / float64(done)
		st.ETA = time.Duration(per * float64(s.total-done))
	}
	return st
}

// opTime is the per-operation time of a batch, after the optional timer-cost
// subtraction. It never goes below zero.
func opTime(ns int64, subtract float64, n int64) float64 {
	return max(float64(ns)-subtract, 0) / float64(n)
}
