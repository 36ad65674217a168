package main

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// precisionThreshold is the practical threshold of issue 22's in-process
// precision goal: an interval clear of it decides the 1% difference.
const precisionThreshold = 0.5

// precisionConfig is the in-process precision section's settings (issue
// 22 item 5): chainworker's cases, 1% apart, compared in short runs,
// quiet and under the mixed section's seeded random interferer.
type precisionConfig struct {
	bin        string
	runs       int           // runs per pair, kind and condition
	quiet      time.Duration // fb-pair -t of a quiet run
	loaded     time.Duration // fb-pair -t of a run under the interferer
	truth      time.Duration // fb-pair -t of each pair's quiet truth
	conditions []string      // quiet, mixed
	flags      []string      // more fb-pair flags of every run but the truth
}

// precisionPairs are the compared cases: B is 1% more dependent steps.
var precisionPairs = [][2]string{{"chain-100", "chain-101"}, {"chain-300", "chain-303"}}

func (c precisionConfig) validate() error {
	if c.runs < 1 {
		return fmt.Errorf("-precision-runs %d: want at least 1", c.runs)
	}
	return oneOf("-precision-conditions", c.conditions, []string{"quiet", "mixed"})
}

// precision runs the section: per pair a long quiet run for the truth,
// then A/A and A/B runs per condition, and a summary table: decided (the
// interval clear of the threshold on the right side), wrong verdicts,
// coverage of the truth, median estimate and width, median wall time.
func (b *bench) precision(c precisionConfig) {
	section("in-process precision (issue 22 item 5): worker operations of 50-500 ns that differ by 1%, decided when the interval clears ±0.5%")
	fmt.Printf("  command: go run ./bench -bin %s -only precision -precision-runs %d -precision-conditions %s -precision-quiet %v -precision-loaded %v -precision-flags %q\n",
		c.bin, c.runs, strings.Join(c.conditions, ","), c.quiet, c.loaded, strings.Join(c.flags, " "))
	worker := b.tool("chainworker")
	mx := &mixedRun{b: b, rng: rand.New(rand.NewPCG(uint64(time.Now().UnixNano()), 22)),
		interfereDir: filepath.Join(b.tmp, "interfere-precision")}
	mx.budget = c.loaded
	check(os.MkdirAll(mx.interfereDir, 0o755))
	fmt.Printf("  runs: fb-pair --worker --case A --case B -t T %s -- chainworker (both operations in one worker) | fb-analyze; quiet T=%v, mixed T=%v under interfere -seed <random>\n",
		strings.Join(c.flags, " "), c.quiet, c.loaded)
	fmt.Println("  decided: A/B interval above +0.5% (A/A: any interval clear of ±0.5% is a false verdict); cover: the interval holds the truth (A/A: 0)")
	type row struct {
		pair, kind, cond string
		outs             []outcome
		truth            float64
	}
	var rows []row
	for _, p := range precisionPairs {
		truth := b.workerOutcome([]string{"--worker", "--case", p[0], "--case", p[1], "-t", c.truth.String()}, worker)
		check(truth.err)
		fmt.Printf("\n  -- %s vs %s: truth (quiet, -t %v) %+.3f%% [%+.3f, %+.3f]\n", p[0], p[1], c.truth, truth.change, truth.ci[0], truth.ci[1])
		for _, cond := range c.conditions {
			for _, kind := range []string{"A/A", "A/B"} {
				r := row{pair: p[0] + "/" + p[1], kind: kind, cond: cond}
				if kind == "A/B" {
					r.truth = truth.change
				}
				contender := p[1]
				if kind == "A/A" {
					contender = p[0]
				}
				t := c.quiet
				if cond == "mixed" {
					t = c.loaded
				}
				fmt.Printf("  %-5s %-3s", cond, kind)
				for range c.runs {
					mx.quiet = cond == "quiet"
					stop, err := mx.startInterferer(mx.rng.Uint32())
					check(err)
					flags := append([]string{"--worker", "--case", p[0], "--case", contender, "-t", t.String()}, c.flags...)
					o := b.workerOutcome(flags, worker)
					stop()
					r.outs = append(r.outs, o)
					if o.err != nil {
						fmt.Printf("  error: %v", o.err)
						continue
					}
					fmt.Printf(" %+.2f[%+.2f,%+.2f]", o.change, o.ci[0], o.ci[1])
				}
				fmt.Println()
				rows = append(rows, r)
			}
		}
	}
	fmt.Println("\n  -- summary (goal: A/B decided in >= 9/10 runs of <= 1 s quiet, <= 5 s under the mixed interferer; A/A never)")
	fmt.Printf("  %-20s %-5s %-4s %5s %8s %6s %6s %9s %7s %7s\n", "pair", "cond", "kind", "runs", "decided", "false", "cover", "estimate", "width", "wall")
	for _, r := range rows {
		var done, decided, wrong, cover int
		var est, width, wall []float64
		for _, o := range r.outs {
			if o.err != nil {
				continue
			}
			done++
			lo, hi := o.ci[0], o.ci[1]
			switch {
			case r.kind == "A/B" && lo > precisionThreshold:
				decided++
			case lo > precisionThreshold || hi < -precisionThreshold:
				wrong++
			}
			if lo <= r.truth && r.truth <= hi {
				cover++
			}
			est, width, wall = append(est, o.change), append(width, hi-lo), append(wall, o.elapsed.Seconds())
		}
		fmt.Printf("  %-20s %-5s %-4s %5d %8s %6s %6s %+8.2f%% %7.2f %6.2fs\n", r.pair, r.cond, r.kind, done,
			fmt.Sprintf("%d/%d", decided, done), fmt.Sprintf("%d/%d", wrong, done), fmt.Sprintf("%d/%d", cover, done),
			median(est), median(width), median(wall))
	}
}

// workerOutcome runs fb-pair with flags on one worker command, whose cases
// the flags name, piped to fb-analyze: the two operations of one worker,
// as a user compares two implementations.
func (b *bench) workerOutcome(flags []string, worker string) outcome {
	out, elapsed, err := b.toolsAnalyze(append(flags, "--", worker))
	return comparisonOutcome(out, elapsed, err)
}
