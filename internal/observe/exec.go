// Package observe collects the axes that ride next to wall time on every
// timed batch, and the run's telemetry, outside the timed region. Exec is
// the exec mode: each logical operation is a child process.
package observe

import (
	"errors"
	"fmt"
	"io/fs"

	"github.com/flybench/flybench/internal/axes"
	"github.com/flybench/flybench/internal/custom"
	"github.com/flybench/flybench/internal/perf"
	"github.com/flybench/flybench/internal/platform"
	"github.com/flybench/flybench/internal/runner"
	"github.com/flybench/flybench/pkg/ndjson"
	"github.com/flybench/flybench/pkg/probes"
)

// UsageSource is what the exec observer needs of a prepared command: the
// resources its children used in the last batch.
type UsageSource interface {
	Usage() runner.Usage
}

// Exec observes exec-mode batches: wait4 rusage and /proc/PID/io of each
// run (exact: the operation's own processes), perf counters of the forking
// thread's task tree, and telemetry of the whole run.
type Exec struct {
	requested []axes.Axis
	commands  []UsageSource
	perf      *perf.Session
	probes    map[string]perf.Probe
	self      SelfReader
	clock     probes.Clock
	customs   []custom.Descriptor
	sources   []CustomSource
	timing    axes.Axis // zero: wall time
	goos      string    // the platform, which decides what /proc can show

	peak     func() runner.Peak       // the peak method, for the run record
	cgroups  func() runner.MemCgroups // where mem_peak's cgroups are made
	before   perf.Snapshot
	selfCPU  int64
	rss      int64
	rssAt    int64
	started  int64
	lastTele ndjson.Telemetry
}

// observed is what an observer reads of the requested axes: all but wall
// time, which is the sample itself, and among them the names of the perf
// and software counters to open.
func observed(requested []axes.Axis) (observe []axes.Axis, counters []string) {
	for _, a := range requested {
		if a.Name == axes.Wall {
			continue
		}
		observe = append(observe, a)
		if a.Family == axes.FamilyPerf || a.Family == axes.FamilySoftware {
			counters = append(counters, a.Name)
		}
	}
	return observe, counters
}

// NewExec prepares the observer for the requested axes (wall time, if
// present, is the sample itself and is skipped). When any perf or software
// axis is requested it opens counters on the calling thread, which must be
// locked to its goroutine and must run every batch.
func NewExec(requested []axes.Axis, commands []UsageSource, clock probes.Clock) *Exec {
	o := &Exec{commands: commands, self: procSelf{}, clock: clock, probes: map[string]perf.Probe{}, goos: platform.GOOS, peak: runner.ChoosePeak, cgroups: runner.ChooseCgroups}
	var counters []string
	o.requested, counters = observed(requested)
	if len(counters) > 0 {
		o.perf = perf.Open(counters)
		for _, p := range o.perf.Probes() {
			o.probes[p.Axis] = p
		}
	}
	return o
}

// WithCustom adds custom axes, read per batch from each case's source
// (the batch report channel).
func (o *Exec) WithCustom(customs []custom.Descriptor, sources []CustomSource) *Exec {
	o.customs, o.sources = customs, sources
	return o
}

// Close releases the counters; call it on the thread that opened them.
func (o *Exec) Close() {
	if o.perf != nil {
		o.perf.Close()
	}
}

// Infos describes every requested axis for the run record, wall time first,
// with the outcome of its probe.
func (o *Exec) Infos() []ndjson.AxisInfo {
	infos := axisInfos(o.timing, o.requested, o.probeStatus, o.customs)
	for i := range infos {
		switch infos[i].Name {
		case "rss_peak":
			p := o.peak()
			infos[i].Method, infos[i].MethodNote = string(p.Method), p.Note()
		case "mem_peak":
			m := o.cgroups()
			infos[i].Method, infos[i].MethodNote = m.Method(), m.Note()
		}
	}
	return infos
}

// SelfTimed names the timing axis "time" instead of "wall": the run is
// timed by its batches' own reports.
func (o *Exec) SelfTimed() { o.timing = axes.SelfTimeAxis() }

