// Command chainworker is a flybench worker (man fb-worker(7)) whose cases
// differ by a precisely known amount of work at the nanosecond scale: each
// operation runs a dependent chain of k multiply-add steps (a linear
// congruential step, each waiting on the last, so the chain's time is k
// times one step's latency and nothing overlaps or folds at compile time).
//
//	chain-100  100 steps (on the order of 100 to 200 ns)
//	chain-101  101 steps: 1% more work
//	chain-300  300 steps (on the order of 300 to 600 ns)
//	chain-303  303 steps: 1% more work
//
// The bench's precision section compares chain-100 with chain-101 and
// chain-300 with chain-303 (issue 22's in-process precision), and each
// with itself. Every case returns its chain's final value, which the
// worker keeps alive after the ending timestamp.
//
//	printf 'run chain-300 1000000\nquit\n' | chainworker
package main

import (
	"os"

	"github.com/flybench/flybench/worker"
)

// seed starts every chain; a variable, so the compiler cannot compute the
// chain ahead.
var seed uint64 = 0x9e3779b97f4a7c15

// chain returns an operation of k dependent steps per iteration.
func chain(k int) func(n int) any {
	return func(n int) any {
		x := seed
		for range n {
			for range k {
				x = x*6364136223846793005 + 1442695040888963407
			}
		}
		return x
	}
}

func main() {
	w := worker.New()
	for _, c := range []struct {
		name string
		k    int
	}{{"chain-100", 100}, {"chain-101", 101}, {"chain-300", 300}, {"chain-303", 303}} {
		w.CaseResult(c.name, chain(c.k))
	}
	os.Exit(w.Main())
}
