package runs

// denseUnits is how far past the samples a case has a unit index may lie
// and still be kept in the case's bit set; a unit further out goes to a
// map, so a stream of a few samples with huge unit numbers costs no more
// memory than its samples.
const denseUnits = 1 << 16

// unitSet is the units one case of a run has a sample for.
type unitSet struct {
	bits   []uint64
	sparse map[int]struct{}
	n      int
}

// add records unit u and reports whether it was there already.
func (s *unitSet) add(u int) (again bool) {
	if limit := denseUnits + 16*s.n; u >= 64*len(s.bits) && u < limit {
		s.grow(max(u/64+1, min(2*len(s.bits), limit/64+1)))
	}
	if u < 64*len(s.bits) {
		word, bit := &s.bits[u/64], uint64(1)<<(u%64)
		again = *word&bit != 0
		*word |= bit
	} else {
		if s.sparse == nil {
			s.sparse = map[int]struct{}{}
		}
		_, again = s.sparse[u]
		s.sparse[u] = struct{}{}
	}
	if !again {
		s.n++
	}
	return again
}

// grow extends the bit set to n words and moves into it the units of the
// map it now covers.
func (s *unitSet) grow(n int) {
	s.bits = append(s.bits, make([]uint64, n-len(s.bits))...)
	for u := range s.sparse {
		if u < 64*n {
			s.bits[u/64] |= 1 << (u % 64)
			delete(s.sparse, u)
		}
	}
}

// addUnit refuses a case's second sample for one unit: a unit holds one
// sample per case, and a repeated one would be analysed as another pair.
func (g *Reader) addUnit(rec *Record, run *Run, c, u int) error {
	if run.units == nil {
		run.units = make([]*unitSet, len(run.Record.Cases))
	}
	if run.units[c] == nil {
		run.units[c] = &unitSet{}
	}
	if run.units[c].add(u) {
		return g.r.Errorf(rec.Line, "second sample of case %d for unit %d in run %s: a unit holds one sample per case; remove the repeated line (a stream or part of one copied twice?)", c, u, run.ID())
	}
	return nil
}
