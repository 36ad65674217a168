// Package recorder times spans of work that the application drives —
// request handlers, queue consumers, frames — one by one, and writes them
// as a flybench recording (man fb-stream(5)): a recording record, the
// retained span records and a recording_end record, one JSON object per
// line, which fb-analyze summarizes as individual-span distributions
// (sample_semantics "individual_span") and fb-record receives on its
// socket. The package imports the standard library only.
//
//	rec := recorder.New(recorder.Options{Out: f, Axes: recorder.ThreadCPU})
//	req := rec.Register("request")
//	if err := rec.Start(); err != nil { ... }
//	...
//	span := rec.Begin(req)
//	err := handle()
//	span.Finish(recorder.Success) // or Failure, Timeout, Cancelled
//	...
//	if err := rec.Stop(); err != nil { ... }
//
// # The boundary path
//
// Register allocates each benchmark's bounded store before Start; Begin
// returns a Span by value and Finish files it, and neither allocates on
// the heap. Begin reads the optional axes first and the monotonic clock
// last; Finish reads the monotonic clock first, before any axis and
// before it takes the benchmark's lock, so neither contention for the
// store nor the retention policy's work is inside the wall time. Each
// benchmark has its own lock, held for a few stores.
//
// # Retention
//
// A benchmark keeps at most Options.Capacity spans, chosen by the policy
// set before Start: Reservoir (the default) keeps a uniform random sample
// of every span that finished (Algorithm R, seeded from Options.Seed and
// the benchmark's index), FirstN the first to finish, LatestN the last.
// Every retained span keeps its observation number — its place, from 1,
// in the benchmark's finish order — its outcome, its start (nanoseconds
// since Start), its wall time and every requested axis. The
// recording_end record counts, per benchmark, the spans observed,
// retained and omitted by the policy, those begun and never finished by
// Stop, and the outcomes of all observed spans: nothing is dropped
// without being counted. The retained spans are written at Stop, in
// benchmark and observation order.
//
// # Streaming
//
// With Options.Stream, used for a connection to fb-record's socket, the
// spans are written while the recording runs, so fb-record's live
// display follows them. Register allocates a ring of
// Options.StreamBuffer spans per benchmark; Finish copies the span into
// it under the lock it already takes (no allocation, no wait for I/O),
// and a goroutine started by Start takes the spans out in chunks every
// 20 ms, formats them and writes them to Out. A span that finds its ring
// full is not lost and does not wait: it is offered to the store as
// without Stream (the policy samples among these overflow spans alone)
// and written at Stop if kept; Benchmark.Deferred counts them. Stop lets
// the writer empty the rings, then writes the stored spans and the
// recording_end record. The tally stays exact: retained counts every
// span written (streamed or stored), omitted only the overflow the
// policy dropped, so fb-record, which counts the spans it receives and
// adds the tally's remainder, counts each observation once. Streaming is
// off unless asked for, whatever Out is, because it writes every span:
// the output grows with the run, and retention is left to the reader.
//
// # Axes
//
// Wall time (axis "wall", the span's wall_ns, scope span_wall_clock) is
// always recorded. Options.Axes adds, in this order on every span:
//
//	option           axes                                 unit        scope      attribution
//	ThreadCPU        thread_cpu                           ns/op       os_thread  thread_window
//	ProcessCPU       process_cpu                          ns/op       process    process_window
//	ProcessRSS       process_rss_peak                     bytes       process    process_level_at_finish
//	ProcessFaults    process_minor_faults, ..._major_...  faults/op   process    process_window
//	ProcessSwitches  process_voluntary_switches,          switches/op process    process_window
//	                 process_involuntary_switches
//	ProcessIO        process_fs_inputs, ..._outputs       ops/op      process    process_window
//	PerfTaskClock    perf_task_clock                      ns/op       os_thread  thread_window
//	PerfContextSwitches perf_context_switches             switches/op os_thread  thread_window
//	PerfPageFaults   perf_page_faults                     faults/op   os_thread  thread_window
//
// thread_cpu is the CPU time of the OS thread that ran Begin, read from
// that thread's CPU clock at both boundaries, and kept only when Finish
// runs on the same thread; otherwise the span carries the status
// thread_migrated (with both thread ids) and no value, and the value is
// never attached to another thread or span. A goroutine that
// blocks — on I/O, a channel, a lock, a sleep — may be resumed on another
// thread, and one that runs may be preempted and resumed elsewhere, so
// spans that wait often migrate and compute-bound spans seldom do (in
// examples/recordsvc about half the 5 ms waits and a tenth of the 1 ms
// computations migrated). A span that stayed on
// one thread may still have let that thread run other goroutines while
// it waited, whose CPU time is then counted (attribution thread_window);
// a goroutine that holds runtime.LockOSThread for the whole span owns its
// thread, and its value is exactly its own.
//
// The perf axes (family software; PerfAxes requests all three, AllAxes
// none of them) are the Linux perf software events
// PERF_COUNT_SW_TASK_CLOCK, _CONTEXT_SWITCHES and _PAGE_FAULTS of the OS
// thread that ran Begin, counted in user and kernel mode, and kept only
// when Finish runs on the same thread, as thread_cpu. Each thread's three
// counters form one group, opened with perf_event_open by the first span
// that needs them on that thread (a Begin, before its reads, so that
// span's values are reported too; opening allocates nothing) and read
// with one read(2) per boundary. The groups live in a fixed table of
// 1024 threads shared by every recorder of the process and stay open
// (three descriptors per thread, close-on-exec) until the process ends;
// a thread beyond the table, or whose counters could not be opened,
// gets probe_failed. A thread that exits and whose id the kernel gives
// to a new thread of the process leaves stale counters under that id
// (the Go runtime ends a thread only when a goroutine exits holding
// runtime.LockOSThread). Start decides the axes' status once by opening
// the starting thread's counters: when the kernel refuses, the recording
// lists them as permission_denied (EACCES, EPERM: see
// /proc/sys/kernel/perf_event_paranoid), unsupported_event (ENOENT,
// EOPNOTSUPP, EINVAL) or unsupported_platform (ENOSYS; and off Linux),
// with the errno in the reason, and no span reads them or carries a
// value. task clock and thread_cpu measure the same thing by two
// mechanisms; a compute-bound span shows both within a few percent.
//
// The process axes come from getrusage(RUSAGE_SELF) at both boundaries
// (one call each, whichever of them are requested). They are scoped to
// the process: a difference includes every goroutine's work and the
// garbage collector's during the span, so with concurrent spans each
// value overlaps its neighbours'. getrusage reports CPU time in
// microseconds, so process_cpu moves in steps of 1000 ns.
// process_rss_peak is the process's peak resident set at Finish, a level
// rather than a difference. On platforms without a backend (thread_cpu
// anywhere but Linux; the process axes anywhere but Linux, darwin and
// FreeBSD) the recording lists the axis as
// unsupported_platform with its reason and every span carries that
// status, never a value. A read that fails carries probe_failed.
//
// Each axis costs system calls at both boundaries (thread_cpu two
// gettid and two clock reads, the process axes two getrusage, the perf
// axes two gettid and two reads of the group), which is why all of them
// are opt-in.
package recorder
