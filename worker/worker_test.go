package worker

import (
	"bufio"
	"errors"
	"io"
	"math"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/flybench/flybench/internal/custom"
	"github.com/flybench/flybench/internal/wproto"
)

// session is a worker served over in-memory pipes, driven one request at a
// time as the harness drives it.
type session struct {
	t    *testing.T
	in   *io.PipeWriter
	out  *bufio.Reader
	hs   wproto.Handshake
	done chan error
}

func serve(t *testing.T, w *Worker) *session {
	t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	s := &session{t: t, in: inW, out: bufio.NewReaderSize(outR, wproto.MaxLine), done: make(chan error, 1)}
	go func() {
		err := w.Serve(inR, outW)
		outW.CloseWithError(io.EOF)
		s.done <- err
	}()
	hs, err := wproto.ReadHandshake(s.out)
	if err != nil {
		t.Fatalf("handshake: %v", err)
	}
	s.hs = hs
	t.Cleanup(func() { s.quit() })
	return s
}

// run sends a request and parses the answer against the declared axes.
func (s *session) run(name string, n int64) (wproto.Done, error) {
	s.t.Helper()
	if _, err := io.WriteString(s.in, wproto.Request{Case: name, N: n}.String()+"\n"); err != nil {
		s.t.Fatal(err)
	}
	line, err := wproto.ReadLine(s.out)
	if err != nil {
		s.t.Fatalf("answer to run %s %d: %v", name, n, err)
	}
	d, err := wproto.ParseAnswer(line, s.hs.Axes)
	var f *wproto.Failure
	if err != nil && !errors.As(err, &f) {
		s.t.Fatalf("answer %q: %v", line, err)
	}
	if err == nil && (d.Case != name || d.N != n || d.ElapsedNS == nil) {
		s.t.Fatalf("answer %q does not echo run %s %d with elapsed_ns", line, name, n)
	}
	return d, err
}

func (s *session) quit() {
	if s.in == nil {
		return
	}
	io.WriteString(s.in, "quit\n")
	s.in.Close()
	s.in = nil
	if err := <-s.done; err != nil {
		s.t.Errorf("Serve = %v after quit", err)
	}
}

func TestHandshakeText(t *testing.T) {
	w := New()
	w.Case("sum", func(int) {})
	w.CaseResult("hash", func(int) any { return 0 })
	w.CaseHooks("sort", nil, func(int) {}, nil)
	w.SizeIndependent("hash")
	w.RuntimeAxes()
	w.Axis(AxisDecl{Name: "items", Unit: "items/op", Direction: "higher"}, func() Reading { return Count(0) })
	src, res := clockSource()
	want := "flybench-worker 1\ncase sum\ncase hash batching=equal-time\ncase sort\n" +
		wproto.Timer{Source: src, ResolutionNS: res}.String() + "\n" +
		"axis alloc_bytes unit=bytes/op compare=absolute scope=go_heap attribution=process_window\n" +
		"axis alloc_objects unit=objects/op compare=absolute scope=go_heap attribution=process_window\n" +
		"axis gc_cycles unit=gc-cycles/batch normalize=batch compare=absolute scope=go_runtime attribution=process_window\n" +
		"axis live_heap unit=bytes direction=diagnostic semantics=absolute normalize=batch compare=absolute scope=go_heap attribution=latest_gc\n" +
		"axis items unit=items/op direction=higher\n" +
		"ready\n"
	if got := w.handshake(); got != want {
		t.Fatalf("handshake:\n%s\nwant\n%s", got, want)
	}
	h, err := wproto.ParseHandshake(want)
	if err != nil {
		t.Fatal(err)
	}
	if err := custom.ValidateSet(h.Axes); err != nil || len(h.Axes) != 5 || h.Timer == nil || !(h.Timer.ResolutionNS > 0) {
		t.Fatalf("parsed %+v: %v", h, err)
	}
	if h.String() != want {
		t.Errorf("wproto formats the handshake differently:\n%s", h.String())
	}
}

