package tests

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/flybench/flybench/pkg/ndjson"
)

// TestPeakAgreesWithGNUTime runs examples/touch, a C program touching 1,
// 16, 64 and 256 MiB, under fb-sample --metrics rss_peak in exec and batch
// modes and under GNU time: every sample has a value (none is only an
// upper bound), and the median is within 5% or 256 KiB of GNU time's %M.
// Issue 24: before, every run under fb-pair's own peak (some 15 MiB) was
// "unattributable".
func TestPeakAgreesWithGNUTime(t *testing.T) {
	if _, err := os.Stat("/usr/bin/time"); err != nil {
		t.Skip("GNU time (/usr/bin/time, Debian's time package; make deps installs it) is not installed")
	}
	cc, err := exec.LookPath("cc")
	if err != nil {
		t.Skip("no C compiler (cc) to build examples/touch")
	}
	touch := filepath.Join(t.TempDir(), "touch")
	if out, err := exec.Command(cc, "-O2", "-o", touch, "../examples/touch/touch.c").CombinedOutput(); err != nil {
		t.Fatalf("cc: %v\n%s", err, out)
	}
	for _, mode := range [][]string{{}, {"--batch"}} {
		for _, mib := range []int{1, 16, 64, 256} {
			gnu := gnuTimeKiB(t, touch, strconv.Itoa(mib))
			method, peaks := samplePeaks(t, mode, touch+" "+strconv.Itoa(mib))
			if runtime.GOARCH == "amd64" && method != "launcher" {
				t.Errorf("method %q, want launcher", method)
			}
			got := slices.Sorted(slices.Values(peaks))[len(peaks)/2] / 1024
			if tol := max(float64(gnu)/20, 256); got < float64(gnu)-tol || got > float64(gnu)+tol {
				t.Errorf("%v %d MiB: rss_peak %.0f KiB, GNU time %d KiB (tolerance %.0f KiB)", mode, mib, got, gnu, tol)
			}
			t.Logf("%-7s %3d MiB: GNU time %d KiB, fb-sample %.0f KiB (%s)", strings.Join(append(mode, "exec")[:1], ""), mib, gnu, got, method)
		}
	}
}

// gnuTimeKiB is GNU time's %M of argv, in KiB.
func gnuTimeKiB(t *testing.T, argv ...string) int {
	t.Helper()
	out, err := exec.Command("/usr/bin/time", append([]string{"-f", "%M"}, argv...)...).CombinedOutput()
	must(t, err)
	f := strings.Fields(string(out))
	kib, err := strconv.Atoi(f[len(f)-1])
	must(t, err)
	return kib
}

// samplePeaks runs fb-sample --metrics rss_peak on command, one run per
// sample, and returns the axis's method and every sample's value; a
// sample without one fails the test.
func samplePeaks(t *testing.T, mode []string, command string) (string, []float64) {
	t.Helper()
	args := append([]string{"--progress", "none", "--warmup", "0", "--samples", "10", "--max-iterations", "1", "--metrics", "rss_peak"}, mode...)
	stream := run(t, nil, tool("fb-sample"), append(args, "--", command)...)
	var method string
	var peaks []float64
	for _, line := range bytes.Split(stream, []byte("\n")) {
		switch {
		case bytes.Contains(line, []byte(`"type":"run"`)):
			var r ndjson.Run
			must(t, json.Unmarshal(line, &r))
			for _, a := range r.Axes {
				if a.Name == "rss_peak" {
					method = a.Method
				}
			}
		case bytes.Contains(line, []byte(`"type":"sample"`)):
			var s ndjson.Sample
			must(t, json.Unmarshal(line, &s))
			v := s.Axes["rss_peak"]
			if v.V == nil {
				t.Fatalf("%s: rss_peak %+v, want a value", command, v)
			}
			peaks = append(peaks, *v.V)
		}
	}
	if len(peaks) == 0 {
		t.Fatalf("%s: no samples", command)
	}
	return method, peaks
}
