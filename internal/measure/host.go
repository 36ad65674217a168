package measure

import (
	"fmt"
	"os"
	"time"

	"github.com/flybench/flybench/internal/collect"
	"github.com/flybench/flybench/internal/field"
	"github.com/flybench/flybench/internal/hostload"
	"github.com/flybench/flybench/internal/observe"
	"github.com/flybench/flybench/internal/placement"
	"github.com/flybench/flybench/internal/platform"
	"github.com/flybench/flybench/internal/watch"
	"github.com/flybench/flybench/internal/workerexec"
	"github.com/flybench/flybench/pkg/ndjson"
	"github.com/flybench/flybench/pkg/probes"
)

// checkPlatform refuses what this platform cannot do at all.
func (p *plan) checkPlatform() error {
	return platformRefusal(p.Mode, p.Watch.Response, platform.GOOS)
}

// platformRefusal refuses, on a platform goos without them, the parts of a
// measurement that rest wholly on Linux-only facilities: worker mode, and
// the interference watch, which reads host CPU counters from /proc/stat.
// What degrades instead (placement, perf and I/O axes, conditions) runs and
// records its unsupported_platform status in the stream.
func platformRefusal(mode Mode, response, goos string) error {
	if mode == ModeWorker {
		if err := workerexec.SupportedOn(goos); err != nil {
			return field.Errorf("Mode=worker", true, "%s: %v; use %s, which runs here", modeName(ModeWorker), err, modeName(ModeBatch))
		}
	}
	if response != "" {
		if err := platform.CheckOn("/proc/stat", goos); err != nil {
			w := field.Name("Watch.Response")
			return field.Errorf("Watch.Response", response, "%s %s: %v", w, response, err).
				WithHint("the watch estimates foreign CPU load from the host's /proc/stat counters; run without %s here", w)
		}
	}
	return nil
}

// place pins the benchmarked commands to the requested CPU (the
// collecting thread, already locked to its OS thread, or every worker),
// records the outcome, and returns the CPUs the watch should look at
// (nil: host-wide).
func (m *measurement) place() ([]int, error) {
	cpu, strict := m.Placement.CPU, field.Name("Placement.RequireStrict")
	if cpu < 0 {
		if m.Placement.RequireStrict {
			return nil, m.errorf("Placement.RequireStrict", true, "%s needs %s", strict, field.Name("Placement.CPU"))
		}
		return nil, nil
	}
	r := m.pin(cpu)
	m.record.Config.Placement = &ndjson.Placement{CPU: cpu, Outcome: r.Outcome, WatchedCPUs: r.Watched, Reason: r.Reason}
	if r.Outcome != ndjson.PlacementStrict {
		if m.Placement.RequireStrict {
			err := m.errorf("Placement.RequireStrict", true, "%s: strict placement unavailable: %s", strict, r.Reason).
				WithHint("pick a CPU this process may run on (see taskset -p $$), or drop %s", strict)
			return nil, &PlacementError{Err: err}
		}
		fmt.Fprintf(m.env.Stderr, "%s: warning: placement rejected, running unplaced: %s\n", m.Tool, r.Reason)
		return nil, nil
	}
	return r.Watched, nil
}

// pin binds the collecting thread (whose children inherit it) or, in worker
// mode, every worker process.
func (m *measurement) pin(cpu int) placement.Result {
	sysfs := os.DirFS("/sys")
	if m.Mode != ModeWorker {
		return placement.Pin(cpu, sysfs)
	}
	var r placement.Result
	for _, pid := range m.pids {
		if r = placement.PinProcess(pid, cpu, sysfs); r.Outcome != ndjson.PlacementStrict {
			return r
		}
	}
	return r
}

// workerSelf is the run's own CPU in worker mode: the workers are alive
// for the whole run, so their CPU is read from their CPU-time clocks, not
// from reaped children.
type workerSelf struct{ pids []int }

func (workerSelf) Process() (int64, error) { return watch.ProcSelf{}.Process() }
func (w workerSelf) Children() (int64, error) {
	var sum int64
	seen := map[int]bool{}
	for _, pid := range w.pids {
		if !seen[pid] {
			seen[pid] = true
			ns, err := observe.ReadProcessCPU(pid)
			if err != nil {
				return 0, err
			}
			sum += ns
		}
	}
	return sum, nil
}
func (workerSelf) Thread() (int64, error) { return 0, nil } // the collecting thread is not pinned in worker mode

// monitor builds the interference watch: host-wide, or core-scoped on the
// watched CPUs when placement holds.
func (m *measurement) monitor(watched []int) collect.Monitor {
	stat := watch.HostStat{R: hostload.ProcStat{}}
	ncpu := 1
	if snap, err := (hostload.ProcStat{}).Read(); err == nil && len(snap.CPUs) > 0 {
		ncpu = len(snap.CPUs)
	}
	var self watch.Self = watch.ProcSelf{}
	if m.Mode == ModeWorker {
		self = workerSelf{pids: m.pids}
	}
	return watch.New(stat, self, probes.SampleClock{}, time.Sleep, m.Watch.MaxForeignPct, ncpu, watched).
		WithPressure(watch.ProcPressure{Root: os.DirFS("/")})
}

func watchConfig(w collect.Watch) *ndjson.WatchConfig {
	return &ndjson.WatchConfig{
		Response: w.Response, MaxForeignPct: w.MaxForeignPct, WindowNS: int64(w.Window), MaxRetakes: w.MaxRetakes,
		SettleNS: int64(w.Settle), MaxPauseNS: int64(w.MaxPause), RewarmNS: int64(w.Rewarm),
	}
}
