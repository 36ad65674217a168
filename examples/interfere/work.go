package main

import (
	"context"
	"os"
	"strconv"
	"strings"
	"sync/atomic"
)

const (
	membwBytes    = 128 << 20 // each of membw's two buffers
	membwChunk    = 1 << 20   // bytes copied between checks for the end
	defaultLLC    = 32 << 20  // when sysfs does not say
	cacheLine     = 64
	oversubSteps  = 50_000 // mixing steps between an oversub thread's naps
	oversubNapNS  = 10_000 // an oversub thread's nap
	spinChunkSize = 100_000
)

// sink keeps the busy loops' results alive (atomic: every load thread adds to it).
var sink atomic.Uint64

// mixSteps runs n steps of a 64-bit linear congruential generator.
func mixSteps(x uint64, n int) uint64 {
	for i := 0; i < n; i++ {
		x = x*6364136223846793005 + 1442695040888963407
	}
	return x
}

// spinUntil is the cpu kind: integer work until ctx is done.
func spinUntil(ctx context.Context) {
	x := uint64(1)
	for ctx.Err() == nil {
		x = mixSteps(x, spinChunkSize)
	}
	sink.Add(x)
}

// spinAndNap is the oversub kind: integer work broken by naps of a few
// microseconds, so the thread stays runnable almost all the time but
// keeps going through the scheduler.
func spinAndNap(ctx context.Context) {
	x := uint64(1)
	for ctx.Err() == nil {
		x = mixSteps(x, oversubSteps)
		nap(oversubNapNS)
	}
	sink.Add(x)
}

// thrashCache is the cache kind: one write per cache line through buf,
// again and again, evicting whatever else the cache held.
func thrashCache(ctx context.Context, buf []byte) {
	for ctx.Err() == nil {
		for i := 0; i < len(buf); i += cacheLine {
			buf[i]++
		}
	}
}

// stream is the membw kind: thread i of n copies its share of src to dst
// and back, a chunk at a time.
func stream(ctx context.Context, src, dst []byte, i, n int) {
	lo, hi := i*len(src)/n, (i+1)*len(src)/n
	for ctx.Err() == nil {
		for at := lo; at < hi && ctx.Err() == nil; at += membwChunk {
			end := min(at+membwChunk, hi)
			copy(dst[at:end], src[at:end])
		}
		src, dst = dst, src
	}
}

// churnFile is the io kind: write a chunk to a scratch file, fsync it,
// drop it from the page cache and read it back, until ctx is done. The
// file is unlinked as soon as it is created: the open descriptor keeps it
// (and the disk traffic) alive, and no name is left behind whatever
// happens to this process.
func churnFile(ctx context.Context, dir string, chunk int) error {
	f, err := os.CreateTemp(dir, "interfere-*.tmp")
	if err != nil {
		return err
	}
	defer f.Close()
	if err := os.Remove(f.Name()); err != nil {
		return err
	}
	buf := make([]byte, chunk)
	for i := range buf {
		buf[i] = byte(i * 131) // not all zeros, not trivially compressible
	}
	for ctx.Err() == nil {
		if _, err := f.WriteAt(buf, 0); err != nil {
			return err
		}
		if err := f.Sync(); err != nil {
			return err
		}
		dropCache(f)
		if _, err := f.ReadAt(buf, 0); err != nil {
			return err
		}
	}
	return nil
}

// lastLevelCache is the size of CPU 0's level-3 cache from sysfs ("32768K"),
// or defaultLLC.
func lastLevelCache() int {
	raw, err := os.ReadFile("/sys/devices/system/cpu/cpu0/cache/index3/size")
	if err != nil {
		return defaultLLC
	}
	s := strings.TrimSpace(string(raw))
	unit := 1
	switch {
	case strings.HasSuffix(s, "K"):
		unit, s = 1<<10, strings.TrimSuffix(s, "K")
	case strings.HasSuffix(s, "M"):
		unit, s = 1<<20, strings.TrimSuffix(s, "M")
	}
	n, err := strconv.Atoi(s)
	if err != nil || n <= 0 {
		return defaultLLC
	}
	return n * unit
}
