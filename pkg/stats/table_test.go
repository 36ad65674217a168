package stats

import (
	"flag"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/flybench/flybench/internal/schedule"
)

var (
	tableFlag   = flag.Bool("table", false, "print the coverage table of every noise model (make coverage)")
	tableReps   = flag.Int("table.reps", 1000, "datasets per row of the coverage table")
	tableMethod = flag.String("table.method", "robust", "estimators in the coverage table (robust, mean, legacy)")
	tableN      = flag.String("table.n", "20,50,200,500", "pair counts in the coverage table")
	tableModels = flag.String("table.models", "", "noise models in the coverage table (substrings; empty = all)")
)

// simMethod is an interval method under test: the interval of the mean
// log-ratio ln(ref/con) and the verdict it gives.
type simMethod struct {
	name     string
	interval func(in PairedInput, b Bootstrap, stream string) (lo, hi float64, v Verdict)
}

var simMethods = map[string]simMethod{
	"robust": estimatorMethod(EstimatorRobust),
	"mean":   estimatorMethod(EstimatorMean),
	"legacy": estimatorMethod(EstimatorLegacy),
}

// estimatorMethod is ComparePaired's decision interval under e.
func estimatorMethod(e Estimator) simMethod {
	return simMethod{string(e), func(in PairedInput, b Bootstrap, stream string) (float64, float64, Verdict) {
		b.Estimator = e
		p, err := ComparePaired(in, b, 1, stream)
		if err != nil {
			panic(err)
		}
		return ln(p.SpeedupLo), ln(p.SpeedupHi), p.Verdict
	}}
}

// tableRow is one cell of the simulation: a model, a pair count, a true
// difference, a method.
type tableRow struct {
	model  noiseModel
	n      int
	delta  float64
	method simMethod
}

// rowResult is what a row measured: the coverage and widths of the
// intervals every dataset's comparison reported.
type rowResult struct {
	reps     int
	covered  int
	widths   []float64 // interval widths, percentage points of log-ratio
	tRatios  []float64 // reported width over the paired t-interval's on the same log-ratios
	verdicts [4]int    // by Verdict
	truth    float64
}

func (r rowResult) coverage() float64 { return float64(r.covered) / float64(r.reps) }

// coverageSE is the binomial standard error of the coverage.
func (r rowResult) coverageSE() float64 {
	c := r.coverage()
	return math.Sqrt(c * (1 - c) / float64(r.reps))
}

func (r rowResult) medianWidth() float64 { return Median(r.widths) }

// medianTRatio is the median over the intervals of their width
// over the paired t-interval's width on the same data.
func (r rowResult) medianTRatio() float64 { return Median(r.tRatios) }

// pairedTWidth is the width of the paired t-interval of the mean
// log-ratio ln(ref/con) at confidence conf percent: 2·t(n-1)·s/sqrt(n).
func pairedTWidth(ref, con []float64, conf float64) float64 {
	d := make([]float64, len(ref))
	for i := range d {
		d[i] = ln(ref[i] / con[i])
	}
	n := float64(len(d))
	m := Mean(d)
	var ss float64
	for _, v := range d {
		ss += (v - m) * (v - m)
	}
	return 2 * studentQuantile(1-(1-conf/100)/2, n-1) * math.Sqrt(ss/(n-1)/n)
}

// run analyses reps datasets of the row, in parallel, each from its own
// seeded stream, so the result does not depend on scheduling.
func (row tableRow) run(reps int) rowResult {
	truth := row.delta
	if row.model.truth != nil {
		truth = row.model.truth(row.delta)
	}
	res := rowResult{reps: reps, truth: truth}
	b := Bootstrap{Seed: 99, Resamples: 1000, Confidence: 95}
	var mu sync.Mutex
	forEachConcurrently(reps, func(i int) {
		seed := uint64(i)<<20 ^ uint64(row.n)<<8 ^ streamKey(row.model.name)
		r := rand.New(rand.NewPCG(seed, math.Float64bits(row.delta)))
		first := refFirst(schedule.Paired(row.n, seed))
		ref, con := row.model.draw(r, row.n, row.delta, first)
		lo, hi, v := row.method.interval(PairedInput{Ref: ref, Con: con, RefFirst: first}, b, fmt.Sprint("sim/", i))
		tw := pairedTWidth(ref, con, b.Confidence)
		mu.Lock()
		defer mu.Unlock()
		res.verdicts[v]++
		if lo <= truth && truth <= hi {
			res.covered++
		}
		res.widths = append(res.widths, 100*(hi-lo))
		res.tRatios = append(res.tRatios, (hi-lo)/tw)
	})
	slices.Sort(res.widths) // arrival order must not reach anything
	slices.Sort(res.tRatios)
	return res
}

func refFirst(p schedule.Plan) []bool {
	f := make([]bool, len(p.Units))
	for i, u := range p.Units {
		f[i] = u[0] == 0
	}
	return f
}

