package stats

import (
	"fmt"
	"math"
	"math/rand/v2"
	"sync"
	"testing"

	"github.com/flybench/flybench/internal/schedule"
)

// TestClusterIntervalExact checks the clustered interval against a hand
// computation: x = 1,3 | 2,6 | 4,8 in three blocks, mean 4, block sums of
// deviations -4, 0, +4, se² = 3/2 · 32 / 36 = 4/3, t(0.975, 2) = 4.302653.
func TestClusterIntervalExact(t *testing.T) {
	x := []float64{1, 3, 2, 6, 4, 8}
	block := []int32{7, 7, 2, 2, 5, 5}
	center, lo, hi, k := clusterInterval(x, block, 95)
	half := 4.302652729749464 * math.Sqrt(4.0/3)
	if k != 3 || center != 4 || !near(lo, 4-half, 1e-9) || !near(hi, 4+half, 1e-9) {
		t.Errorf("got center %v [%v, %v] over %d blocks, want 4 ± %v over 3", center, lo, hi, k, half)
	}
	// Labels need not be adjacent: the same values interleaved.
	_, lo2, hi2, _ := clusterInterval([]float64{1, 2, 4, 3, 6, 8}, []int32{7, 2, 5, 7, 2, 5}, 95)
	if !near(lo2, lo, 1e-12) || !near(hi2, hi, 1e-12) {
		t.Errorf("interleaved blocks: [%v, %v], want [%v, %v]", lo2, hi2, lo, hi)
	}
	if _, lo, _, k := clusterInterval([]float64{1, 2}, []int32{0, 0}, 95); k != 1 || !math.IsNaN(lo) {
		t.Errorf("one block: k %d lo %v, want 1 and NaN", k, lo)
	}
}

// TestComparePairedBlocks: with blocks, the decision interval is the
// clustered one, and the series interval is kept as Within; a block-wide
// shift that the series interval ignores widens the clustered one.
func TestComparePairedBlocks(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	const k, per = 10, 40
	d := make([]float64, k*per)
	block := make([]int32, k*per)
	for b := range k {
		shift := 0.02 * r.NormFloat64()
		for i := range per {
			d[b*per+i] = shift + 0.03*r.NormFloat64()
			block[b*per+i] = int32(b)
		}
	}
	ref, con := pairsFromLogRatios(r, d)
	first := refFirst(schedule.Paired(len(d), 5))
	series, err := ComparePaired(PairedInput{Ref: ref, Con: con, RefFirst: first}, testBootstrap, 1, "t")
	if err != nil {
		t.Fatal(err)
	}
	blocked, err := ComparePaired(PairedInput{Ref: ref, Con: con, RefFirst: first, Block: block}, testBootstrap, 1, "t")
	if err != nil {
		t.Fatal(err)
	}
	if series.Blocks != 0 || blocked.Blocks != k {
		t.Fatalf("blocks %d and %d, want 0 and %d", series.Blocks, blocked.Blocks, k)
	}
	if blocked.WithinLo != series.ChangeLo || blocked.WithinHi != series.ChangeHi {
		t.Errorf("within [%v, %v], want the series interval [%v, %v]", blocked.WithinLo, blocked.WithinHi, series.ChangeLo, series.ChangeHi)
	}
	loc := Locate(pairLogRatios(ref, con), first, true)
	_, lo, hi, _ := clusterInterval(loc.Pseudo, block, 95)
	if want := 100 * math.Expm1(-lo); blocked.ChangeHi != want || blocked.ChangeLo != 100*math.Expm1(-hi) {
		t.Errorf("blocked change interval [%v, %v], want the clustered one [%v, %v], not its hull with the series one",
			blocked.ChangeLo, blocked.ChangeHi, 100*math.Expm1(-hi), want)
	}
	if w, s := blocked.ChangeHi-blocked.ChangeLo, series.ChangeHi-series.ChangeLo; w < 1.3*s {
		t.Errorf("clustered width %.2f not wider than the series width %.2f with 2%% block shifts", w, s)
	}
	if _, err := ComparePaired(PairedInput{Ref: ref, Con: con, Block: block[:3]}, testBootstrap, 1, "t"); err == nil {
		t.Error("blocks of the wrong length accepted")
	}
}

func pairLogRatios(ref, con []float64) []float64 {
	d := make([]float64, len(ref))
	for i := range d {
		d[i] = ln(ref[i] / con[i])
	}
	return d
}

// blockModel draws k blocks of per pairs each: every block's log-ratios
// share a shift of standard deviation shift (what makes one pair of
// processes of a binary differ from another), on top of within-block
// noise from within.
type blockModel struct {
	name   string
	shift  float64
	within func(r *rand.Rand, n int, refFirst []bool) []float64
}

func blockModels() []blockModel {
	indep := func(r *rand.Rand, n int, _ []bool) []float64 { return normals(r, n, simSigma) }
	return []blockModel{
		{"no block shift", 0, indep},
		{"block shift 1%", 0.01, indep},
		{"block shift 2%", 0.02, indep},
		{"shift 2%, contam 10%", 0.02, contaminated(0.10)},
		{"shift 2%, AR phi=0.5", 0.02, stationaryAR(0.5)},
	}
}

