package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os/exec"

	"github.com/flybench/flybench/pkg/ndjson"
)

// workerFloor measures worker mode's floor: the empty case's per-operation
// time (the worker's own timer reads amortized) and the request round trip
// amortized over the batch, then a ~1 ns operation with its CV.
func (b *bench) workerFloor() {
	section("worker mode floor: nsworker over the worker protocol")
	for _, n := range []int{1, 1000, 1_000_000} {
		self, wall := b.emptyBatch(n)
		fmt.Printf("  empty case, %9d iterations/request: worker's timer %10.4f ns/op, harness wall %12.4f ns/op (round trip %.1f µs/request)\n",
			n, self, wall, (wall-self)*float64(n)/1e3)
	}
	for _, name := range []string{"nop", "popcount-bits"} {
		sum := b.summaryOf(b.workerRun(name, nil))
		fmt.Printf("  %-14s median %.3f ns/op  CV %.2f%%  95%% CI of mean %.3f .. %.3f ns  (%d samples)\n",
			name, sum.Median, sum.CVPct, sum.MeanCI[0], sum.MeanCI[1], sum.N)
	}
}

// emptyBatch runs the empty case with n iterations per request and returns
// the median per-operation time by the worker's timer and by wall time.
func (b *bench) emptyBatch(n int) (float64, float64) {
	out := b.workerRun("empty", []string{"--max-iterations", fmt.Sprint(n), "--min-sample-time", "1ns"})
	var self, wall []float64
	eachRecord(out, func(typ string, raw []byte) {
		if typ != ndjson.TypeSample {
			return
		}
		var s ndjson.Sample
		check(json.Unmarshal(raw, &s))
		if s.SelfNS != nil {
			self = append(self, *s.SelfNS/float64(s.Iter))
			wall = append(wall, float64(s.WallNS)/float64(s.Iter))
		}
	})
	return median(self), median(wall)
}

func (b *bench) workerRun(name string, extra []string) []byte {
	args := append([]string{"--progress", "none", "--worker", "--case", name, "--samples", "50", "-t", "1s"}, extra...)
	out, err := exec.Command(b.tool("fb-sample"), append(args, "--", b.tool("nsworker"))...).Output()
	check(err)
	return out
}

// summaryOf analyzes a stream and returns its first summary.
func (b *bench) summaryOf(stream []byte) ndjson.Summary {
	cmd := exec.Command(b.tool("fb-analyze"))
	cmd.Stdin = bytes.NewReader(stream)
	out, err := cmd.Output()
	check(err)
	var sum ndjson.Summary
	eachRecord(out, func(typ string, raw []byte) {
		if typ == ndjson.TypeSummary && sum.N == 0 {
			check(json.Unmarshal(raw, &sum))
		}
	})
	return sum
}
