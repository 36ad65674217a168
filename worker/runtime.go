package worker

import (
	"math"
	"runtime/metrics"
)

// runtimeAxes are the axes RuntimeAxes declares and the runtime/metrics
// names they read. The counters cover the whole process during the
// batch's window (attribution process_window); the live heap is what the
// latest garbage collection marked live (attribution latest_gc).
var runtimeAxes = []struct {
	decl   AxisDecl
	metric string
}{
	{AxisDecl{Name: "alloc_bytes", Unit: "bytes/op", Compare: "absolute", Scope: "go_heap", Attribution: "process_window"},
		"/gc/heap/allocs:bytes"},
	{AxisDecl{Name: "alloc_objects", Unit: "objects/op", Compare: "absolute", Scope: "go_heap", Attribution: "process_window"},
		"/gc/heap/allocs:objects"},
	{AxisDecl{Name: "gc_cycles", Unit: "gc-cycles/batch", Normalize: "batch", Compare: "absolute", Scope: "go_runtime", Attribution: "process_window"},
		"/gc/cycles/total:gc-cycles"},
	{AxisDecl{Name: "live_heap", Unit: "bytes", Direction: "diagnostic", Semantics: "absolute", Normalize: "batch", Compare: "absolute", Scope: "go_heap", Attribution: "latest_gc"},
		"/gc/heap/live:bytes"},
}

// RuntimeAxes declares alloc_bytes, alloc_objects, gc_cycles and
// live_heap, read from runtime/metrics around each batch (see the package
// comment). Call it at most once; the four count toward the limit of
// eight custom axes.
func (w *Worker) RuntimeAxes() {
	if w.runtim {
		panic("worker: RuntimeAxes called twice")
	}
	w.runtim = true
	for i, r := range runtimeAxes {
		w.addAxis(&axis{decl: r.decl, runtime: i})
	}
}

// RetainedAxis declares retained, the live heap's growth over a batch in
// bytes per operation: a full garbage collection runs after the case's
// setup and again after the ending clock read, both untimed, and the axis
// is the difference of the live heap they leave (compared as a paired
// difference; negative when a batch frees more than it keeps). It is the
// third of churn (RuntimeAxes' alloc_bytes), live heap and retained. The
// collection before each batch changes what the batch is timed in: every
// batch then starts from a freshly collected heap, which in this project's
// measurements made an allocating case's time per operation depend on the
// batch size (+8% per doubling); declare it in a worker that measures
// memory, apart from one whose times are compared. It counts toward the
// limit of eight custom axes and panics when called twice.
func (w *Worker) RetainedAxis() {
	if w.retain {
		panic("worker: RetainedAxis called twice")
	}
	w.retain = true
	w.addAxis(&axis{decl: AxisDecl{Name: "retained", Unit: "bytes/op", Direction: "lower", Semantics: "absolute",
		Compare: "absolute", Scope: "go_heap", Attribution: "forced_gc"}, runtime: retainedAxis})
}

// retainedAxis marks the retained axis among the axes (runtime's index
// field): the meter fills it from its own collections.
const retainedAxis = -2

// liveHeapNow reads the live heap the latest collection marked.
func liveHeapNow() (uint64, bool) {
	s := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	metrics.Read(s)
	if s[0].Value.Kind() != metrics.KindUint64 {
		return 0, false
	}
	return s[0].Value.Uint64(), true
}

// liveHeap and gcCycles index runtimeAxes.
const (
	gcCycles = 2
	liveHeap = 3
)

// collected reports whether a garbage collection has run by the end of the
// batch; before the first one the live-heap metric reads 0, which is not a
// measurement.
func (r *runtimeReader) collected() bool {
	s := r.end[gcCycles]
	return s.Value.Kind() == metrics.KindUint64 && s.Value.Uint64() > 0
}

// runtimeReader reads the runtime axes with one metrics.Read per side of
// the batch into preallocated samples, which does not allocate.
type runtimeReader struct {
	begin, end []metrics.Sample
}

func newRuntimeReader() *runtimeReader {
	r := &runtimeReader{begin: make([]metrics.Sample, len(runtimeAxes)), end: make([]metrics.Sample, len(runtimeAxes))}
	for i, a := range runtimeAxes {
		r.begin[i].Name, r.end[i].Name = a.metric, a.metric
	}
	return r
}

// reading turns sample i into a Reading; a metric this Go does not have
// (KindBad) or a counter past int64 is a failed reading.
func reading(s metrics.Sample) Reading {
	if s.Value.Kind() != metrics.KindUint64 {
		return Reading{}
	}
	v := s.Value.Uint64()
	if v > math.MaxInt64 {
		return Reading{}
	}
	return Reading{Count: int64(v), Value: float64(v), OK: true}
}