func TestRunDone(t *testing.T) {
	w := New()
	var got []int
	w.Case("sum", func(n int) { got = append(got, n) })
	s := serve(t, w)
	for _, n := range []int64{1, 1000, math.MaxInt64} {
		d, err := s.run("sum", n)
		if err != nil || *d.ElapsedNS < 0 || d.Values != nil {
			t.Fatalf("run sum %d: %+v, %v", n, d, err)
		}
	}
	if len(got) != 3 || got[2] != math.MaxInt64 {
		t.Errorf("case saw n = %v", got)
	}
	_, err := s.run("nosuch", 5)
	var f *wproto.Failure
	if !errors.As(err, &f) || f.Case != "nosuch" || f.Message != "unknown case" {
		t.Errorf("unknown case: %v", err)
	}
}

// TestResultSinkAfterTiming gives CaseResult a sink that takes 30 ms: the
// elapsed time must not include it, and the sink must get the result.
func TestResultSinkAfterTiming(t *testing.T) {
	w := New()
	w.CaseResult("hash", func(n int) any { return n * 3 })
	var sunk any
	w.sink = func(v any) { time.Sleep(30 * time.Millisecond); sunk = v }
	s := serve(t, w)
	d, err := s.run("hash", 7)
	if err != nil {
		t.Fatal(err)
	}
	if *d.ElapsedNS >= 30e6 {
		t.Errorf("elapsed_ns=%v includes the sink", *d.ElapsedNS)
	}
	if sunk != 21 {
		t.Errorf("sink got %v, want 21", sunk)
	}
}

func TestHooks(t *testing.T) {
	var stacks strings.Builder
	stderr = &stacks
	defer func() { stderr = os.Stderr }()
	w := New()
	var order []string
	w.CaseHooks("sort",
		func() { order = append(order, "setup"); time.Sleep(20 * time.Millisecond) },
		func(n int) { order = append(order, "fn") },
		func() { order = append(order, "teardown"); time.Sleep(20 * time.Millisecond) })
	w.CaseHooks("boom",
		func() { order = append(order, "setup") },
		func(n int) { order = append(order, "fn"); panic("out of cheese\nsecond line") },
		func() { order = append(order, "teardown") })
	w.CaseHooks("badsetup", func() { panic("no input") }, func(int) { order = append(order, "fn") }, func() { order = append(order, "teardown") })
	s := serve(t, w)
	d, err := s.run("sort", 10)
	if err != nil || *d.ElapsedNS >= 20e6 {
		t.Fatalf("sort: %+v %v (hooks must be untimed)", d, err)
	}
	if strings.Join(order, ",") != "setup,fn,teardown" {
		t.Errorf("order %v", order)
	}
	order = nil
	_, err = s.run("boom", 10)
	var f *wproto.Failure
	if !errors.As(err, &f) || f.Case != "boom" || f.Message != "panic: out of cheese second line" {
		t.Errorf("panic: %v", err)
	}
	if strings.Join(order, ",") != "setup,fn,teardown" {
		t.Errorf("order after a panic %v: teardown must run", order)
	}
	if !strings.Contains(stacks.String(), "panic: out of cheese") || !strings.Contains(stacks.String(), "TestHooks") {
		t.Errorf("the panic's stack was not logged:\n%s", stacks.String())
	}
	order = nil
	_, err = s.run("badsetup", 1)
	if !errors.As(err, &f) || f.Message != "setup panic: no input" || order != nil {
		t.Errorf("setup panic: %v, order %v", err, order)
	}
	if _, err := s.run("sort", 1); err != nil { // still serving
		t.Error(err)
	}
}

var heapSink [][]byte

