package cli

import (
	"errors"
	"fmt"
	"os"
	"time"

	"github.com/flybench/flybench/internal/collect"
	"github.com/flybench/flybench/internal/hostload"
	"github.com/flybench/flybench/internal/observe"
	"github.com/flybench/flybench/internal/placement"
	"github.com/flybench/flybench/internal/watch"
	"github.com/flybench/flybench/pkg/ndjson"
	"github.com/flybench/flybench/pkg/probes"
)

// place applies --cpu on the collecting thread (already locked to its OS
// thread), records the outcome, and returns the CPUs the watch should look
// at (nil: host-wide).
func (m *measurement) place() ([]int, error) {
	cpu := m.flags.cpu
	if cpu < 0 {
		if m.flags.requireStrict {
			return nil, usageErrorf("--require-strict needs --cpu")
		}
		return nil, nil
	}
	r := m.pin(cpu)
	m.record.Config.Placement = &ndjson.Placement{CPU: cpu, Outcome: r.Outcome, WatchedCPUs: r.Watched, Reason: r.Reason}
	if r.Outcome != "strict" {
		if m.flags.requireStrict {
			return nil, withCode(ExitPlacement, errors.New("--require-strict: strict placement unavailable: "+r.Reason), "pick a CPU this process may run on (see taskset -p $$), or drop --require-strict")
		}
		fmt.Fprintf(m.env.Stderr, "%s: warning: placement rejected, running unplaced: %s\n", m.tool, r.Reason)
		return nil, nil
	}
	return r.Watched, nil
}

// pin binds the collecting thread (whose children inherit it) or, in worker
// mode, every worker process.
func (m *measurement) pin(cpu int) placement.Result {
	sysfs := os.DirFS("/sys")
	if m.mode != "worker" {
		return placement.Pin(cpu, sysfs)
	}
	var r placement.Result
	for _, pid := range m.pids {
		if r = placement.PinProcess(pid, cpu, sysfs); r.Outcome != "strict" {
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
	if m.mode == "worker" {
		self = workerSelf{pids: m.pids}
	}
	return watch.New(stat, self, probes.SampleClock{}, time.Sleep, m.cfg.Watch.MaxForeignPct, ncpu, watched)
}

func watchConfig(w collect.Watch) *ndjson.WatchConfig {
	return &ndjson.WatchConfig{
		Response: w.Response, MaxForeignPct: w.MaxForeignPct, WindowNS: int64(w.Window), MaxRetakes: w.MaxRetakes,
		SettleNS: int64(w.Settle), MaxPauseNS: int64(w.MaxPause), RewarmNS: int64(w.Rewarm),
	}
}
