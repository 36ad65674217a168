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
// thread CPU, and with every axis.
func BenchmarkBoundary(b *testing.B) {
	for _, axes := range []struct {
		name string
		sel  Axis
	}{{"wall", 0}, {"thread_cpu", ThreadCPU}, {"all", AllAxes}} {
		for _, g := range []int{1, 8, 64} {
			b.Run(fmt.Sprintf("axes=%s/goroutines=%d", axes.name, g), func(b *testing.B) {
				boundary(b, axes.sel, g)
			})
		}
	}
}

func boundary(b *testing.B, sel Axis, goroutines int) {
	r := New(Options{Out: io.Discard, Axes: sel, Capacity: 1000, Seed: 1})
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
}
