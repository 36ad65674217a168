package main

import (
	"fmt"
)

// probeFamilies are the --metrics selections whose cost is compared.
var probeFamilies = []string{"time", "resources", "software", "perf", "all"}

// probeOverhead runs fb-sample on the trivial command once per axis family
// per round, interleaved, and prints the median time per run (the timed
// cost: inherited perf contexts make every fork dearer) and the untimed
// per-sample cost of taking the probes, both against wall time alone.
func (b *bench) probeOverhead(rounds int) {
	section(fmt.Sprintf("probe overhead per family: fb-sample on %s, %d interleaved rounds", trivial, rounds))
	timed := map[string][]float64{}
	untimed := map[string][]float64{}
	statuses := map[string]string{}
	for r := 0; r < rounds; r++ {
		for _, fam := range probeFamilies {
			op, over, note := b.familyRun(fam)
			timed[fam] = append(timed[fam], op)
			untimed[fam] = append(untimed[fam], over)
			statuses[fam] = note
		}
	}
	base, baseOver := median(timed["time"]), median(untimed["time"])
	fmt.Printf("  %-10s %14s %10s %20s   %s\n", "--metrics", "timed µs/run", "vs time", "untimed µs/sample", "axes")
	for _, fam := range probeFamilies {
		op, over := median(timed[fam]), median(untimed[fam])
		fmt.Printf("  %-10s %14.1f %+9.2f%% %11.1f (%+7.1f)   %s\n", fam, op/1e3, 100*(op/base-1), over/1e3, (over-baseOver)/1e3, statuses[fam])
	}
}

// familyRun measures one family: median per-run time, untimed overhead per
// sample, and how many axes were collected or unavailable.
func (b *bench) familyRun(family string) (float64, float64, string) {
	r := b.sampleTrivial(runsPerRound, "--metrics", family)
	collected, unavailable := 0, 0
	for _, a := range r.run.Axes {
		if a.Status == "collected" {
			collected++
		} else {
			unavailable++
		}
	}
	note := fmt.Sprintf("%d collected, %d unavailable", collected, unavailable)
	return r.medianOp(), r.untimedPerSample(), note
}
