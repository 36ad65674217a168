package measure

import "github.com/flybench/flybench/internal/collect"

// resolveBatching settles a batching left to the mode once the sides are
// known: equal timed slices only when every side is a worker case that
// declared its cost size-independent.
func (m *measurement) resolveBatching(sizeIndependent []bool) {
	if !m.BatchingAuto || len(sizeIndependent) == 0 {
		return
	}
	for _, ok := range sizeIndependent {
		if !ok {
			return
		}
	}
	m.Batching = collect.EqualTime
}