// TestRuntimeAxes allocates 100 objects of 64 bytes per operation.
func TestRuntimeAxes(t *testing.T) {
	w := New()
	w.Case("alloc", func(n int) {
		for range n {
			for range 100 {
				heapSink = append(heapSink[:0], make([]byte, 64))
			}
		}
	})
	w.Case("none", func(n int) {})
	w.RuntimeAxes()
	s := serve(t, w)
	value := func(d wproto.Done, name string) float64 {
		for _, a := range s.hs.Axes {
			if a.Name == name {
				v := a.Value(d.Values[name], d.N)
				if v.V == nil {
					t.Fatalf("%s: %+v", name, v)
				}
				return *v.V
			}
		}
		t.Fatalf("no axis %s", name)
		return 0
	}
	const n = 2000
	d, err := s.run("alloc", n)
	if err != nil {
		t.Fatal(err)
	}
	objs, bytes := value(d, "alloc_objects"), value(d, "alloc_bytes")
	t.Logf("alloc: %.2f objects/op, %.1f bytes/op, %v GC cycles, live heap %v", objs, bytes, value(d, "gc_cycles"), value(d, "live_heap"))
	if math.Abs(objs-100) > 2 || math.Abs(bytes-6400) > 130 {
		t.Errorf("alloc_objects %.2f/op, alloc_bytes %.1f/op; want about 100 and 6400", objs, bytes)
	}
	if value(d, "gc_cycles") < 1 { // 12.8 MB allocated: the GC ran
		t.Errorf("gc_cycles %v, want at least one", value(d, "gc_cycles"))
	}
	if value(d, "live_heap") <= 0 {
		t.Errorf("live_heap %v, want positive after a GC", value(d, "live_heap"))
	}
	d, err = s.run("none", 1000)
	if err != nil {
		t.Fatal(err)
	}
	if objs := value(d, "alloc_objects"); objs != 0 {
		t.Errorf("a case that does not allocate: %v objects/op", objs)
	}
}

func TestCustomAxis(t *testing.T) {
	w := New()
	items := int64(0)
	w.Case("work", func(n int) { items += 2 * int64(n) })
	w.Axis(AxisDecl{Name: "items", Unit: "items/op"}, func() Reading { return Count(items) })
	w.Axis(AxisDecl{Name: "level", Unit: "x", Semantics: "absolute", Normalize: "batch"}, func() Reading { return Value(1.5) })
	w.Axis(AxisDecl{Name: "broken", Unit: "x", Semantics: "absolute"}, func() Reading { return Reading{} })
	s := serve(t, w)
	d, err := s.run("work", 10)
	if err != nil {
		t.Fatal(err)
	}
	if d.Values["items"] != "0:20" || d.Values["level"] != "1.5" {
		t.Errorf("values %v", d.Values)
	}
	if _, ok := d.Values["broken"]; ok {
		t.Error("a failed reading must be left out")
	}
}

func TestServeErrors(t *testing.T) {
	w := New()
	w.Case("a", func(int) {})
	for in, want := range map[string]string{
		"run a 0\n":                    "n must be an integer",
		"run a -1\n":                   "n must be an integer",
		"run A 1\n":                    "lowercase",
		"go a 1\n":                     "want \"run CASE N\"",
		"run a 1":                      "not a whole line",
		"run  a 1\n":                   "want \"run CASE N\"",
		"run a 99999999999999999999\n": "n must be an integer",
	} {
		var out strings.Builder
		err := w.Serve(strings.NewReader(in), &out)
		var re *RequestError
		if !errors.As(err, &re) || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: %v, want %q", in, err, want)
		}
	}
	var out strings.Builder
	if err := w.Serve(strings.NewReader("run a 3\n"), &out); err != nil || !strings.Contains(out.String(), "ready\ndone a 3 elapsed_ns=") {
		t.Errorf("end of input without quit: %v\n%s", err, out.String())
	}
	if err := New().Serve(strings.NewReader(""), io.Discard); err == nil {
		t.Error("a worker without cases served")
	}
}

