package recorder

// Axis selects optional measurement axes, combined with |. Wall time is
// always recorded. Each axis costs system calls at both boundaries of
// every span, so all of them are opt-in.
type Axis uint16

const (
	// ThreadCPU is the CPU time of the OS thread that ran the span
	// (clock_gettime(CLOCK_THREAD_CPUTIME_ID), Linux only), kept only when
	// Begin and Finish ran on the same thread; see the package comment.
	ThreadCPU Axis = 1 << iota
	// ProcessCPU is the user plus system CPU time of the whole process
	// between the boundaries (getrusage(RUSAGE_SELF)): every goroutine's
	// work and the garbage collector's, not the span's alone.
	ProcessCPU
	// ProcessRSS is the process's peak resident set at Finish (ru_maxrss).
	ProcessRSS
	// ProcessFaults are the process's minor and major page faults between
	// the boundaries.
	ProcessFaults
	// ProcessSwitches are the process's voluntary and involuntary context
	// switches between the boundaries.
	ProcessSwitches
	// ProcessIO are the process's filesystem input and output operations
	// between the boundaries (ru_inblock, ru_oublock).
	ProcessIO
	// PerfTaskClock is the OS thread's task clock between the boundaries
	// (perf software event PERF_COUNT_SW_TASK_CLOCK, user and kernel time,
	// Linux only), kept only when Begin and Finish ran on the same thread.
	PerfTaskClock
	// PerfContextSwitches are the OS thread's context switches between the
	// boundaries (PERF_COUNT_SW_CONTEXT_SWITCHES), as PerfTaskClock.
	PerfContextSwitches
	// PerfPageFaults are the OS thread's page faults between the
	// boundaries (PERF_COUNT_SW_PAGE_FAULTS), as PerfTaskClock.
	PerfPageFaults

	// AllAxes requests every axis but the perf ones, which open counters
	// per OS thread and are requested by name or with PerfAxes.
	AllAxes = ThreadCPU | ProcessCPU | ProcessRSS | ProcessFaults | ProcessSwitches | ProcessIO
	// PerfAxes requests the three perf software events.
	PerfAxes = PerfTaskClock | PerfContextSwitches | PerfPageFaults
	// threadAxes are the axes read per OS thread, kept only when both
	// boundaries ran on one thread.
	threadAxes = ThreadCPU | PerfAxes
	// processAxes are the axes one getrusage call serves.
	processAxes = ProcessCPU | ProcessRSS | ProcessFaults | ProcessSwitches | ProcessIO
)

// Axis statuses, as the stream spells them (man fb-stream(5)).
const (
	statusCollected   = "collected"
	statusMigrated    = "thread_migrated"
	statusUnsupported = "unsupported_platform"
	statusProbeFailed = "probe_failed"
	statusPermission  = "permission_denied"
	statusNoEvent     = "unsupported_event"
)

// Scopes and attributions of the recorder's axes.
const (
	scopeSpan    = "span_wall_clock"
	scopeThread  = "os_thread"
	scopeProcess = "process"

	attrExact = "exact_window"
	// attrThread: the thread's CPU between the boundaries, which includes
	// any other goroutine the thread ran meanwhile.
	attrThread = "thread_window"
	// attrProcess: the whole process's usage between the boundaries.
	attrProcess = "process_window"
	// attrLevel: a level read at Finish, not a difference.
	attrLevel = "process_level_at_finish"
)

// axisDesc describes one axis of the stream: what the recording record
// lists for it. field is the index of its value in a row's vals.
type axisDesc struct {
	name, unit, family, scope, attribution, direction, normalization string
	sel                                                              Axis
	field                                                            int
}

// Indexes into a row's vals, and into a process snapshot for the
// cumulative rusage counters.
const (
	fThreadCPU = iota
	fProcCPU
	fMinFlt
	fMajFlt
	fNvcsw
	fNivcsw
	fInblock
	fOublock
	fRSS
	fPerfClock
	fPerfSwitches
	fPerfFaults
	nFields
	// nCounters are the cumulative counters a process snapshot holds,
	// fProcCPU..fOublock shifted down by one.
	nCounters = fRSS - fProcCPU
	// nPerf are the perf software events of a thread's counter group.
	nPerf = fPerfFaults - fPerfClock + 1
)

// wallDesc is the wall-time axis, always collected.
var wallDesc = axisDesc{"wall", "ns/op", "time", scopeSpan, attrExact, "lower", "per_operation", 0, -1}

// catalogue lists the optional axes in the order spans carry them.
var catalogue = []axisDesc{
	{"thread_cpu", "ns/op", "thread", scopeThread, attrThread, "lower", "per_operation", ThreadCPU, fThreadCPU},
	{"process_cpu", "ns/op", "rusage", scopeProcess, attrProcess, "lower", "per_operation", ProcessCPU, fProcCPU},
	{"process_rss_peak", "bytes", "rusage", scopeProcess, attrLevel, "diagnostic", "absolute", ProcessRSS, fRSS},
	{"process_minor_faults", "faults/op", "rusage", scopeProcess, attrProcess, "lower", "per_operation", ProcessFaults, fMinFlt},
	{"process_major_faults", "faults/op", "rusage", scopeProcess, attrProcess, "lower", "per_operation", ProcessFaults, fMajFlt},
	{"process_voluntary_switches", "switches/op", "rusage", scopeProcess, attrProcess, "lower", "per_operation", ProcessSwitches, fNvcsw},
	{"process_involuntary_switches", "switches/op", "rusage", scopeProcess, attrProcess, "lower", "per_operation", ProcessSwitches, fNivcsw},
	{"process_fs_inputs", "ops/op", "rusage", scopeProcess, attrProcess, "lower", "per_operation", ProcessIO, fInblock},
	{"process_fs_outputs", "ops/op", "rusage", scopeProcess, attrProcess, "lower", "per_operation", ProcessIO, fOublock},
	{"perf_task_clock", "ns/op", "software", scopeThread, attrThread, "lower", "per_operation", PerfTaskClock, fPerfClock},
	{"perf_context_switches", "switches/op", "software", scopeThread, attrThread, "lower", "per_operation", PerfContextSwitches, fPerfSwitches},
	{"perf_page_faults", "faults/op", "software", scopeThread, attrThread, "lower", "per_operation", PerfPageFaults, fPerfFaults},
}

// requested is the catalogue's axes that sel selects, in order.
func requested(sel Axis) []axisDesc {
	var out []axisDesc
	for _, d := range catalogue {
		if sel&d.sel != 0 {
			out = append(out, d)
		}
	}
	return out
}
