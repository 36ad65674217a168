package main

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/flybench/flybench/pkg/ndjson"
)

// peakSizes are the MiB examples/touch touches in the peak section.
var peakSizes = []int{1, 16, 64, 256}

// peak compares fb-sample's rss_peak with GNU time's %M on examples/touch
// at 1 to 256 MiB, in exec and batch modes (issue 24: within 5% or 256
// KiB), and its mem_peak (charged memory, in a cgroup of the command's
// own) with what touch touched, and prints what measuring each costs a
// run: fb-sample on touch 0 with --metrics rss_peak (every run through the
// launcher) and with --metrics mem_peak, against --metrics cpu,
// interleaved.
func (b *bench) peak(rounds int) {
	section("peak memory: fb-sample --metrics rss_peak against GNU time -f %M on examples/touch")
	touch, err := b.buildTouch()
	if err != nil {
		fmt.Printf("  skipped: %v\n", err)
		return
	}
	fmt.Printf("  %-6s %8s %14s %14s %9s   %s\n", "mode", "MiB", "GNU time KiB", "flybench KiB", "diff", "method / status")
	for _, mode := range []string{"exec", "batch"} {
		for _, mib := range peakSizes {
			gnu, gerr := gnuTime(touch, mib)
			v, method, status := b.samplePeak(touch, mib, mode == "batch", "rss_peak")
			switch {
			case gerr != nil:
				fmt.Printf("  %-6s %8d %14s %14s %9s   %v\n", mode, mib, "-", "-", "", gerr)
			case status != "collected":
				fmt.Printf("  %-6s %8d %14d %14s %9s   %s: %s\n", mode, mib, gnu, "-", "", method, status)
			default:
				d := v/1024 - float64(gnu)
				fmt.Printf("  %-6s %8d %14d %14.0f %+8.2f%%   %s (%+.0f KiB; tolerance ±%d KiB)\n", mode, mib, gnu, v/1024, 100*d/float64(gnu), method, d, max(gnu/20, 256))
			}
		}
	}
	fmt.Printf("\n  mem_peak, the charge of the command's cgroup, against the MiB touch touched (its own pages, page tables and stack come on top;\n  shared library pages another process loaded first are not charged to it, so it reads below GNU time's resident set)\n")
	fmt.Printf("  %-6s %8s %14s %14s %12s   %s\n", "mode", "MiB", "touched KiB", "mem_peak KiB", "above", "method / status")
	for _, mode := range []string{"exec", "batch"} {
		for _, mib := range peakSizes {
			v, method, status := b.samplePeak(touch, mib, mode == "batch", "mem_peak")
			if status != "collected" {
				fmt.Printf("  %-6s %8d %14d %14s %12s   %s: %s\n", mode, mib, mib<<10, "-", "", method, status)
				continue
			}
			fmt.Printf("  %-6s %8d %14d %14.0f %+8.0f KiB   %s\n", mode, mib, mib<<10, v/1024, v/1024-float64(mib<<10), method)
		}
	}
	var cpu, peak, charged []float64
	for range rounds {
		cpu = append(cpu, b.sampleTouch0(touch, "cpu"))
		peak = append(peak, b.sampleTouch0(touch, "rss_peak"))
		charged = append(charged, b.sampleTouch0(touch, "mem_peak"))
	}
	c, p, m := median(cpu), median(peak), median(charged)
	fmt.Printf("  cost per run of touch 0, median of %d interleaved rounds: --metrics cpu %.1f µs, --metrics rss_peak %.1f µs (%+.1f µs, %+.1f%%), --metrics mem_peak %.1f µs (%+.1f µs, %+.1f%%)\n",
		rounds, c/1e3, p/1e3, (p-c)/1e3, 100*(p/c-1), m/1e3, (m-c)/1e3, 100*(m/c-1))
}

// buildTouch compiles examples/touch with cc into the bench's directory.
func (b *bench) buildTouch() (string, error) {
	cc, err := exec.LookPath("cc")
	if err != nil {
		return "", fmt.Errorf("no C compiler (cc) to build examples/touch")
	}
	if _, err := os.Stat("/usr/bin/time"); err != nil {
		return "", fmt.Errorf("GNU time is not installed (/usr/bin/time, Debian's time package; make bench installs it)")
	}
	out := filepath.Join(b.tmp, "touch")
	if msg, err := exec.Command(cc, "-O2", "-o", out, "examples/touch/touch.c").CombinedOutput(); err != nil {
		return "", fmt.Errorf("cc examples/touch/touch.c: %v: %s", err, msg)
	}
	return out, nil
}

// gnuTime is the median of three runs' GNU time %M, in KiB.
func gnuTime(touch string, mib int) (int, error) {
	var kib []float64
	for range 3 {
		out, err := exec.Command("/usr/bin/time", "-f", "%M", touch, strconv.Itoa(mib)).CombinedOutput()
		if err != nil {
			return 0, fmt.Errorf("/usr/bin/time: %v: %s", err, out)
		}
		f := strings.Fields(string(out))
		v, err := strconv.Atoi(f[len(f)-1])
		if err != nil {
			return 0, fmt.Errorf("/usr/bin/time printed %q", out)
		}
		kib = append(kib, float64(v))
	}
	return int(median(kib)), nil
}

// samplePeak is fb-sample's median axis (rss_peak or mem_peak) of touch
// MIB over 10 samples of one run each, the method the run record names,
// and the status of the first sample without a value ("collected" when all
// have one).
func (b *bench) samplePeak(touch string, mib int, batch bool, axis string) (float64, string, string) {
	args := []string{"--progress", "none", "--warmup", "0", "--samples", "10", "--max-iterations", "1", "--metrics", axis}
	if batch {
		args = append(args, "--batch")
	}
	out, err := exec.Command(b.tool("fb-sample"), append(args, "--", touch+" "+strconv.Itoa(mib))...).Output()
	check(err)
	var values []float64
	method, status := "", "collected"
	eachRecord(out, func(typ string, raw []byte) {
		switch typ {
		case ndjson.TypeRun:
			var r ndjson.Run
			check(json.Unmarshal(raw, &r))
			for _, a := range r.Axes {
				if a.Name == axis {
					method = a.Method
					if a.Status != "collected" {
						status = a.Status + " (" + a.Reason + ")"
					}
				}
			}
		case ndjson.TypeSample:
			var s ndjson.Sample
			check(json.Unmarshal(raw, &s))
			if v := s.Axes[axis]; v.V != nil {
				values = append(values, *v.V)
			} else if status == "collected" {
				status = v.S + " (" + v.R + ")"
			}
		}
	})
	if len(values) == 0 {
		return 0, method, status
	}
	return median(values), method, status
}

// sampleTouch0 is fb-sample's median time per run of touch 0 with one
// --metrics selection.
func (b *bench) sampleTouch0(touch, metrics string) float64 {
	return b.sampledMedian("--progress", "none", "--warmup", "20ms", "--samples", "30",
		"--measurement-time", "300ms", "--metrics", metrics, "--", touch+" 0")
}
