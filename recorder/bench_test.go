package recorder

import (
	"fmt"
	"io"
	"sync"
	"testing"
)

// BenchmarkBoundary times Begin+Finish of an empty span (ns/op is per
// span, all goroutines together: its inverse is the throughput) with 1, 8
// and 64 goroutines on one benchmark's store, for wall time alone, with
// thread CPU, with every axis but the perf ones, and with the three perf
// axes; without and with Stream, whose
// deferred/op is the share of spans that found the ring full (the writer
// formats spans more slowly than an empty span finishes).
func BenchmarkBoundary(b *testing.B) {
	for _, axes := range []struct {
		name string
		sel  Axis
	}{{"wall", 0}, {"thread_cpu", ThreadCPU}, {"all", AllAxes}, {"perf", PerfAxes}} {
		for _, stream := range []bool{false, true} {
			for _, g := range []int{1, 8, 64} {
				b.Run(fmt.Sprintf("axes=%s/stream=%v/goroutines=%d", axes.name, stream, g), func(b *testing.B) {
					boundary(b, Options{Axes: axes.sel, Stream: stream}, g)
				})
			}
		}
	}
}

func boundary(b *testing.B, opts Options, goroutines int) {
	opts.Out, opts.Capacity, opts.Seed = io.Discard, 1000, 1
	r := New(opts)
	bm := r.Register("span")
	if err := r.Start(); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.ResetTimer()
	var wg sync.WaitGroup
	for g := range goroutines {
		n := b.N / goroutines
		if g < b.N%goroutines {
			n++
		}
		wg.Go(func() {
			for range n {
				r.Begin(bm).Finish(Success)
			}
		})
	}
	wg.Wait()
	b.StopTimer()
	if err := r.Stop(); err != nil {
		b.Fatal(err)
	}
	if opts.Stream {
		b.ReportMetric(float64(bm.Deferred())/float64(b.N), "deferred/op")
	}
}
