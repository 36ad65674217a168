package workerexec

import (
	"testing"
	"time"
)

// BenchmarkRoundTrip is the cost of one request for the empty case with
// n = 1: write, the worker's read, timing and answer, and the read back.
// worker-ns/op is the part the worker itself timed.
func BenchmarkRoundTrip(b *testing.B) {
	benchEmpty(b, 1)
}

// BenchmarkRoundTripAmortized is the same at n = 1e6, and reports the
// round trip outside the worker's own timing per logical operation.
func BenchmarkRoundTripAmortized(b *testing.B) {
	benchEmpty(b, 1_000_000)
}

func benchEmpty(b *testing.B, n int64) {
	needWorker(b, nsWorker, "examples/nsworker")
	w := start(b, Options{Argv: []string{nsWorker}})
	var self float64
	began := time.Now()
	for b.Loop() {
		d, err := w.Run("empty", n)
		if err != nil {
			b.Fatal(err)
		}
		self += *d.ElapsedNS
	}
	wall := float64(time.Since(began).Nanoseconds())
	b.ReportMetric(self/float64(b.N), "worker-ns/req")
	b.ReportMetric((wall-self)/float64(b.N)/float64(n), "overhead-ns/op")
}
