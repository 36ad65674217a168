package observe

import (
	"github.com/flybench/flybench/internal/axes"
	"github.com/flybench/flybench/internal/custom"
	"github.com/flybench/flybench/internal/perf"
	"github.com/flybench/flybench/internal/platform"
	"github.com/flybench/flybench/pkg/ndjson"
	"github.com/flybench/flybench/pkg/probes"
)

// CustomSource gives the raw custom-axis fields a case reported for its
// last batch (from a worker's done line or a batch's report channel).
type CustomSource interface {
	Reported() map[string]string
}

// Worker observes worker-mode batches: the worker process's own counters
// from /proc and its CPU-time clock, read immediately before and after each
// request, perf counters on the worker's threads, custom axes from its
// answers, and the run's telemetry.
type Worker struct {
	requested []axes.Axis
	pids      []int // the worker process of each case
	reader    ProcReader
	self      SelfReader
	clock     probes.Clock
	customs   []custom.Descriptor
	sources   []CustomSource
	timing    axes.Axis
	perf      map[int]*perf.Process // by pid
	probes    map[string]perf.Probe
	goos      string // the platform, which decides what /proc can show

	before   ProcSnapshot
	counters perf.ProcessSnapshot
	selfCPU  int64
	started  int64
	rss      int64
	rssAt    int64
	lastTele ndjson.Telemetry

	workerRSS, workerRSSAt int64
}

// NewWorker prepares the observer. pids[c] is case c's worker process;
// several cases may share one. Perf and software axes open counters on
// every thread of each worker.
func NewWorker(requested []axes.Axis, pids []int, customs []custom.Descriptor, sources []CustomSource, clock probes.Clock) *Worker {
	o := &Worker{pids: pids, reader: PidReader{}, self: procSelf{}, clock: clock,
		customs: customs, sources: sources, perf: map[int]*perf.Process{}, probes: map[string]perf.Probe{}, goos: platform.GOOS}
	var counters []string
	o.requested, counters = observed(requested)
	if len(counters) > 0 {
		o.openCounters(counters)
	}
	return o
}

func (o *Worker) openCounters(names []string) {
	for _, pid := range o.pids {
		if o.perf[pid] != nil {
			continue
		}
		s := perf.OpenProcess(pid, names)
		o.perf[pid] = s
		for _, p := range s.Probes() {
			if q, seen := o.probes[p.Axis]; !seen || q.Status == axes.Collected {
				o.probes[p.Axis] = p
			}
		}
	}
}

// Close releases the counters.
func (o *Worker) Close() {
	for _, s := range o.perf {
		s.Close()
	}
}

// Infos describes every requested and custom axis for the run record.
func (o *Worker) Infos() []ndjson.AxisInfo {
	return axisInfos(o.timing, o.requested, o.probeStatus, o.customs)
}

// SelfTimed names the timing axis "time" instead of "wall".
func (o *Worker) SelfTimed() { o.timing = axes.SelfTimeAxis() }

// CPUTimed names the timing axis "cpu_time", with wall time after it.
func (o *Worker) CPUTimed() { o.timing = axes.CPUTimeAxis() }

// probeStatus is how an axis came up before the first request: what a
// long-lived worker cannot show is unsupported in this mode.
func (o *Worker) probeStatus(a axes.Axis) (axes.Status, string) {
	switch {
	case a.Name == "fs_inputs" || a.Name == "fs_outputs":
		return axes.UnsupportedMode, fsReason
	case a.Family == axes.FamilyCgroup:
		return axes.UnsupportedMode, cgroupWorkerReason
	case a.Family == axes.FamilyPerf || a.Family == axes.FamilySoftware:
		p := o.probes[a.Name]
		return p.Status, p.Reason
	case !platform.Linux(o.goos):
		return axes.UnsupportedPlatform, platform.Reason("/proc/PID and the CPU-time clock of another process", o.goos)
	}
	return axes.Collected, ""
}

const cgroupWorkerReason = "worker mode: the worker is one process started once, so a cgroup's charge cannot be told apart per request; see rss_peak and the worker package's live_heap"

const fsReason = "worker mode: filesystem operation counts come only from wait4 when a process exits"

// Before snapshots the worker immediately before a request.
func (o *Worker) Before(c int) {
	pid := o.pids[c]
	if o.wants("rss_peak") {
		o.reader.ResetPeak(pid)
	}
	o.before = o.read(pid)
	if s := o.perf[pid]; s != nil {
		o.counters = s.Snapshot()
	}
	o.started = o.clock.Now()
	o.selfCPU = o.self.CPU()
}

// After fills the sample's axes and telemetry immediately after the answer.
func (o *Worker) After(c int, n int64, s *ndjson.Sample) {
	pid := o.pids[c]
	var deltas map[string]perf.Value
	if p := o.perf[pid]; p != nil {
		deltas = p.Delta(o.counters, p.Snapshot(), n)
	}
	after := o.read(pid)
	s.Axes = make(map[string]ndjson.AxisValue, len(o.requested)+len(o.customs))
	for _, a := range o.requested {
		s.Axes[a.Name] = o.value(a, o.before, after, deltas, n)
	}
	fillCustom(s, o.customs, o.sources[c], n)
	s.Tele = o.telemetry(after.CPUNS-o.before.CPUNS, after.RSSBytes)
}

