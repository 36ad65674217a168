package main

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os/exec"
	"strings"
	"time"

	"github.com/flybench/flybench/pkg/ndjson"
)

// Drift experiment settings: a square-wave load on both CPUs, busy half of
// each period, against runs whose sequential blocks last about a period.
const (
	loadPeriod   = 2 * time.Second
	loadThreads  = 2
	spinSteps    = 3_000_000
	driftSamples = 100
	driftTime    = "3s"
)

type cell struct {
	name       string
	stepsB     int
	sequential bool
}

// drift runs A/A and A/B comparisons under a periodic load, paired and
// sequential, and prints each trial's verdict and change.
func (b *bench) drift(trials int) {
	stepsB := b.threePercent()
	section(fmt.Sprintf("drift experiment: spin -n %d vs itself (A/A) and vs spin -n %d (A/B, ~3%% slower), "+
		"under a %v square-wave load (50%% busy, %d threads), %d samples, %d trials", spinSteps, stepsB, loadPeriod, loadThreads, driftSamples, trials))
	cells := []cell{
		{"A/A paired", spinSteps, false}, {"A/A sequential", spinSteps, true},
		{"A/B paired", stepsB, false}, {"A/B sequential", stepsB, true},
	}
	fmt.Printf("  %-6s", "trial")
	for _, c := range cells {
		fmt.Printf("  %-32s", c.name)
	}
	fmt.Println()
	rng := rand.New(rand.NewPCG(uint64(time.Now().UnixNano()), 7))
	for t := 1; t <= trials; t++ {
		fmt.Printf("  %-6d", t)
		for _, c := range cells {
			fmt.Printf("  %-32s", b.driftTrial(c, rng))
		}
		fmt.Println()
	}
	b.hyperfineDrift(trials, rng)
	fmt.Println("  (change = contender time vs reference; the A/B contender does ~3% more work, so the truth is \"reference faster\" +3%)")
	fmt.Println("  (A/A truth: no difference; a paired verdict of \"faster\" there would be a false finding)")
}

// threePercent measures spin's start-up and per-step cost on the quiet
// machine and returns the step count that takes ~3% longer than spinSteps.
func (b *bench) threePercent() int {
	base := b.sampleMedian(fmt.Sprintf("%s -n %d", b.tool("spin"), spinSteps))
	empty := b.sampleMedian(b.tool("spin") + " -n 0")
	perStep := (base - empty) / spinSteps
	if perStep <= 0 {
		return spinSteps * 106 / 100
	}
	return spinSteps + int(0.03*base/perStep)
}

func (b *bench) sampleMedian(command string) float64 {
	out, err := exec.Command(b.tool("fb-sample"), "--progress", "none", "--samples", "20", "-t", "400ms", "--", command).Output()
	check(err)
	var ops []float64
	eachRecord(out, func(typ string, raw []byte) {
		if typ == ndjson.TypeSample {
			var s ndjson.Sample
			check(json.Unmarshal(raw, &s))
			ops = append(ops, s.OpNS)
		}
	})
	return median(ops)
}

// driftTrial runs one comparison under a load started at a random phase.
func (b *bench) driftTrial(c cell, rng *rand.Rand) string {
	load := exec.Command(b.tool("load"), "-period", loadPeriod.String(), "-duty", "0.5", "-threads", fmt.Sprint(loadThreads))
	check(load.Start())
	defer func() { load.Process.Kill(); load.Wait() }()
	time.Sleep(time.Duration(rng.Int64N(int64(loadPeriod))))
	args := []string{"--progress", "none", "--samples", fmt.Sprint(driftSamples), "-t", driftTime}
	if c.sequential {
		args = append(args, "--sequential")
	}
	a := fmt.Sprintf("%s -n %d", b.tool("spin"), spinSteps)
	args = append(args, "--", a, fmt.Sprintf("%s -n %d", b.tool("spin"), c.stepsB))
	pair := exec.Command(b.tool("fb-pair"), args...)
	analyze := exec.Command(b.tool("fb-analyze"))
	pipe, err := pair.StdoutPipe()
	check(err)
	analyze.Stdin = pipe
	check(pair.Start())
	out, err := analyze.Output()
	check(err)
	check(pair.Wait())
	result := "?"
	eachRecord(out, func(typ string, raw []byte) {
		if typ == ndjson.TypeComparison {
			var cmp ndjson.Comparison
			check(json.Unmarshal(raw, &cmp))
			result = fmt.Sprintf("%s %+.1f%%", strings.ToUpper(cmp.Verdict[:1])+cmp.Verdict[1:], cmp.ChangePct)
		}
	})
	return result
}

// hyperfineDrift runs the A/A comparison the subtracting way — hyperfine
// times all runs of A, then all runs of B — under the same load, when
// hyperfine is installed, and prints how far apart it puts two identical
// commands.
func (b *bench) hyperfineDrift(trials int, rng *rand.Rand) {
	path, err := exec.LookPath("hyperfine")
	if err != nil {
		fmt.Println("  hyperfine A/A (subtraction): not installed")
		return
	}
	var ratios []string
	for t := 0; t < trials; t++ {
		load := exec.Command(b.tool("load"), "-period", loadPeriod.String(), "-duty", "0.5", "-threads", fmt.Sprint(loadThreads))
		check(load.Start())
		time.Sleep(time.Duration(rng.Int64N(int64(loadPeriod))))
		a := fmt.Sprintf("%s -n %d", b.tool("spin"), spinSteps)
		ratios = append(ratios, fmt.Sprintf("%.2fx", hyperfineRatio(path, a, a+" -n "+fmt.Sprint(spinSteps))))
		load.Process.Kill()
		load.Wait()
	}
	fmt.Printf("  hyperfine -N A/A under the same load (all of A, then all of B): slower/faster mean = %s\n", strings.Join(ratios, ", "))
}

// hyperfineRatio is hyperfine's ratio of the two commands' mean times,
// larger over smaller.
func hyperfineRatio(path, a, b string) float64 {
	res := hyperfine(path, "--warmup", "3", "--runs", fmt.Sprint(driftSamples), a, b)
	x, y := res[0].Mean, res[1].Mean
	return max(x, y) / min(x, y)
}
