// Command interfere is background interference that is not a square wave
// (issue 19, section 3): a seeded random schedule of bursts of 0.3 to 3 s,
// each separated from the next by a quiet gap of 0.2 to 3 s. A burst is
// CPU work, last-level-cache thrashing, memory-bandwidth streaming, fsynced
// file I/O or more runnable threads than CPUs, on one pinned CPU or on all
// of them. The bench starts one with a fresh seed around every measured
// run, so a method is judged against interference it cannot anticipate,
// and the seed it prints reproduces the schedule exactly.
//
//	interfere -seed S [-for D] [-dir DIR] [-log FILE|-]
//
// It stops every burst and exits 0 on SIGINT, SIGTERM or when -for has
// passed. Its I/O files are unlinked as soon as they are created, so it
// leaves no file behind, even when it is killed.
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime"
	"sync"
	"syscall"
	"time"
)

// horizon is the schedule's length when -for is 0: run until signalled.
const horizon = 24 * time.Hour

func main() {
	seed := flag.Uint64("seed", 1, "the schedule's seed: one seed, one schedule")
	total := flag.Duration("for", 0, "stop after this long (0: until SIGINT or SIGTERM, at most a day)")
	dir := flag.String("dir", os.TempDir(), "directory of the io bursts' scratch files")
	logPath := flag.String("log", "", "write one JSON line per burst as it starts to this file (- for stderr)")
	flag.Parse()
	if err := run(*seed, *total, *dir, *logPath); err != nil {
		fmt.Fprintln(os.Stderr, "interfere:", err)
		os.Exit(1)
	}
}

// run checks the settings, then plays the seed's schedule until it ends,
// -for passes or a signal comes.
func run(seed uint64, total time.Duration, dir, logPath string) error {
	if total < 0 {
		return fmt.Errorf("-for %v is negative", total)
	}
	if total == 0 {
		total = horizon
	}
	if st, err := os.Stat(dir); err != nil || !st.IsDir() {
		return fmt.Errorf("-dir %q: not a directory", dir)
	}
	log, closeLog, err := openLog(logPath)
	if err != nil {
		return err
	}
	defer closeLog()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	ctx, cancel := context.WithTimeout(ctx, total)
	defer cancel()
	cpus := allowedCPUs()
	// Every worker holds an OS thread; oversub needs all of them running.
	runtime.GOMAXPROCS(MaxOversubX*len(cpus) + 1)
	p := &player{cpus: cpus, dir: dir, log: log, cache: make([][]byte, len(cpus))}
	p.play(ctx, Schedule(seed, total, len(cpus)))
	return nil
}

// openLog opens -log: nothing, stderr for "-", or a file.
func openLog(path string) (io.Writer, func(), error) {
	switch path {
	case "":
		return nil, func() {}, nil
	case "-":
		return os.Stderr, func() {}, nil
	}
	f, err := os.Create(path)
	if err != nil {
		return nil, nil, fmt.Errorf("-log: %w", err)
	}
	return f, func() { f.Close() }, nil
}

// player runs a schedule's bursts at their offsets.
type player struct {
	cpus []int // the CPUs this process may run on
	dir  string
	log  io.Writer
	// cache is each thread slot's last-level-cache buffer, allocated by
	// the first cache burst that uses it and reused.
	cache    [][]byte
	membw    sync.Once
	src, dst []byte
}

// play waits for each burst's offset, runs it to its end, and returns
// when the schedule is over and ctx is done.
func (p *player) play(ctx context.Context, bursts []Burst) {
	start := time.Now()
	for _, b := range bursts {
		if !sleepUntil(ctx, start.Add(b.Offset)) {
			return
		}
		p.logBurst(b)
		bctx, cancel := context.WithDeadline(ctx, start.Add(b.Offset+b.Duration))
		p.burst(bctx, b)
		cancel()
	}
	<-ctx.Done()
}

// sleepUntil waits until t, or returns false when ctx is done first.
func sleepUntil(ctx context.Context, t time.Time) bool {
	timer := time.NewTimer(time.Until(t))
	defer timer.Stop()
	select {
	case <-ctx.Done():
		return false
	case <-timer.C:
		return true
	}
}

// burstLine is the -log record of a burst, written as it starts.
type burstLine struct {
	Kind       string `json:"kind"`
	Scope      string `json:"scope"`
	Threads    int    `json:"threads"`
	CPU        int    `json:"cpu"` // the pinned CPU's number; -1 for all-cpus
	ChunkBytes int    `json:"chunk_bytes,omitempty"`
	OffsetMS   int64  `json:"offset_ms"`
	DurationMS int64  `json:"duration_ms"`
}

func (p *player) logBurst(b Burst) {
	if p.log == nil {
		return
	}
	cpu := -1
	if b.CPU >= 0 {
		cpu = p.cpus[b.CPU]
	}
	line, _ := json.Marshal(burstLine{b.Kind, b.Scope, b.Threads, cpu, b.Chunk,
		b.Offset.Milliseconds(), b.Duration.Milliseconds()})
	fmt.Fprintf(p.log, "%s\n", line)
}

// burst runs a burst's threads until ctx is done and waits for them all.
func (p *player) burst(ctx context.Context, b Burst) {
	var wg sync.WaitGroup
	for i := 0; i < b.Threads; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			p.thread(ctx, b, i)
		}()
	}
	wg.Wait()
}

// thread is one of a burst's threads: an OS thread of its own, pinned to
// the burst's CPU or allowed on all of them, doing the burst's kind of
// work. It never unlocks the thread, so the thread and its affinity end
// with it instead of passing to other goroutines.
func (p *player) thread(ctx context.Context, b Burst, i int) {
	runtime.LockOSThread()
	cpus := p.cpus
	if b.CPU >= 0 {
		cpus = p.cpus[b.CPU : b.CPU+1]
	}
	if err := pin(cpus); err != nil {
		fmt.Fprintln(os.Stderr, "interfere: pinning:", err)
	}
	switch b.Kind {
	case KindCPU:
		spinUntil(ctx)
	case KindCache:
		thrashCache(ctx, p.cacheBuffer(i))
	case KindMemBW:
		p.membw.Do(func() { p.src, p.dst = make([]byte, membwBytes), make([]byte, membwBytes) })
		stream(ctx, p.src, p.dst, i, b.Threads)
	case KindIO:
		if err := churnFile(ctx, p.dir, b.Chunk); err != nil {
			fmt.Fprintln(os.Stderr, "interfere: io:", err)
		}
	case KindOversub:
		spinAndNap(ctx)
	}
}

// cacheBuffer is thread slot i's last-level-cache buffer. Slots are
// distinct within a burst and bursts run one at a time, so no two threads
// touch one slot at once.
func (p *player) cacheBuffer(i int) []byte {
	if p.cache[i] == nil {
		p.cache[i] = make([]byte, lastLevelCache())
	}
	return p.cache[i]
}

// firstCPUs is CPUs 0 to n-1.
func firstCPUs(n int) []int {
	out := make([]int, max(n, 1))
	for i := range out {
		out[i] = i
	}
	return out
}