// TestCoverageTable prints the simulation table: for every noise model,
// pair count and true difference (none, and the contender 3% slower), the
// coverage of nominal 95% intervals, their median width and the verdicts.
// It runs with -table (make coverage).
func TestCoverageTable(t *testing.T) {
	if !*tableFlag {
		t.Skip("prints the coverage table with -table (make coverage)")
	}
	var ns []int
	for _, f := range strings.Split(*tableN, ",") {
		var n int
		fmt.Sscan(f, &n)
		ns = append(ns, n)
	}
	deltas := []float64{0, -math.Log(1.03)}
	fmt.Printf("%-18s %-7s %5s %5s %7s %6s %7s %6s  %s\n", "model", "method", "n", "true", "cover", "±se", "width", "/t", "verdicts: con-faster ref-faster equiv inconcl")
	for _, m := range noiseModels() {
		if *tableModels != "" && !slices.ContainsFunc(strings.Split(*tableModels, ","), func(s string) bool { return strings.Contains(m.name, s) }) {
			continue
		}
		for _, delta := range deltas {
			for _, n := range ns {
				for _, name := range strings.Split(*tableMethod, ",") {
					row := tableRow{model: m, n: n, delta: delta, method: simMethods[name]}
					res := row.run(*tableReps)
					v := res.verdicts
					fmt.Printf("%-18s %-7s %5d %+4.1f%% %7.3f %6.3f %6.2f%% %6.3f  %5d %5d %5d %5d\n",
						m.name, name, n, 100*math.Expm1(-res.truth)+0, res.coverage(), res.coverageSE(), res.medianWidth(),
						res.medianTRatio(), v[ContenderFaster], v[ReferenceFaster], v[Equivalent], v[Inconclusive])
				}
			}
		}
	}
}

var seqFlag = flag.Bool("table.seq", false, "print the sequential-stopping table (make coverage)")

// seqRow simulates --until decision on one model: a run whose time budget
// fits n pairs, looks at doubling time fractions from 1/32 (and 20 pairs),
// the spending of LookConfidence, stopping at the first look whose
// interval clears or fits inside the 1% threshold.
type seqResult struct {
	reps, covered, stoppedEarly int
	verdicts                    [4]int
	meanStop                    float64
	widths                      []float64
}

func (row tableRow) runSequential(reps int) seqResult {
	truth := row.delta
	if row.model.truth != nil {
		truth = row.model.truth(row.delta)
	}
	res := seqResult{reps: reps, widths: make([]float64, reps)}
	b := Bootstrap{Seed: 99, Resamples: 1000, Confidence: 95}
	var mu sync.Mutex
	forEachConcurrently(reps, func(i int) {
		seed := uint64(i)<<20 ^ uint64(row.n)<<8 ^ streamKey(row.model.name) ^ 0x5e9
		r := rand.New(rand.NewPCG(seed, math.Float64bits(row.delta)))
		first := refFirst(schedule.PairedBlocks(row.n, 10, seed))
		ref, con := row.model.draw(r, row.n, row.delta, first)
		lo, hi, v, stop := sequentialLooks(ref, con, first, b, fmt.Sprint("seq/", i))
		mu.Lock()
		defer mu.Unlock()
		if lo <= truth && truth <= hi {
			res.covered++
		}
		res.verdicts[v]++
		res.meanStop += float64(stop) / float64(reps)
		if stop < row.n {
			res.stoppedEarly++
		}
		res.widths[i] = 100 * (hi - lo)
	})
	return res
}

// sequentialLooks runs the looks over growing prefixes of the pairs and
// returns the reported interval (log-ratio), verdict and pairs used.
func sequentialLooks(ref, con []float64, first []bool, b Bootstrap, stream string) (lo, hi float64, v Verdict, used int) {
	n := len(ref)
	tPrev, t := 0.0, 1.0/32
	for {
		units := max(int(math.Ceil(t*float64(n))), 20)
		final := units >= n || t > 0.75
		if final {
			units, t = n, 1
		}
		level, ok := LookConfidence(b.Confidence, tPrev, float64(units)/float64(n), final)
		if ok {
			lb := b
			lb.Confidence = level
			p, err := ComparePaired(PairedInput{Ref: ref[:units], Con: con[:units], RefFirst: first[:units]}, lb, 1, stream)
			if err != nil {
				panic(err)
			}
			if p.Verdict != Inconclusive || final {
				return ln(p.SpeedupLo), ln(p.SpeedupHi), p.Verdict, units
			}
			tPrev = float64(units) / float64(n)
		}
		for t <= float64(units)/float64(n) {
			t *= 2
		}
	}
}

// TestSequentialTable prints what sampling until a decision does on every
// model: a budget of n pairs, the contender's true change 0, +0.5%
// (inside the 1% threshold: a directional verdict is false), +1.5%
// (outside: equivalence is false) and +3%.
func TestSequentialTable(t *testing.T) {
	if !*seqFlag {
		t.Skip("prints the sequential table with -table.seq (make coverage)")
	}
	fmt.Printf("%-18s %5s %6s %7s %6s %7s %7s  %s\n", "model", "n", "true", "cover", "±se", "width", "stop", "verdicts: con-faster ref-faster equiv inconcl")
	for _, m := range noiseModels() {
		if *tableModels != "" && !slices.ContainsFunc(strings.Split(*tableModels, ","), func(s string) bool { return strings.Contains(m.name, s) }) {
			continue
		}
		for _, change := range []float64{0, 0.005, 0.015, 0.03} {
			for _, f := range strings.Split(*tableN, ",") {
				var n int
				fmt.Sscan(f, &n)
				if n < 100 {
					continue
				}
				row := tableRow{model: m, n: n, delta: -math.Log1p(change)}
				res := row.runSequential(*tableReps)
				c := float64(res.covered) / float64(res.reps)
				v := res.verdicts
				fmt.Printf("%-18s %5d %+5.1f%% %7.3f %6.3f %6.2f%% %7.1f  %5d %5d %5d %5d\n", m.name, n, 100*change, c,
					math.Sqrt(c*(1-c)/float64(res.reps)), Median(res.widths), res.meanStop,
					v[ContenderFaster], v[ReferenceFaster], v[Equivalent], v[Inconclusive])
			}
		}
	}
}
