package main

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"slices"
	"strings"
	"syscall"
	"time"

	"github.com/flybench/flybench/pkg/ndjson"
)

// syntheticPairs is the number of pairs in the synthetic stream: 100,000
// samples in all.
const syntheticPairs = 50_000

// analyzeThroughput times the fb-analyze binary on a synthetic stream of
// 100,000 samples read from a file and written to /dev/null.
func (b *bench) analyzeThroughput() {
	path, records := b.syntheticStream("synthetic", syntheticPairs)
	section(fmt.Sprintf("fb-analyze throughput: %d records (%d samples) from a file to /dev/null, "+
		"the default (robust) estimator and --estimator legacy in alternating runs", records, 2*syntheticPairs))
	ests := []string{"robust", "legacy"}
	type tally struct{ rates, faults, sys, user []float64 }
	t := make([]tally, len(ests))
	for i := 0; i < 5; i++ {
		for k, est := range ests {
			rate, ru := analyzeOnce(b.tool("fb-analyze"), path, est, records)
			t[k].rates = append(t[k].rates, rate)
			t[k].faults = append(t[k].faults, float64(ru.Minflt))
			t[k].sys = append(t[k].sys, float64(time.Duration(ru.Stime.Nano()).Milliseconds()))
			t[k].user = append(t[k].user, float64(time.Duration(ru.Utime.Nano()).Milliseconds()))
		}
	}
	for k, est := range ests {
		best := slices.Max(t[k].rates)
		fmt.Printf("  %-7s median %.2f M records/s, best %.2f M records/s over 5 runs (target: >= 1 M records/s); "+
			"user %.0f ms, system %.0f ms, %.0f minor page faults\n", est, median(t[k].rates)/1e6, best/1e6,
			median(t[k].user), median(t[k].sys), median(t[k].faults))
	}
	fmt.Printf("  this host's first touch of a page: %.1f µs\n", pageTouchMicros())
	b.reportMemory()
}

// reportMemory prints fb-report's peak resident set in each format on a
// synthetic stream of a million samples once analysed, against the
// stream's size (issue 20 item 4: at most 1.5 times it; the formats that
// list every sample hold them compressed and write as they go). GNU time
// reads it: a child this process starts directly would inherit its
// resident set's high-water mark through vfork and exec.
func (b *bench) reportMemory() {
	const pairs = 500_000
	section(fmt.Sprintf("fb-report peak memory: each format on a synthetic analysed stream of %d samples, output to /dev/null (target: at most 1.5x the stream)", 2*pairs))
	if _, err := os.Stat("/usr/bin/time"); err != nil {
		fmt.Println("  skipped: GNU time is not installed (make deps installs it)")
		return
	}
	raw, _ := b.syntheticStream("synthetic-large", pairs)
	analysed := b.tmp + "/synthetic-large-analysed.ndjson"
	out, err := os.Create(analysed)
	check(err)
	cmd := exec.Command(b.tool("fb-analyze"), raw)
	cmd.Stdout = out
	check(cmd.Run())
	check(out.Close())
	check(os.Remove(raw))
	st, err := os.Stat(analysed)
	check(err)
	size := float64(st.Size())
	fmt.Printf("  the analysed stream: %.1f MB\n", size/1e6)
	for _, args := range [][]string{{"console"}, {"json"}, {"json", "--samples"}, {"gobench"}, {"hyperfine-json"}, {"csv"}} {
		var stderr strings.Builder
		argv := append(append([]string{"-f", "%M %e", b.tool("fb-report"), "--format"}, args...), analysed)
		cmd := exec.Command("/usr/bin/time", argv...)
		cmd.Stderr = &stderr
		check(cmd.Run())
		var kib, secs float64
		if _, err := fmt.Sscanf(lastLine(stderr.String()), "%g %g", &kib, &secs); err != nil {
			check(fmt.Errorf("GNU time printed %q: %w", stderr.String(), err))
		}
		fmt.Printf("  %-16s %6.1f MB  %.2fx the stream  %.2f s\n", strings.Join(args, " "), kib*1024/1e6, kib*1024/size, secs)
	}
}

// lastLine is the last non-empty line of s.
func lastLine(s string) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	return lines[len(lines)-1]
}

// analyzeOnce runs fb-analyze --estimator est on path and returns its
// rate in records per second and its rusage.
func analyzeOnce(tool, path, est string, records int) (float64, *syscall.Rusage) {
	devnull, err := os.OpenFile(os.DevNull, os.O_WRONLY, 0)
	check(err)
	defer devnull.Close()
	cmd := exec.Command(tool, "--estimator", est, path)
	cmd.Stdout = devnull
	start := time.Now()
	check(cmd.Run())
	return float64(records) / time.Since(start).Seconds(), cmd.ProcessState.SysUsage().(*syscall.Rusage)
}

// syntheticStream writes a paired run of pairs units with drifting,
// noisy samples to the scratch file name.ndjson.
func (b *bench) syntheticStream(name string, pairs int) (string, int) {
	path := b.tmp + "/" + name + ".ndjson"
	f, err := os.Create(path)
	check(err)
	bw := bufio.NewWriterSize(f, 1<<20)
	w := ndjson.NewWriter(bw)
	run := &ndjson.Run{RunID: "synthetic", Tool: "bench", Design: ndjson.DesignPaired, Batching: ndjson.BatchingEqualTime,
		Cases: []ndjson.Case{{Index: 0, Name: "a"}, {Index: 1, Name: "b"}}, Clock: ndjson.Clock{NominalNS: 1}}
	run.Config.Samples = pairs
	check(w.Write(run))
	x := uint64(88172645463325252)
	for u := 0; u < pairs; u++ {
		drift := 1 + 0.2*float64(u%5000)/5000
		for pos, c := range []int{u % 2, 1 - u%2} {
			x ^= x << 13
			x ^= x >> 7
			x ^= x << 17
			op := drift * (1000 + 30*float64(c) + float64(x%100))
			check(w.Write(&ndjson.Sample{Case: c, Unit: u, Pos: pos, Seq: 2*u + pos, Iter: 1000, WallNS: int64(op * 1000), OpNS: op}))
		}
	}
	check(w.Write(&ndjson.End{RunID: "synthetic", Reason: ndjson.EndCompleted, Units: pairs, Samples: []int{pairs, pairs}}))
	check(bw.Flush())
	check(f.Close())
	return path, 2*pairs + 2
}

// pageTouchMicros is the cost of first touching one page of fresh anonymous
// memory, which every new process pays for its heap: on virtual machines it
// can be a large part of a short tool's run.
func pageTouchMicros() float64 {
	const size = 32 << 20
	mem, err := syscall.Mmap(-1, 0, size, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_PRIVATE|syscall.MAP_ANON)
	check(err)
	defer syscall.Munmap(mem)
	page := os.Getpagesize()
	start := time.Now()
	for i := 0; i < size; i += page {
		mem[i] = 1
	}
	return float64(time.Since(start).Microseconds()) / float64(size/page)
}
