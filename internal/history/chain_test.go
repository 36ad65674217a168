package history

import (
	"flag"
	"fmt"
	"math"
	"math/rand/v2"
	"path/filepath"
	"testing"
	"time"
)

func TestChains(t *testing.T) {
	s := open(t, filepath.Join(t.TempDir(), "chain.db"))
	// Each run: parent (c0) against head (c1); head 2% slower, then 5% faster, then equal.
	var runs []fixtureRun
	for i, ratio := range []float64{1.02, 0.95, 1.0} {
		runs = append(runs, fixtureRun{id: fmt.Sprintf("r%d", i), started: t0.Add(time.Duration(i) * time.Hour),
			tags: map[string]string{"revision": fmt.Sprintf("v%d", i+1)}, medians: []float64{100, 100 * ratio}})
	}
	addRuns(t, s, "c", runs...)
	got, err := s.Chains(Query{Case: "c1"})
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 1 || got[0].Reference != "c0" || got[0].Case != "c1" || len(got[0].Points) != 3 {
		t.Fatalf("chains: %+v", got)
	}
	// The fixture's speedup intervals are ±1%: se of each log = log(1.01/0.99)/(2z).
	z := normalQuantile(95)
	se := math.Log(1.01/0.99) / (2 * z)
	want := []float64{1.02, 1.02 * 0.95, 1.02 * 0.95}
	for i, p := range got[0].Points {
		if math.Abs(p.Value-want[i]) > 1e-9 || p.Revision != fmt.Sprintf("v%d", i+1) {
			t.Errorf("point %d: %+v, want %g", i, p, want[i])
		}
		w := z * se * math.Sqrt(float64(i+1))
		if math.Abs(p.CI[0]-want[i]*math.Exp(-w)) > 1e-9 || math.Abs(p.CI[1]-want[i]*math.Exp(w)) > 1e-9 {
			t.Errorf("point %d: interval %v, want ×exp(±%g)", i, *p.CI, w)
		}
	}
}

var chainSim = flag.Bool("history.chain-sim", false, "print the chained interval's coverage table")

// TestChainCoverage simulates revision chains: each step a paired run of
// 20 pairs whose log-ratios are the step's true change plus noise
// (Gaussian, or Student t with 3 degrees of freedom for heavy tails), its
// interval the 95% t interval of the mean log-ratio; the chain's interval
// is combined as Chains does. Coverage of the true cumulative ratio after
// 1, 10 and 50 steps must stay near 95%.
func TestChainCoverage(t *testing.T) {
	if testing.Short() {
		t.Skip("a simulation")
	}
	const reps, pairs = 2000, 20
	tq := 2.093 // t quantile, 19 degrees of freedom, 97.5%
	for _, noise := range []string{"gaussian", "t3"} {
		rng := rand.New(rand.NewPCG(1, 2))
		covered := map[int]int{}
		for range reps {
			var c chain
			c.z = normalQuantile(95)
			truth := 0.0
			for step := 1; step <= 50; step++ {
				delta := 0.02 * rng.NormFloat64()
				truth += delta
				x := make([]float64, pairs)
				for i := range x {
					e := rng.NormFloat64()
					if noise == "t3" {
						e = studentT3(rng) / math.Sqrt(3)
					}
					x[i] = delta + 0.03*e
				}
				mean, sd := meanSD(x)
				hw := tq * sd / math.Sqrt(pairs)
				// A speedup is reference/contender: exp(-log-ratio).
				_, ci := c.add(math.Exp(-mean), math.Exp(-mean-hw), math.Exp(-mean+hw), 95)
				if step == 1 || step == 10 || step == 50 {
					if math.Log(ci[0]) <= truth && truth <= math.Log(ci[1]) {
						covered[step]++
					}
				}
			}
		}
		for _, step := range []int{1, 10, 50} {
			cov := float64(covered[step]) / reps
			if *chainSim || testing.Verbose() {
				t.Logf("%s noise, chain of %d: coverage %.1f%% of %d", noise, step, 100*cov, reps)
			}
			if cov < 0.92 || cov > 0.98 {
				t.Errorf("%s noise, chain of %d: coverage %.3f", noise, step, cov)
			}
		}
	}
}

func studentT3(rng *rand.Rand) float64 {
	var chi float64
	for range 3 {
		g := rng.NormFloat64()
		chi += g * g
	}
	return rng.NormFloat64() / math.Sqrt(chi/3)
}

func meanSD(x []float64) (mean, sd float64) {
	for _, v := range x {
		mean += v
	}
	mean /= float64(len(x))
	for _, v := range x {
		sd += (v - mean) * (v - mean)
	}
	return mean, math.Sqrt(sd / float64(len(x)-1))
}
