package measure

import (
	"context"
	"os/exec"
	"time"

	"github.com/flybench/flybench/internal/axes"
	"github.com/flybench/flybench/internal/collect"
	"github.com/flybench/flybench/internal/platform"
	"github.com/flybench/flybench/internal/simcount"
	"github.com/flybench/flybench/pkg/ndjson"
)

// attachCounters lists the counter axes (instructions_sim) in
// the run record with the status their probe came up with, and gives the
// engine the probe that counts every case after calibration.
func (m *measurement) attachCounters(e *collect.Engine) {
	for _, a := range m.Counters {
		e.Run.Config.Metrics = append(e.Run.Config.Metrics, a.Name)
	}
	if len(m.Counters) == 0 {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	tool, st, err := simcount.Find(ctx, platform.GOOS, exec.LookPath)
	if err != nil {
		e.Run.Axes = append(e.Run.Axes, simcount.Info(st, err.Error(), ""))
		e.Counters = append(e.Counters, refused{status: st, reason: err.Error()})
		return
	}
	e.Run.Axes = append(e.Run.Axes, simcount.Info(axes.Collected, "", tool.Source()))
	counter := simcount.NewCounter(tool, m.counterTargets())
	counter.Names = m.env.Names
	e.Counters = append(e.Counters, counter)
}

// counterTargets says what each case runs under the counter: its command
// in exec mode, its batch command at two sizes in batch mode; worker and
// go test cases are refused with the reason.
func (m *measurement) counterTargets() []simcount.Target {
	out := make([]simcount.Target, len(m.cases))
	for i, c := range m.cases {
		switch m.Mode {
		case ModeExec:
			out[i] = simcount.Target{Argv: c.Argv, Stdin: m.Stdio.Input}
		case ModeBatch:
			out[i] = simcount.Target{Argv: c.Argv, Batch: true, Stdin: m.Stdio.Input}
		case ModeWorker:
			out[i].Refusal = "a worker serves many requests in one process and valgrind counts whole processes: not counted in " + m.spell(modeName(ModeWorker)) + " mode"
		default:
			out[i].Refusal = "a go test binary's count would include the testing package's calibration runs: not counted in " + m.spell(modeName(ModeGotest)) + " mode"
		}
	}
	return out
}

// refused is the counter probe when no count can be taken at all: every
// case gets a counter record with the status and reason, and no value.
type refused struct {
	status axes.Status
	reason string
}

func (r refused) Count(context.Context, int, int64, func() error) ndjson.Counter {
	a, _ := axes.LookupCounter(axes.InstructionsSim)
	return ndjson.Counter{Axis: a.Name, Unit: a.Unit, Status: string(r.status), Reason: r.reason}
}
