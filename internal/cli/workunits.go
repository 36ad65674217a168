package cli

import (
	"math"
	"strconv"
)

// workUnitsOf reads --work-units: one positive number for every command,
// or one per command in order.
func workUnitsOf(values []string, commands int) ([]float64, error) {
	if len(values) == 0 {
		return nil, nil
	}
	if len(values) != 1 && len(values) != commands {
		return nil, usageErrorf("%d --work-units values for %d cases: give one for all, or one per case", len(values), commands)
	}
	out := make([]float64, commands)
	for i := range out {
		v := values[min(i, len(values)-1)]
		n, err := strconv.ParseFloat(v, 64)
		if err != nil || !(n > 0) || math.IsInf(n, 0) {
			return nil, usageErrorf("--work-units %q: want a positive number of work units per operation", v)
		}
		out[i] = n
	}
	return out, nil
}

// markWorkUnits gives the measured cases their work units; a reference
// workload (--reference), appended after them, declares none.
func (m *measurement) markWorkUnits() {
	for i, w := range m.workUnits {
		if i < len(m.cases) {
			m.cases[i].WorkUnits = w
		}
	}
}

// measuredSides is the number of sides the user asked to measure: the
// reference workload, when there is one, is not among them.
func (r *measureRequest) measuredSides() int {
	if r.ref != nil {
		return len(r.sides) - 1
	}
	return len(r.sides)
}
