package worker_test

import (
	"math/bits"
	"os"
	"strings"

	"github.com/flybench/flybench/worker"
)

// words come from memory, so the compiler cannot fold the operations.
var words = []uint64{0x0123456789abcdef, 0xfedcba9876543210, 0xdeadbeefcafef00d, 0x8000000000000001}

// total is where the third pattern stores its result.
var total int

// Example registers one operation three ways, each keeping every
// iteration's result alive without timing a barrier per operation.
func Example() {
	w := worker.New()

	// 1. Return the accumulated result: the worker passes it to KeepAlive
	// after the ending timestamp.
	w.CaseResult("popcount", func(n int) any {
		sum := 0
		for i := range n {
			sum += bits.OnesCount64(words[i&3])
		}
		return sum
	})

	// 2. Accumulate, then call KeepAlive once, after the loop.
	w.Case("popcount-keepalive", func(n int) {
		sum := 0
		for i := range n {
			sum += bits.OnesCount64(words[i&3])
		}
		worker.KeepAlive(sum)
	})

	// 3. Store to a package-level variable once, after the loop.
	w.Case("popcount-store", func(n int) {
		sum := 0
		for i := range n {
			sum += bits.OnesCount64(words[i&3])
		}
		total = sum
	})

	// Not this: KeepAlive inside the loop times an out-of-line call per
	// operation, several times the cost of the popcount itself.
	//
	//	for i := range n { worker.KeepAlive(bits.OnesCount64(words[i&3])) }

	// A real worker ends with os.Exit(w.Main()); this example answers
	// one request from a string instead.
	in := strings.NewReader("run popcount 1000\nquit\n")
	if err := w.Serve(in, os.Stderr); err != nil {
		panic(err)
	}
}

// ExampleWorker_CaseHooks prepares an input outside the timed interval.
func ExampleWorker_CaseHooks() {
	w := worker.New()
	var data []int
	w.CaseHooks("sum-slice",
		func() { data = make([]int, 1<<16) }, // untimed setup
		func(n int) {
			s := 0
			for i := range n {
				s += data[i&(len(data)-1)]
			}
			worker.KeepAlive(s)
		},
		func() { data = nil }) // untimed teardown, also after a panic
	w.RuntimeAxes()
	_ = w // os.Exit(w.Main())
}
