package stats

import (
	"runtime"
	"sync"
	"sync/atomic"
)

// chunkSize is how many resamples share one random stream. The resamples
// are split into fixed chunks, each with its own stream, so they can be
// drawn concurrently and still come out the same on any number of cores.
const chunkSize = 256

// parallelDraws is the smallest job, in block draws, worth spreading over
// goroutines; smaller ones run on the caller's goroutine, with the same
// streams and so the same results.
const parallelDraws = 1 << 16

// replicates returns b.Resamples resample moments of the series behind
// bs, in chunk order: chunk c holds resamples c·chunkSize onwards, drawn
// from chunkStream(b.Seed, streamKey(label), c).
func (b Bootstrap) replicates(bs *blockSums, label string) []moment {
	out := make([]moment, b.Resamples)
	key := streamKey(label)
	chunks := (len(out) + chunkSize - 1) / chunkSize
	draw := func(c int) {
		g := chunkStream(b.Seed, key, c)
		part := out[c*chunkSize : min((c+1)*chunkSize, len(out))]
		for i := range part {
			part[i] = bs.resample(&g)
		}
	}
	if len(out)*bs.count < parallelDraws {
		for c := range chunks {
			draw(c)
		}
	} else {
		forEachConcurrently(chunks, draw)
	}
	return out
}

// forEachConcurrently calls work(i) once for each i in [0,n), on up to
// GOMAXPROCS goroutines that take the next index as they finish one.
func forEachConcurrently(n int, work func(int)) {
	var next atomic.Int64
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), n) {
		wg.Go(func() {
			for i := int(next.Add(1) - 1); i < n; i = int(next.Add(1) - 1) {
				work(i)
			}
		})
	}
	wg.Wait()
}