// read snapshots the worker: every /proc counter when a resource axis is
// requested, else only its CPU clock (and, at most every 250 ms, its RSS),
// which is all telemetry needs and costs a fraction of the full read.
func (o *Worker) read(pid int) ProcSnapshot {
	for _, a := range o.requested {
		if a.Family == axes.FamilyRusage || a.Family == axes.FamilyIO {
			return o.reader.Read(pid)
		}
	}
	var s ProcSnapshot
	s.CPUNS, s.Err = processCPU(pid)
	if now := o.clock.Now(); o.workerRSSAt == 0 || now-o.workerRSSAt >= rssEvery {
		full := o.reader.Read(pid)
		o.workerRSS, o.workerRSSAt = full.RSSBytes, now
	}
	s.RSSBytes = o.workerRSS
	return s
}

func (o *Worker) wants(name string) bool {
	for _, a := range o.requested {
		if a.Name == name {
			return true
		}
	}
	return false
}

// value is one built-in axis of one request.
func (o *Worker) value(a axes.Axis, b, e ProcSnapshot, deltas map[string]perf.Value, n int64) ndjson.AxisValue {
	if a.Family == axes.FamilyPerf || a.Family == axes.FamilySoftware {
		return perfValue(deltas, a.Name)
	}
	if st, _ := o.probeStatus(a); st != axes.Collected {
		return ndjson.AxisValue{S: string(st)}
	}
	if e.Err != nil || b.Err != nil {
		return ndjson.AxisValue{S: string(axes.ProbeFailed), R: firstErr(b.Err, e.Err).Error()}
	}
	if a.Family == axes.FamilyIO && (e.IOErr != nil || b.IOErr != nil) {
		return ndjson.AxisValue{S: string(axes.ProbeFailed), R: firstErr(b.IOErr, e.IOErr).Error()}
	}
	if err := fieldErr(a.Name, b, e); err != nil {
		return ndjson.AxisValue{S: string(axes.ProbeFailed), R: err.Error()}
	}
	v, ok := procValue(a.Name, b, e, n)
	if !ok {
		return ndjson.AxisValue{S: string(axes.ProbeFailed), R: "counter went backwards (a thread exited during the request)"}
	}
	return ndjson.Collected(v)
}

// procFields names the /proc field each axis is computed from.
var procFields = map[string]string{
	"minor_faults": FieldMinorFaults, "major_faults": FieldMajorFaults,
	"voluntary_switches": FieldVoluntarySwitches, "involuntary_switches": FieldInvoluntarySwitches,
	"rss_change": FieldRSS, "rss_peak": FieldPeakRSS,
}

// fieldErr is why the /proc field axis name is computed from was not read
// in b or e, or nil. rss_peak is a level read after the request alone.
func fieldErr(name string, b, e ProcSnapshot) error {
	field, ok := procFields[name]
	if !ok {
		return nil
	}
	if name == "rss_peak" {
		return e.FieldErr[field]
	}
	return firstErr(b.FieldErr[field], e.FieldErr[field])
}

func firstErr(errs ...error) error {
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

// procValue computes a /proc axis from two snapshots.
func procValue(name string, b, e ProcSnapshot, n int64) (float64, bool) {
	delta := map[string]int64{
		"cpu": e.CPUNS - b.CPUNS, "rss_change": e.RSSBytes - b.RSSBytes,
		"minor_faults": e.MinorFaults - b.MinorFaults, "major_faults": e.MajorFaults - b.MajorFaults,
		"voluntary_switches": e.VoluntarySwitches - b.VoluntarySwitches, "involuntary_switches": e.InvoluntarySwitches - b.InvoluntarySwitches,
		"read_bytes": e.ReadBytes - b.ReadBytes, "write_bytes": e.WriteBytes - b.WriteBytes,
	}
	if name == "rss_peak" {
		return float64(e.PeakRSSBytes), true
	}
	d := delta[name]
	if d < 0 && name != "rss_change" {
		return 0, false
	}
	return float64(d) / float64(n), true
}

func perfValue(deltas map[string]perf.Value, name string) ndjson.AxisValue {
	d, ok := deltas[name]
	if !ok {
		return ndjson.AxisValue{S: string(axes.ProbeFailed), R: "no counter value"}
	}
	if d.Status != axes.Collected {
		return ndjson.AxisValue{S: string(d.Status)}
	}
	return ndjson.Collected(d.V)
}

// fillCustom turns a case's reported custom fields into axis values; an
// axis the batch did not report has no value.
func fillCustom(s *ndjson.Sample, customs []custom.Descriptor, src CustomSource, n int64) {
	if len(customs) == 0 {
		return
	}
	if s.Axes == nil {
		s.Axes = make(map[string]ndjson.AxisValue, len(customs))
	}
	var reported map[string]string
	if src != nil {
		reported = src.Reported()
	}
	for _, d := range customs {
		raw, ok := reported[d.Name]
		if !ok {
			s.Axes[d.Name] = ndjson.AxisValue{S: string(axes.ProbeFailed), R: "not reported for this batch"}
			continue
		}
		s.Axes[d.Name] = d.Value(raw, n)
	}
}

// telemetry is the run's CPU (this tool and the worker) and memory.
func (o *Worker) telemetry(workerCPU, workerRSS int64) *ndjson.Telemetry {
	wall := o.clock.Now() - o.started
	if now := o.clock.Now(); o.rssAt == 0 || now-o.rssAt >= rssEvery {
		o.rss, o.rssAt = o.self.RSS(), now
	}
	t := &ndjson.Telemetry{RSSBytes: o.rss + workerRSS}
	if wall > 0 {
		t.CPUPct = 100 * float64(o.self.CPU()-o.selfCPU+workerCPU) / float64(wall)
	}
	o.lastTele = *t
	return t
}
