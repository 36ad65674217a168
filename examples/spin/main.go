// Command spin runs a chosen number of mixing steps; the benchmarks use it
// for commands with a precisely chosen difference (spin -n 1000000 vs
// spin -n 1030000 is 3% more work).
package main

import (
	"flag"
	"fmt"
	"os"

	"github.com/flybench/flybench/examples/mix"
)

func main() {
	n := flag.Int("n", 1_000_000, "mixing steps")
	flag.Parse()
	if *n < 0 {
		fmt.Fprintln(os.Stderr, "spin: -n must not be negative")
		os.Exit(2)
	}
	fmt.Println(mix.Run(*n))
}