// CPUTimed names the timing axis "cpu_time" and records wall time as an
// ordinary axis after it: the run is timed by its batches' CPU time.
func (o *Exec) CPUTimed() { o.timing = axes.CPUTimeAxis() }

// axisInfos describes the timing axis (wall time unless the run has
// another timer; under a CPU timer wall time follows it), the requested
// axes with the outcome of their probes, and the custom axes, in that order.
func axisInfos(timing axes.Axis, requested []axes.Axis, status func(axes.Axis) (axes.Status, string), customs []custom.Descriptor) []ndjson.AxisInfo {
	wall, _ := axes.Lookup(axes.Wall)
	if timing.Name == "" {
		timing = wall
	}
	out := []ndjson.AxisInfo{info(timing, axes.Collected, "")}
	if timing.Name == axes.CPUTime {
		out = append(out, info(wall, axes.Collected, ""))
	}
	for _, a := range requested {
		st, reason := status(a)
		out = append(out, info(a, st, reason))
	}
	for _, d := range customs {
		out = append(out, d.Info())
	}
	return out
}

// probeStatus is how an axis came up before the first batch.
func (o *Exec) probeStatus(a axes.Axis) (axes.Status, string) {
	switch {
	case a.Name == "rss_change":
		return axes.UnsupportedMode, rssChangeReason
	case a.Family == axes.FamilyPerf || a.Family == axes.FamilySoftware:
		p := o.probes[a.Name]
		return p.Status, p.Reason
	case a.Family == axes.FamilyIO && !platform.Linux(o.goos):
		return axes.UnsupportedPlatform, platform.Reason("/proc/PID/io", o.goos)
	case a.Family == axes.FamilyCgroup && !platform.Linux(o.goos):
		return axes.UnsupportedPlatform, platform.Reason("memory cgroups", o.goos)
	case a.Family == axes.FamilyCgroup:
		if err := o.cgroups().Err; err != nil {
			if errors.Is(err, fs.ErrPermission) {
				return axes.PermissionDenied, err.Error()
			}
			return axes.ProbeFailed, "no memory cgroup can be used: " + err.Error()
		}
	}
	return axes.Collected, ""
}

const rssChangeReason = "exec mode: every run is a new process, so no resident set carries across runs; see rss_peak"

func info(a axes.Axis, st axes.Status, reason string) ndjson.AxisInfo {
	return ndjson.AxisInfo{
		Name: a.Name, Unit: a.Unit, Family: a.Family, Scope: a.Scope, Attribution: a.Attribution,
		Direction: string(a.Direction), Normalization: string(a.Normalization), Status: string(st), Reason: reason,
	}
}

// Before snapshots the counters and the harness's own CPU time, immediately
// before a timed batch.
func (o *Exec) Before(int) {
	o.started = o.clock.Now()
	o.selfCPU = o.self.CPU()
	if o.perf != nil {
		o.before = o.perf.Snapshot()
	}
}

// After fills the sample's axes and telemetry, immediately after the batch.
func (o *Exec) After(c int, n int64, s *ndjson.Sample) {
	var deltas map[string]perf.Value
	if o.perf != nil {
		deltas = o.perf.Delta(o.before, o.perf.Snapshot(), n)
	}
	u := o.commands[c].Usage()
	s.Axes = make(map[string]ndjson.AxisValue, len(o.requested))
	for _, a := range o.requested {
		s.Axes[a.Name] = o.value(a, u, deltas, n)
	}
	if len(o.customs) > 0 {
		fillCustom(s, o.customs, o.sources[c], n)
	}
	s.Tele = o.telemetry(u)
}

