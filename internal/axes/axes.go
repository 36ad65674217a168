// Package axes is the catalogue of measurement axes: every quantity that
// rides the sampling schedule next to wall time, with the four facts each
// carries (status, scope, attribution, direction), its unit and how a batch
// value is normalized. Names here are the stream's and the --metrics flag's.
//
// The package imports the standard library only: the Go worker package,
// which worker programs link, uses its naming rules.
package axes

import (
	"slices"
	"strings"

	"github.com/flybench/flybench/internal/field"
)

// Status says whether an axis has a value, and if not, exactly why. An axis
// without a value never carries one and never reads as zero.
type Status string

const (
	Collected                   Status = "collected"
	PartiallyCollected          Status = "partially_collected" // some samples have a value, some do not
	NotRequested                Status = "not_requested"
	UnsupportedPlatform         Status = "unsupported_platform"          // no backend on this OS
	PermissionDenied            Status = "permission_denied"             // the kernel refused access
	UnsupportedEvent            Status = "unsupported_event"             // no PMU, or the PMU lacks the event
	CounterResourcesUnavailable Status = "counter_resources_unavailable" // could not be scheduled or allocated
	ProbeFailed                 Status = "probe_failed"                  // a snapshot, control or read failed, or attributes were rejected
	UnsupportedMode             Status = "unsupported_mode"              // the execution mode cannot observe this axis
	Unattributable              Status = "unattributable"                // a value was read but cannot be told apart from the harness's own
	CounterReset                Status = "counter_reset"                 // a cumulative counter went backwards
	InvalidValue                Status = "invalid_value"                 // NaN, infinite, or a negative elapsed time
	ConversionOverflow          Status = "conversion_overflow"           // a delta or unit conversion overflowed
)

// Available reports whether every sample has a value: only then may the
// axis be summarized and compared.
func (s Status) Available() bool { return s == Collected }

// Text is the status as people read it: "unsupported event".
func (s Status) Text() string { return strings.ReplaceAll(string(s), "_", " ") }

// Direction is whether less or more of an axis is normally favourable.
type Direction string

const (
	LowerIsBetter  Direction = "lower"
	HigherIsBetter Direction = "higher"
	Diagnostic     Direction = "diagnostic" // no better/worse verdict
)

// Normalization is how a batch value becomes a sample value.
type Normalization string

const (
	PerOperation Normalization = "per_operation" // batch delta divided by the logical operation count
	Absolute     Normalization = "absolute"      // a level observed for the batch, not divided
	Ratio        Normalization = "ratio"         // a dimensionless ratio of two deltas of one window
)

// Scopes: what a value covers.
const (
	ScopeBatchWallClock   = "batch_wall_clock"  // elapsed time around the batch
	ScopeOperationProcess = "operation_process" // each run's own process, from wait4 or /proc before reaping
	ScopeNativeTaskTree   = "native_task_tree"  // the harness's forking thread and the processes it starts
	ScopeHarnessProcess   = "harness_process"   // the measuring tool itself (telemetry only)
	ScopeOperationCgroup  = "operation_cgroup"  // each run's whole process tree, in a memory cgroup of the command's own
)

// Attributions: how well a value belongs to the measured operation.
const (
	AttrExactWindow    = "exact_window"            // the value belongs to the measured window alone
	AttrNativeTaskTree = "native_task_tree_window" // includes the forking thread's own work around each run
)

// Axis describes one measurement axis.
type Axis struct {
	Name          string
	Unit          string // after normalization
	Family        string // time, rusage, io, cgroup, perf, software
	Scope         string
	Attribution   string
	Direction     Direction
	Normalization Normalization
	Description   string
}

// Families of axes, which are also named sets.
const (
	FamilyTime     = "time"
	FamilyRusage   = "rusage"
	FamilyIO       = "io"
	FamilyPerf     = "perf"
	FamilySoftware = "software"
	FamilyCgroup   = "cgroup"
)

// Wall is the calibration and budget clock; it is always recorded.
const Wall = "wall"

// SelfTime names the timing axis of a run timed by the batches' or
// workers' own reports (the run record's timer says which report).
const SelfTime = "time"

