// Package worker makes a Go program a flybench worker (man fb-worker(7)):
// a long-lived process that runs N iterations of a named case when the
// harness asks and reports the elapsed time of those iterations alone, so
// that operations of a few nanoseconds can be compared without the cost of
// a process start or a request round trip.
//
//	func main() {
//		w := worker.New()
//		w.Case("sum", func(n int) { ... })
//		w.CaseResult("hash", func(n int) any { ...; return h })
//		w.RuntimeAxes()
//		os.Exit(w.Main())
//	}
//
// # Timing
//
// For each request the worker runs any setup, reads the monotonic clock,
// calls the case function once with n, reads the clock again, and reports
// the difference as elapsed_ns; the function must perform exactly n
// logical operations. Nothing else happens between the two clock reads:
// no protocol I/O, no axis reads, no setup or teardown, no result sink.
// time.Now and time.Since read the monotonic clock (on Linux the vDSO
// clock_gettime(CLOCK_MONOTONIC), which the timer line names with its
// clock_getres resolution). The clock reads themselves cost tens of
// nanoseconds once per batch, which the harness amortizes by choosing n.
//
// # Keeping the work alive
//
// The Go compiler deletes computations whose results are never used: an
// unused value, a call to an inlined function with no side effects, a
// store to a local that is never read. A loop whose sum is discarded can
// keep nothing but its counter and branch (Go 1.26 compiles a discarded
// sum of words[i&3]*3 to exactly that), and the benchmark then times an
// empty loop. It also folds constants, so an operation on a constant
// input may be computed at compile time. Today it does not delete loops,
// hoist a pure computation out of a loop, or see through a call it did not
// inline, but none of that is promised, so a benchmark should not rely on it.
//
// So every iteration's result must feed something the compiler cannot
// drop, and the inputs must come from memory rather than constants. The
// patterns, from the preferred one:
//
//   - CaseResult: accumulate into a local that every iteration updates and
//     return it. The worker passes it to KeepAlive after the ending clock
//     read, so the sink costs nothing
//     inside the timed interval. Returning a non-pointer value as an any
//     boxes it once per batch, inside the interval: a few nanoseconds
//     divided by n.
//   - Case with KeepAlive after the loop: the same, for a case that needs
//     its result elsewhere too; call KeepAlive once, after the loop.
//   - A store to a package-level variable at the end of the loop: the
//     compiler keeps stores to memory other code may read.
//
// KeepAlive is an opaque barrier: a function the compiler does not inline,
// which would print its argument if an atomic flag that is never set said
// so. The compiler cannot know the flag's value, so it must compute the
// argument; and since printing does not make it escape, passing a value
// does not allocate. Being an out-of-line
// call of a few nanoseconds, it belongs after the ending timestamp or at
// least outside the loop; inside a nanosecond operation it would time the
// call as part of the operation. Every call the compiler does not inline
// is also a barrier to moving loads and stores of escaped memory across it.
//
// # Setup, teardown and failures
//
// CaseHooks runs an untimed setup before the starting clock read and an
// untimed teardown after the ending one (Measure_With_Hooks). Teardown also
// runs when the case panics; the panic then becomes an "error" answer with
// its message, and its stack goes to stderr, which the harness shows on
// request. A panic in setup skips the case and its teardown.
//
// # Custom axes
//
// RuntimeAxes adds four axes read from runtime/metrics around each batch:
//
//	alloc_bytes    bytes/op         churn: heap bytes allocated (cumulative)
//	alloc_objects  objects/op       heap objects allocated (cumulative)
//	gc_cycles      gc-cycles/batch  GC cycles completed during the batch (cumulative, per batch)
//	live_heap      bytes            live heap marked by the latest GC (absolute, diagnostic)
//
// These are the churn (memory allocated) and live-heap numbers; the worker
// runs one collection before its first batch, so live_heap reads from the
// first batch on. The third, retained memory (the live heap's growth over
// a batch), needs a forced collection before and after each batch, which
// changes the heap every batch is timed in; RetainedAxis declares it, for a
// worker that measures memory rather than time. The counters are
// process-wide, and the Go runtime counts a small object only when the
// span holding it leaves its P's cache, so a reading lags by at most about
// one span (8 KiB) per size class and P; with thousands of allocations per
// batch the error is well under one percent, and a case that does not
// allocate reads 0. They are compared as differences (compare=absolute),
// since a case that does not allocate has zero bytes per operation, which
// a ratio cannot compare.
//
// Axis declares an axis of the program's own, read by a function before
// and after each batch (cumulative) or after it (absolute, elapsed).
package worker
