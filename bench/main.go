// Command bench is `make bench`: it measures the harness itself and prints
// the numbers side by side from one run. It asserts nothing; these machines
// are shared and noisy, so the figures are ratios measured in one sitting.
//
//  1. exec overhead: fb-sample's time per run of a trivial command against
//     a bare fork/exec/wait4 loop (and hyperfine -N when installed),
//     interleaved round by round; the clock's floor; the harness's own
//     untimed overhead per sample.
//  2. the cost of each probe family, timed and untimed, per run.
//  3. worker mode's floor: an empty case and a ~1 ns operation.
//  4. fb-analyze throughput on a synthetic 100,000-sample stream.
//  5. the drift experiment: A/A and a ~3% A/B under a periodic background
//     CPU load, paired vs --sequential, several trials each.
package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
)

func main() {
	bin := flag.String("bin", "bin", "directory of the built tools and examples")
	rounds := flag.Int("rounds", 9, "interleaved rounds of the overhead comparison")
	trials := flag.Int("trials", 3, "trials per drift-experiment cell")
	only := flag.String("only", "", "run one part: overhead, probes, worker, analyze or drift")
	bare := flag.Int("bareloop", 0, "internal: run the bare loop this many times in this fresh process and print ns/run")
	flag.Parse()
	if *bare > 0 {
		fmt.Println(bareRun(*bare))
		return
	}
	b := &bench{bin: *bin}
	dir, err := os.MkdirTemp("", "flybench-bench-")
	check(err)
	defer os.RemoveAll(dir)
	b.tmp = dir
	if *only == "" || *only == "overhead" {
		b.overhead(*rounds)
	}
	if *only == "" || *only == "probes" {
		b.probeOverhead(*rounds)
	}
	if *only == "" || *only == "worker" {
		b.workerFloor()
	}
	if *only == "" || *only == "analyze" {
		b.analyzeThroughput()
	}
	if *only == "" || *only == "drift" {
		b.drift(*trials)
	}
}

type bench struct {
	bin string
	tmp string
}

func (b *bench) tool(name string) string {
	p, err := filepath.Abs(filepath.Join(b.bin, name))
	check(err)
	return p
}

func check(err error) {
	if err != nil {
		fmt.Fprintln(os.Stderr, "bench:", err)
		os.Exit(1)
	}
}

func section(title string) {
	fmt.Printf("\n== %s\n", title)
}