// CPUTime names the timing axis of a run timed by CPU time (--timer cpu).
// Wall time is then an ordinary axis of the run, following it.
const CPUTime = "cpu_time"

// IsTiming reports whether name can be a run's timing axis: wall time, or
// the self-reported or CPU time that replaces it.
func IsTiming(name string) bool { return name == Wall || name == SelfTime || name == CPUTime }

// Extra reports whether the axis called name at position i of a run's,
// summary's or comparison's axes is one besides the run's timing axis.
// The timing axis comes first; under a CPU timer wall time follows it as
// an ordinary axis, so a name alone does not decide.
func Extra(i int, name string) bool { return i > 0 || !IsTiming(name) }

// SelfTimeAxis describes the self-reported timing axis.
func SelfTimeAxis() Axis {
	return Axis{SelfTime, "ns/op", FamilyTime, "caller_defined_window", AttrExactWindow, LowerIsBetter, PerOperation,
		"elapsed time per logical operation as the batch process or worker reported it"}
}

// CPUTimeAxis describes the CPU-time timing axis.
func CPUTimeAxis() Axis {
	return Axis{CPUTime, "ns/op", FamilyTime, ScopeOperationProcess, AttrExactWindow, LowerIsBetter, PerOperation,
		"user plus system CPU time per logical operation, the run's primary timer when the CPU timer is chosen"}
}

// catalogue lists every built-in axis in report order.
var catalogue = []Axis{
	{Wall, "ns/op", FamilyTime, ScopeBatchWallClock, AttrExactWindow, LowerIsBetter, PerOperation, "monotonic elapsed time per logical operation"},
	{"cpu", "ns/op", FamilyRusage, ScopeOperationProcess, AttrExactWindow, LowerIsBetter, PerOperation, "user plus system CPU time of the operation's process (wait4)"},
	{"rss_peak", "bytes", FamilyRusage, ScopeOperationProcess, AttrExactWindow, Diagnostic, Absolute, "largest peak resident set of any run in the batch (wait4 ru_maxrss)"},
	{"rss_change", "bytes/op", FamilyRusage, ScopeOperationProcess, AttrExactWindow, LowerIsBetter, PerOperation, "resident-set change of the measured process across the batch"},
	{"minor_faults", "faults/op", FamilyRusage, ScopeOperationProcess, AttrExactWindow, LowerIsBetter, PerOperation, "minor page faults"},
	{"major_faults", "faults/op", FamilyRusage, ScopeOperationProcess, AttrExactWindow, LowerIsBetter, PerOperation, "major page faults"},
	{"voluntary_switches", "switches/op", FamilyRusage, ScopeOperationProcess, AttrExactWindow, LowerIsBetter, PerOperation, "voluntary context switches"},
	{"involuntary_switches", "switches/op", FamilyRusage, ScopeOperationProcess, AttrExactWindow, LowerIsBetter, PerOperation, "involuntary context switches"},
	{"fs_inputs", "ops/op", FamilyRusage, ScopeOperationProcess, AttrExactWindow, LowerIsBetter, PerOperation, "filesystem input operations (ru_inblock)"},
	{"fs_outputs", "ops/op", FamilyRusage, ScopeOperationProcess, AttrExactWindow, LowerIsBetter, PerOperation, "filesystem output operations (ru_oublock)"},
	{"mem_peak", "bytes", FamilyCgroup, ScopeOperationCgroup, AttrExactWindow, Diagnostic, Absolute, "largest memory charged to the command's cgroup during the batch above its charge when the batch began: the runs' process trees' anonymous memory, page cache and kernel memory (memory.peak, or v1's memory.max_usage_in_bytes)"},
	{"read_bytes", "bytes/op", FamilyIO, ScopeOperationProcess, AttrExactWindow, LowerIsBetter, PerOperation, "bytes fetched from storage (/proc/PID/io read_bytes)"},
	{"write_bytes", "bytes/op", FamilyIO, ScopeOperationProcess, AttrExactWindow, LowerIsBetter, PerOperation, "bytes sent to storage (/proc/PID/io write_bytes)"},
	{"cycles", "cycles/op", FamilyPerf, ScopeNativeTaskTree, AttrNativeTaskTree, LowerIsBetter, PerOperation, "user-space CPU cycles (perf, grouped with instructions)"},
	{"instructions", "instructions/op", FamilyPerf, ScopeNativeTaskTree, AttrNativeTaskTree, LowerIsBetter, PerOperation, "user-space retired instructions (perf, grouped with cycles)"},
	{"ipc", "instructions/cycle", FamilyPerf, ScopeNativeTaskTree, AttrNativeTaskTree, HigherIsBetter, Ratio, "instructions per cycle from one group window"},
	{"cache_misses", "misses/op", FamilyPerf, ScopeNativeTaskTree, AttrNativeTaskTree, LowerIsBetter, PerOperation, "user-space cache misses (perf)"},
	{"branches", "branches/op", FamilyPerf, ScopeNativeTaskTree, AttrNativeTaskTree, LowerIsBetter, PerOperation, "user-space branch instructions (perf)"},
	{"branch_misses", "misses/op", FamilyPerf, ScopeNativeTaskTree, AttrNativeTaskTree, LowerIsBetter, PerOperation, "user-space mispredicted branches (perf)"},
	{"task_clock", "ns/op", FamilySoftware, ScopeNativeTaskTree, AttrNativeTaskTree, LowerIsBetter, PerOperation, "CPU time on task (perf software event)"},
	{"context_switches", "switches/op", FamilySoftware, ScopeNativeTaskTree, AttrNativeTaskTree, LowerIsBetter, PerOperation, "context switches (perf software event)"},
	{"cpu_migrations", "migrations/op", FamilySoftware, ScopeNativeTaskTree, AttrNativeTaskTree, Diagnostic, PerOperation, "migrations between CPUs (perf software event)"},
	{"page_faults", "faults/op", FamilySoftware, ScopeNativeTaskTree, AttrNativeTaskTree, LowerIsBetter, PerOperation, "page faults (perf software event)"},
}

