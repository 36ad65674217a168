package runner

import (
	"testing"
)

func TestBareLoop(t *testing.T) {
	ns, err := BareLoop([]string{"true"}, 5, clk)
	if err != nil || ns <= 0 {
		t.Fatalf("BareLoop = %d, %v; want positive time", ns, err)
	}
	if _, err := BareLoop([]string{"false"}, 1, clk); err == nil {
		t.Error("BareLoop(false): no error")
	}
	if _, err := BareLoop([]string{"flybench-no-such-program"}, 1, clk); err == nil {
		t.Error("BareLoop of a missing program: no error")
	}
	assertNoChildren(t)
}

var trueArgv = []string{"/bin/true"}

// BenchmarkRun is Run's cost per run of /bin/true (ns/op is per run).
func BenchmarkRun(b *testing.B) {
	c, err := New(Options{Argv: trueArgv})
	if err != nil {
		b.Fatal(err)
	}
	defer c.Close()
	b.ResetTimer()
	if _, err := c.Run(int64(b.N), clk); err != nil {
		b.Fatal(err)
	}
}

// BenchmarkBareLoop is the bare fork/exec/wait4 loop's cost per run of
// /bin/true (ns/op is per run).
func BenchmarkBareLoop(b *testing.B) {
	if _, err := BareLoop(trueArgv, b.N, clk); err != nil {
		b.Fatal(err)
	}
}

// BenchmarkRunVsBareLoop alternates batches of Run and BareLoop, swapping
// which goes first, so drift in the host affects both alike, and reports
// both per-run times and their ratio. ns/op is one pair of batches.
func BenchmarkRunVsBareLoop(b *testing.B) {
	const batch = 20
	c, err := New(Options{Argv: trueArgv})
	if err != nil {
		b.Fatal(err)
	}
	defer c.Close()
	var run, bare, n int64
	for b.Loop() {
		for k := range 2 {
			if (n+int64(k))%2 == 0 {
				run += mustTime(b, func() (int64, error) { return c.Run(batch, clk) })
			} else {
				bare += mustTime(b, func() (int64, error) { return BareLoop(trueArgv, batch, clk) })
			}
		}
		n++
	}
	b.ReportMetric(float64(run)/float64(n*batch), "run-ns/run")
	b.ReportMetric(float64(bare)/float64(n*batch), "bare-ns/run")
	b.ReportMetric(float64(run)/float64(bare), "run/bare")
}

func mustTime(b *testing.B, f func() (int64, error)) int64 {
	ns, err := f()
	if err != nil {
		b.Fatal(err)
	}
	return ns
}
