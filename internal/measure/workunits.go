package measure

import (
	"math"

	"github.com/flybench/flybench/internal/field"
)

// checkWorkUnits refuses work units that are not one value for every
// measured case or one per case, or not each a positive number.
func (p *plan) checkWorkUnits() error {
	w, name := p.WorkUnits, field.Name("WorkUnits")
	if len(w) > 1 && len(w) != p.measuredSides() {
		return field.Errorf("WorkUnits", w, "%d %s values for %d cases: give one for all, or one per case", len(w), name, p.measuredSides())
	}
	for _, v := range w {
		if !(v > 0) || math.IsInf(v, 0) {
			return field.Errorf("WorkUnits", v, "%s %g: want a positive number of work units per operation", name, v)
		}
	}
	return nil
}

// markWorkUnits gives the measured cases their work units; a reference
// workload, appended after them, declares none.
func (m *measurement) markWorkUnits() {
	for i := range m.measuredSides() {
		if len(m.WorkUnits) == 0 {
			return
		}
		m.cases[i].WorkUnits = m.WorkUnits[min(i, len(m.WorkUnits)-1)]
	}
}
