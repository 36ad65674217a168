package probes

import "testing"

func BenchmarkMonotonicRaw(b *testing.B) {
	var c MonotonicRaw
	for b.Loop() {
		sink += c.Now()
	}
}