// Lookup returns the built-in axis called name.
func Lookup(name string) (Axis, bool) {
	i := slices.IndexFunc(catalogue, func(a Axis) bool { return a.Name == name })
	if i < 0 {
		return Axis{}, false
	}
	return catalogue[i], true
}

// All returns every built-in axis in report order.
func All() []Axis { return slices.Clone(catalogue) }

// sets are the named selections --metrics accepts besides single axes.
var sets = map[string][]string{
	"time":      {FamilyTime},
	"resources": {FamilyRusage, FamilyCgroup, FamilyIO},
	"perf":      {FamilyPerf},
	"software":  {FamilySoftware},
	"all":       {FamilyTime, FamilyRusage, FamilyCgroup, FamilyIO, FamilyPerf, FamilySoftware},
}

// SetNames lists the named sets.
func SetNames() []string { return []string{"time", "resources", "perf", "software", "all"} }

// FieldSelection is an axis selection as Select's field error names it.
const FieldSelection = "axes.Selection"

// Select parses an axis selection: comma-separated set names and axis
// names. Wall time is always included; the result is in report order.
func Select(spec string) ([]Axis, error) {
	want := map[string]bool{Wall: true}
	for _, item := range strings.Split(spec, ",") {
		item = strings.TrimSpace(item)
		if item == "" {
			continue
		}
		if fams, ok := sets[item]; ok {
			for _, a := range catalogue {
				want[a.Name] = want[a.Name] || slices.Contains(fams, a.Family)
			}
			continue
		}
		if _, ok := Lookup(item); !ok {
			return nil, field.Errorf(FieldSelection, item, "%s: unknown axis or set %q (sets: %s; axes: %s)", field.Name(FieldSelection),
				item, strings.Join(SetNames(), ", "), strings.Join(append(names(), InstructionsSim), ", "))
		}
		want[item] = true
	}
	var out []Axis
	for _, a := range catalogue {
		if want[a.Name] {
			out = append(out, a)
		}
	}
	return out, nil
}

func names() []string {
	out := make([]string, len(catalogue))
	for i, a := range catalogue {
		out[i] = a.Name
	}
	return out
}