// blockResult is one row of the block simulation, for the series
// interval (the pairs as one series) and the clustered one.
type blockResult struct {
	reps                   int
	seriesCover, blkCover  int
	seriesWidth, blkWidths []float64
	seriesVerd, blkVerd    [4]int
}

func (m blockModel) run(k, per int, delta float64, reps int) blockResult {
	res := blockResult{reps: reps, seriesWidth: make([]float64, reps), blkWidths: make([]float64, reps)}
	b := Bootstrap{Seed: 99, Resamples: 1000, Confidence: 95}
	var mu sync.Mutex
	forEachConcurrently(reps, func(i int) {
		seed := uint64(i)<<20 ^ uint64(k)<<8 ^ uint64(per) ^ streamKey(m.name)
		r := rand.New(rand.NewPCG(seed, math.Float64bits(delta)))
		n := k * per
		first := refFirst(schedule.Paired(n, seed))
		d := m.within(r, n, first)
		block := make([]int32, n)
		for j := range k {
			shift := m.shift * r.NormFloat64()
			for i := j * per; i < (j+1)*per; i++ {
				d[i] += delta + shift
				block[i] = int32(j)
			}
		}
		ref, con := pairsFromLogRatios(r, d)
		s, err := ComparePaired(PairedInput{Ref: ref, Con: con, RefFirst: first}, b, 1, fmt.Sprint("sim/", i))
		if err != nil {
			panic(err)
		}
		c, err := ComparePaired(PairedInput{Ref: ref, Con: con, RefFirst: first, Block: block}, b, 1, fmt.Sprint("sim/", i))
		if err != nil {
			panic(err)
		}
		mu.Lock()
		defer mu.Unlock()
		for _, x := range []struct {
			p     Paired
			cover *int
			width []float64
			verd  *[4]int
		}{{s, &res.seriesCover, res.seriesWidth, &res.seriesVerd}, {c, &res.blkCover, res.blkWidths, &res.blkVerd}} {
			if lo, hi := ln(x.p.SpeedupLo), ln(x.p.SpeedupHi); lo <= delta && delta <= hi {
				(*x.cover)++
			}
			x.width[i] = x.p.ChangeHi - x.p.ChangeLo
			x.verd[x.p.Verdict]++
		}
	})
	return res
}

// TestClusterCoverage is the claim the clustered interval exists for:
// with a 2% shift per block of processes, 10 blocks of 40 pairs, no true
// difference, the pairs taken as one series cover the truth far less
// often than 95% and call a difference, while the clustered interval
// holds its level. Part of make test (-run Coverage).
func TestClusterCoverage(t *testing.T) {
	if testing.Short() {
		t.Skip("simulation")
	}
	m := blockModels()[2]
	res := m.run(10, 40, 0, 400)
	series, blocked := float64(res.seriesCover)/400, float64(res.blkCover)/400
	t.Logf("%s, 10 blocks of 40 pairs: series coverage %.3f (%d false verdicts), clustered %.3f (%d false verdicts)",
		m.name, series, res.seriesVerd[ContenderFaster]+res.seriesVerd[ReferenceFaster], blocked, res.blkVerd[ContenderFaster]+res.blkVerd[ReferenceFaster])
	if blocked < 0.92 || blocked > 0.985 {
		t.Errorf("clustered coverage %.3f, want about 0.95", blocked)
	}
	if series > 0.85 {
		t.Errorf("series coverage %.3f: the model no longer shows what clustering is for", series)
	}
}

// TestClusterTable prints the block simulation (with -table): coverage,
// median width and verdicts of the series and the clustered intervals for
// every block model, block count and true difference.
func TestClusterTable(t *testing.T) {
	if !*tableFlag {
		t.Skip("prints the block table with -table (make coverage)")
	}
	fmt.Printf("%-22s %4s %4s %5s | %-28s | %-28s\n", "model", "K", "per", "true", "series: cover width false/found", "blocks: cover width false/found")
	for _, m := range blockModels() {
		for _, delta := range []float64{0, -math.Log(1.03)} {
			for _, k := range []int{5, 10, 20, 40} {
				res := m.run(k, 40, delta, *tableReps)
				cell := func(cover int, widths []float64, v [4]int) string {
					wrong, found := v[ContenderFaster]+v[ReferenceFaster], v[ReferenceFaster]
					if delta != 0 {
						wrong = v[ContenderFaster]
					}
					return fmt.Sprintf("%5.3f %6.2f %5d/%-5d", float64(cover)/float64(res.reps), Median(widths), wrong, found)
				}
				fmt.Printf("%-22s %4d %4d %+4.1f%% | %-28s | %-28s\n", m.name, k, 40, 100*math.Expm1(-delta)+0,
					cell(res.seriesCover, res.seriesWidth, res.seriesVerd), cell(res.blkCover, res.blkWidths, res.blkVerd))
			}
		}
	}
}