// value is one axis of one batch.
func (o *Exec) value(a axes.Axis, u runner.Usage, deltas map[string]perf.Value, n int64) ndjson.AxisValue {
	switch a.Family {
	case axes.FamilyPerf, axes.FamilySoftware:
		d, ok := deltas[a.Name]
		if !ok {
			return ndjson.AxisValue{S: string(axes.ProbeFailed), R: "no counter value"}
		}
		if d.Status != axes.Collected {
			return ndjson.AxisValue{S: string(d.Status)}
		}
		return ndjson.Collected(d.V)
	case axes.FamilyIO:
		if !platform.Linux(o.goos) {
			return ndjson.AxisValue{S: string(axes.UnsupportedPlatform)}
		}
		if u.IOErr != nil {
			return ndjson.AxisValue{S: string(axes.ProbeFailed), R: u.IOErr.Error()}
		}
	}
	if a.Family == axes.FamilyCgroup {
		return chargedValue(a, u)
	}
	switch {
	case a.Name == "rss_change":
		return ndjson.AxisValue{S: string(axes.UnsupportedMode)}
	case a.Name == "rss_peak" && u.PeakErr != nil:
		return ndjson.AxisValue{S: string(axes.ProbeFailed), R: fmt.Sprintf(peakUnreadReason, u.PeakMethod, u.PeakErr)}
	case a.Name == "rss_peak" && u.PeakBounded():
		return ndjson.AxisValue{S: string(axes.Unattributable), R: fmt.Sprintf(peakFloorReason, float64(u.MaxRSSKiB)/1024, float64(u.PeakFloorKiB)/1024, u.PeakMethod)}
	}
	return ndjson.Collected(usageValue(a.Name, u, n))
}

// chargedValue is a batch's mem_peak: its status is its probe's when the
// probe found no cgroup, else the reading's.
func chargedValue(a axes.Axis, u runner.Usage) ndjson.AxisValue {
	if u.ChargedErr != nil {
		return ndjson.AxisValue{S: string(axes.ProbeFailed), R: u.ChargedErr.Error()}
	}
	return ndjson.Collected(float64(u.ChargedPeakBytes))
}

// peakFloorReason explains an rss_peak hidden under the floor of its
// method (runner.Peak): a child's ru_maxrss includes the high-water mark
// of the memory it had before its exec, so a peak at or near the floor
// (Usage.PeakBounded) says only "at most this much".
const peakFloorReason = "an upper bound only: the runs' peak is at most %.1f MiB, at or near the %.1f MiB the kernel may report in its place (the high-water mark a child inherits at exec; method %s)"

// peakUnreadReason explains an rss_peak without the floor it is checked
// against.
const peakUnreadReason = "the floor below which the runs' peak is not theirs (method %s) could not be read: %v"

// usageValue reads a wait4 or /proc/PID/io axis from a batch's usage.
func usageValue(name string, u runner.Usage, n int64) float64 {
	per := func(v int64) float64 { return float64(v) / float64(n) }
	switch name {
	case "cpu":
		return per(u.UserNS + u.SystemNS)
	case "rss_peak":
		return float64(u.MaxRSSKiB) * 1024
	case "minor_faults":
		return per(u.MinorFaults)
	case "major_faults":
		return per(u.MajorFaults)
	case "voluntary_switches":
		return per(u.VoluntarySwitches)
	case "involuntary_switches":
		return per(u.InvoluntarySwitches)
	case "fs_inputs":
		return per(u.BlockIn)
	case "fs_outputs":
		return per(u.BlockOut)
	case "read_bytes":
		return per(u.ReadBytes)
	case "write_bytes":
		return per(u.WriteBytes)
	}
	return 0
}

// telemetry is the run's CPU share and memory over the batch window.
func (o *Exec) telemetry(u runner.Usage) *ndjson.Telemetry {
	wall := o.clock.Now() - o.started
	cpu := o.self.CPU() - o.selfCPU + u.UserNS + u.SystemNS
	t := &ndjson.Telemetry{RSSBytes: o.selfRSS() + u.MaxRSSKiB*1024}
	if wall > 0 {
		t.CPUPct = 100 * float64(cpu) / float64(wall)
	}
	o.lastTele = *t
	return t
}

// rssEvery is how often the tool's own resident set is re-read: reading
// /proc/self/statm costs tens of microseconds here, and the value moves slowly.
const rssEvery = 250_000_000

// selfRSS is the tool's resident set, re-read at most every rssEvery ns.
func (o *Exec) selfRSS() int64 {
	if now := o.clock.Now(); o.rssAt == 0 || now-o.rssAt >= rssEvery {
		o.rss, o.rssAt = o.self.RSS(), now
	}
	return o.rss
}

// Last is the telemetry of the most recent batch, for the progress line.
func (o *Exec) Last() ndjson.Telemetry { return o.lastTele }
