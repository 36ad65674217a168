package main

import (
	"encoding/json"
	"fmt"
	"os/exec"

	"github.com/flybench/flybench/pkg/ndjson"
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
	const samples = 30
	out, err := exec.Command(b.tool("fb-sample"), "--progress", "none", "--warmup", "20ms", "--samples", fmt.Sprint(samples),
		"--measurement-time", fmt.Sprintf("%dms", runsPerRound), "--metrics", family, "--", trivial).Output()
	check(err)
	var ops []float64
	var timed int64
	var end ndjson.End
	collected, unavailable := 0, 0
	eachRecord(out, func(typ string, raw []byte) {
		switch typ {
		case ndjson.TypeSample:
			var s ndjson.Sample
			check(json.Unmarshal(raw, &s))
			ops = append(ops, s.OpNS)
			timed += s.WallNS
		case ndjson.TypeRun:
			var run ndjson.Run
			check(json.Unmarshal(raw, &run))
			for _, a := range run.Axes {
				if a.Status == "collected" {
					collected++
				} else {
					unavailable++
				}
			}
		case ndjson.TypeEnd:
			check(json.Unmarshal(raw, &end))
		}
	})
	note := fmt.Sprintf("%d collected, %d unavailable", collected, unavailable)
	return median(ops), float64(end.SamplingNS-timed) / float64(len(ops)), note
}
