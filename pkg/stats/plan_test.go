package stats

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/flybench/flybench/internal/schedule"
)

// TestPlanDeliversItsWidth runs plans: for each noise model, 60 pilots of
// 40 pairs each plan a run for a half-width of 0.5%, a fresh run of that
// many pairs is drawn from the same model, and its decision interval's
// half-width is compared with the target. Over the pilots the median
// ratio must be within 15% of 1: the plan neither wastes time nor falls
// short on average (a single plan varies with its pilot's noise).
//
// The exception is AR(1) noise with coefficient 0.8: 40 such pairs carry
// about four independent values' worth of information, the pilot
// underestimates the dependence, and the plan falls short by about 40%
// on median. That shortfall is written down here (at most 60%), not
// hidden; a longer pilot, or --until width=P%, is the answer.
func TestPlanDeliversItsWidth(t *testing.T) {
	if testing.Short() || raceEnabled {
		t.Skip("simulation: runs without -short and -race (make test runs it separately)")
	}
	b := Bootstrap{Seed: 5, Resamples: 1000, Confidence: 95}
	const target = 0.5
	for _, m := range noiseModels() {
		var ratios []float64
		var planned []int
		for i := range 60 {
			r := rand.New(rand.NewPCG(uint64(i), 77))
			pilot := logRatios(m, r, 40, uint64(i))
			p, err := PlanUnits(pilot.d, pilot.first, b, target)
			if err != nil {
				t.Fatal(err)
			}
			run := logRatios(m, r, p.Units, uint64(i)+1000)
			lo, hi, _ := b.LocationInterval(Locate(run.d, run.first, true).Pseudo, "plan")
			ratios = append(ratios, 100*(math.Expm1(hi)-math.Expm1(lo))/2/target)
			planned = append(planned, p.Units)
		}
		med, limit := Median(ratios), 1.15
		if m.name == "AR(1) phi=0.8" {
			limit = 1.6
		}
		t.Logf("%-18s planned %d pairs (median; %d..%d), achieved half-width / target: median %.2f", m.name,
			int(Median(intsToFloats(planned))), slices.Min(planned), slices.Max(planned), med)
		if med < 0.85 || med > limit {
			t.Errorf("%s: achieved half-width is %.2f times the target (median over 60 plans)", m.name, med)
		}
	}
}

type pilotData struct {
	d     []float64
	first []bool
}

func logRatios(m noiseModel, r *rand.Rand, n int, seed uint64) pilotData {
	first := refFirst(schedule.Paired(n, seed))
	ref, con := m.draw(r, n, 0, first)
	d := make([]float64, n)
	for i := range d {
		d[i] = math.Log(ref[i] / con[i])
	}
	return pilotData{d, first}
}

func intsToFloats(x []int) []float64 {
	f := make([]float64, len(x))
	for i, v := range x {
		f[i] = float64(v)
	}
	return f
}

func TestPlanRefusals(t *testing.T) {
	b := Bootstrap{Seed: 5, Resamples: 1000, Confidence: 95}
	if _, err := PlanUnits(make([]float64, 5), nil, b, 1); err == nil {
		t.Error("a 5-unit pilot was planned from")
	}
	if _, err := PlanUnits(make([]float64, 40), nil, b, 1); err == nil {
		t.Error("a constant pilot was planned from")
	}
	if _, err := PlanUnits(make([]float64, 40), nil, b, 0); err == nil {
		t.Error("a zero half-width was accepted")
	}
	if q := studentQuantile(0.975, 10); math.Abs(q-2.228) > 0.001 {
		t.Errorf("t(0.975, 10) = %v, want 2.228", q)
	}
}
