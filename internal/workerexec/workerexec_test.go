package workerexec

import (
	"errors"
	"os"
	"reflect"
	"runtime"
	"strings"
	"testing"
	"time"
)

func TestGoWorker(t *testing.T) {
	needWorker(t, nsWorker, "examples/nsworker")
	goroutines := runtime.NumGoroutine()
	w, err := Start(Options{Argv: []string{nsWorker}})
	if err != nil {
		t.Fatal(err)
	}
	h := w.Handshake()
	if want := []string{"popcount-loop", "popcount-bits", "empty", "nop"}; !reflect.DeepEqual(h.Cases, want) {
		t.Errorf("cases %v, want %v", h.Cases, want)
	}
	if h.Timer == nil || h.Timer.Source != "clock_gettime(CLOCK_MONOTONIC)" || !(h.Timer.ResolutionNS > 0) || len(h.Axes) != 4 {
		t.Errorf("handshake %+v", h)
	}
	for _, c := range h.Cases {
		d, err := w.Run(c, 100_000)
		if err != nil {
			t.Fatal(err)
		}
		// live_heap is left out until the worker's first collection: before
		// it nothing has been marked live.
		if d.ElapsedNS == nil || *d.ElapsedNS <= 0 || len(d.Values) < 3 {
			t.Fatalf("%s: %+v", c, d)
		}
		for _, a := range h.Axes {
			raw, ok := d.Values[a.Name]
			if !ok && a.Name == "live_heap" {
				continue
			}
			if v := a.Value(raw, d.N); v.V == nil {
				t.Errorf("%s: axis %s: %+v", c, a.Name, v)
			}
		}
		t.Logf("%s: %.3f ns/op", c, *d.ElapsedNS/float64(d.N))
	}
	if _, err := w.Run("nosuch", 1); err == nil || !strings.Contains(err.Error(), `has no case "nosuch"; its cases: popcount-loop, popcount-bits, empty, nop`) {
		t.Errorf("unknown case: %v", err)
	}
	if _, err := w.Run("empty", 0); err == nil || !strings.Contains(err.Error(), "batch size 0") {
		t.Errorf("n = 0: %v", err)
	}
	if _, err := w.Run("empty", 1); err != nil { // refusals above did not stop the worker
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	assertGone(t, w.Pid())
	if _, err := w.Run("empty", 1); err == nil || !strings.Contains(err.Error(), "closed") {
		t.Errorf("Run after Close: %v", err)
	}
	if err := w.Close(); err != nil {
		t.Errorf("second Close: %v", err)
	}
	assertGoroutines(t, goroutines)
}

func TestCWorker(t *testing.T) {
	needWorker(t, cWorker, "examples/cworker")
	w := start(t, Options{Argv: []string{cWorker}})
	if h := w.Handshake(); !reflect.DeepEqual(h.Cases, []string{"sum", "sum-unrolled"}) || h.Timer == nil || h.Axes != nil {
		t.Fatalf("handshake %+v", h)
	}
	for _, c := range []string{"sum", "sum-unrolled"} {
		d, err := w.Run(c, 1_000_000)
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("%s: %.3f ns/op", c, *d.ElapsedNS/1e6)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	assertGone(t, w.Pid())
}

func TestShellWorker(t *testing.T) {
	w := start(t, Options{Argv: []string{"/bin/sh", "../../examples/shworker/worker.sh"}})
	d, err := w.Run("colon", 100)
	if err != nil || d.ElapsedNS == nil {
		t.Fatalf("%+v, %v", d, err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	assertGone(t, w.Pid())
}

func TestStartErrors(t *testing.T) {
	for _, tc := range []struct {
		opts Options
		want string
	}{
		{Options{}, "empty worker command"},
		{Options{Argv: []string{"flybench-no-such-worker"}}, `"flybench-no-such-worker" not found in $PATH`},
		{Options{Argv: []string{"./nosuch"}}, `worker cannot run "./nosuch"`},
		{Options{Argv: []string{"true"}, Dir: "/nonexistent"}, "working directory"},
		{Options{Argv: []string{"true"}, StartTimeout: -1}, "negative"},
		{Options{Argv: []string{"true"}, ShowStderr: true, Stderr: os.Stdout}, "must not go to stdout"},
	} {
		if _, err := Start(tc.opts); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%+v: %v, want %q", tc.opts, err, tc.want)
		}
	}
}

// TestRelativeToDir resolves a relative worker path against Dir.
func TestRelativeToDir(t *testing.T) {
	w := start(t, Options{Argv: []string{"./shworker/worker.sh"}, Dir: "../../examples"})
	if _, err := w.Run("colon", 1); err != nil {
		t.Fatal(err)
	}
}

func TestShowStderr(t *testing.T) {
	r, wr, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	w, err := Start(Options{Argv: script("dies.sh"), ShowStderr: true, Stderr: wr})
	wr.Close()
	if err != nil {
		t.Fatal(err)
	}
	_, err = w.Run("sum", 5)
	var ee *ExitError
	if !errors.As(err, &ee) || ee.Stderr() != "" {
		t.Fatalf("Run = %v; want an ExitError without a captured tail", err)
	}
	w.Close()
	r.SetReadDeadline(time.Now().Add(time.Second))
	buf := make([]byte, 4096)
	n, _ := r.Read(buf)
	if !strings.Contains(string(buf[:n]), "dying: out of cheese") {
		t.Errorf("shown stderr %q", buf[:n])
	}
}

// Where worker mode cannot run it is refused with the status, the platform
// (measure names the alternative), before anything starts.
func TestUnsupportedPlatformRefusesWorkers(t *testing.T) {
	err := SupportedOn("darwin")
	for _, want := range []string{"unsupported_platform: ", "darwin"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("%q lacks %q", err, want)
		}
	}
	if err := SupportedOn("linux"); err != nil {
		t.Fatalf("refused on Linux: %v", err)
	}
}