func TestRegistrationPanics(t *testing.T) {
	for name, f := range map[string]func(w *Worker){
		"bad case name":  func(w *Worker) { w.Case("Sum", func(int) {}) },
		"duplicate case": func(w *Worker) { w.Case("a", func(int) {}); w.Case("a", func(int) {}) },
		"nil case":       func(w *Worker) { w.Case("a", nil) },
		"bad unit":       func(w *Worker) { w.Axis(AxisDecl{Name: "x", Unit: "a b"}, func() Reading { return Reading{} }) },
		"bad semantics": func(w *Worker) {
			w.Axis(AxisDecl{Name: "x", Unit: "u", Semantics: "total"}, func() Reading { return Reading{} })
		},
		"reserved name":   func(w *Worker) { w.Axis(AxisDecl{Name: "elapsed_ns", Unit: "u"}, func() Reading { return Reading{} }) },
		"duplicate axis":  func(w *Worker) { w.RuntimeAxes(); w.Axis(AxisDecl{Name: "gc_cycles", Unit: "u"}, Reading2) },
		"runtime twice":   func(w *Worker) { w.RuntimeAxes(); w.RuntimeAxes() },
		"nine axes":       func(w *Worker) { w.RuntimeAxes(); addAxes(w, 5) },
		"nil axis reader": func(w *Worker) { w.Axis(AxisDecl{Name: "x", Unit: "u"}, nil) },
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("%s: no panic", name)
				}
			}()
			f(New())
		}()
	}
}

func Reading2() Reading { return Reading{} }

func addAxes(w *Worker, k int) {
	for i := range k {
		w.Axis(AxisDecl{Name: "x" + string(rune('a'+i)), Unit: "u"}, Reading2)
	}
}

// TestKeepAliveDoesNotAllocate: v does not escape, so boxing it is free.
func TestKeepAliveDoesNotAllocate(t *testing.T) {
	x := uint64(1 << 40)
	if a := testing.AllocsPerRun(100, func() { x++; KeepAlive(x) }); a != 0 {
		t.Errorf("KeepAlive allocates %v times per call", a)
	}
}

func TestWorkUnitsDeclared(t *testing.T) {
	w := New()
	w.Case("parse", func(int) {})
	w.Case("noop", func(int) {})
	w.WorkUnits("parse", 64)
	h, err := wproto.ParseHandshake(w.handshake())
	if err != nil {
		t.Fatal(err)
	}
	if h.WorkUnits["parse"] != 64 || len(h.WorkUnits) != 1 {
		t.Errorf("work units %v", h.WorkUnits)
	}
	for name, f := range map[string]func(){
		"unknown case": func() { w.WorkUnits("nope", 1) },
		"zero units":   func() { w.WorkUnits("parse", 0) },
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("%s: no panic", name)
				}
			}()
			f()
		}()
	}
}

var kept [][]byte

// TestRetainedAxis: a case that keeps what it allocates retains about its
// size per operation, one that keeps nothing about none; and live_heap is
// reported from the first batch on, even by a worker that has not
// allocated enough to start a collection.
func TestRetainedAxis(t *testing.T) {
	w := New()
	w.Case("keep", func(n int) {
		for range n {
			kept = append(kept, make([]byte, 4096))
		}
	})
	w.Case("none", func(n int) {})
	w.RuntimeAxes()
	w.RetainedAxis()
	s := serve(t, w)
	value := func(d wproto.Done, name string) float64 {
		for _, a := range s.hs.Axes {
			if a.Name == name {
				v := a.Value(d.Values[name], d.N)
				if v.V == nil {
					t.Fatalf("%s: %+v", name, v)
				}
				return *v.V
			}
		}
		t.Fatalf("no axis %s", name)
		return 0
	}
	d, err := s.run("none", 100)
	if err != nil {
		t.Fatal(err)
	}
	if live := value(d, "live_heap"); live <= 0 {
		t.Errorf("live_heap %v on the first batch, want a positive reading", live)
	}
	if r := value(d, "retained"); math.Abs(r) > 64 {
		t.Errorf("a case that keeps nothing retained %v bytes/op", r)
	}
	d, err = s.run("keep", 500)
	if err != nil {
		t.Fatal(err)
	}
	if r := value(d, "retained"); r < 4096 || r > 4096*1.2 {
		t.Errorf("keeping 4 KiB per operation retained %v bytes/op", r)
	}
	defer func() {
		if recover() == nil {
			t.Error("RetainedAxis twice did not panic")
		}
	}()
	w.RetainedAxis()
}
