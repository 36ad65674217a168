package measure

import (
	"errors"
	"fmt"
	"os"
	"os/signal"
	"runtime"
	"syscall"

	"github.com/flybench/flybench/internal/analyze"
	"github.com/flybench/flybench/internal/axes"
	"github.com/flybench/flybench/internal/claim"
	"github.com/flybench/flybench/internal/collect"
	"github.com/flybench/flybench/internal/observe"
	"github.com/flybench/flybench/internal/progress"
	"github.com/flybench/flybench/pkg/ndjson"
	"github.com/flybench/flybench/pkg/probes"
)

// runOnce collects one run of the plan; label names it on the progress
// display.
func runOnce(p *plan, env Env, label string) error {
	// A claim inherited from fb-lock stays held by this tool but is never
	// passed to the commands it starts, which might outlive the run.
	if err := claim.ProtectFDs(env.Getenv); err != nil {
		return fmt.Errorf("inherited host claim: %w", err)
	}
	m := &measurement{plan: p, env: env}
	defer m.close()
	if err := m.prepare(); err != nil {
		return err
	}
	if p.Resume != nil {
		s, err := m.openSession()
		if err != nil {
			return err
		}
		defer s.close()
		m.session = s
	}
	return m.run(progress.New(env.Stderr, p.Progress, label))
}

// run collects, stopping cleanly on SIGINT or SIGTERM. The collecting
// goroutine stays on one OS thread: perf counters are opened on it and
// inherited by the commands it starts.
func (m *measurement) run(disp *progress.Display) error {
	if m.needsThread() {
		runtime.LockOSThread()
		defer runtime.UnlockOSThread()
	}
	watched, err := m.place()
	if err != nil {
		return err
	}
	files, release, err := m.dropFirst()
	if err != nil {
		return err
	}
	defer release()
	obs := m.observer()
	defer func() { obs.Close() }()
	m.record.Axes = obs.Infos()
	e := m.engine(disp, obs, watched)
	e.Warmed = release
	if m.Duet {
		if e.Duet, err = m.duet(); err != nil {
			return err
		}
		e.Run.Config.Duet, e.Observer = m.record.Config.Duet, nil
	}
	e.Process = m.processPlan(e, &obs, files)
	switch {
	case m.Rotate == 0:
	case m.Mode == ModeWorker:
		e.Rotate, e.RotateDoes = m.blockStarter(e, &obs, files), "fresh workers"
	case m.Rotate == collect.AutoRotation && !m.sidesStartDifferentFiles():
		e.Config.Rotate = 0 // one file for every side: its draw is the same for all of them
	case len(files) > 0:
		// A block start here is a drop and one untimed batch, cheap enough
		// to come every unit: a short run keeps its degrees of freedom.
		e.Rotate, e.RotateDoes, e.RotateMin = m.fileRotation(files), "the programs' files dropped from the page cache", 1
	}
	if m.session != nil {
		m.session.apply(e)
	}
	m.attachConditions(e)
	m.attachCounters(e)
	if names := required(m.RequirePerf, m.Axes); len(names) > 0 {
		e.Check = m.perfCheck(names, m.record.Axes)
	}
	sigs := make(chan os.Signal, 2)
	signal.Notify(sigs, syscall.SIGINT, syscall.SIGTERM)
	defer signal.Stop(sigs)
	caught := make(chan os.Signal, 1)
	go func() {
		if s, ok := <-sigs; ok {
			caught <- s
			e.Stop("interrupted by " + signalName(s))
		}
	}()
	end, err := e.Collect()
	disp.Close()
	m.warnEscapes(end)
	return interrupted(end, err, caught)
}

// warnEscapes says which cases had runs that left processes behind.
func (m *measurement) warnEscapes(end *ndjson.End) {
	if end == nil {
		return
	}
	for c, n := range end.Escaped {
		if n > 0 {
			fmt.Fprintf(m.env.Stderr, "%s: warning: %s\n", m.Tool, analyze.EscapeWarning(m.cases[c].Name, n))
		}
	}
}

// engine is the collection engine for the prepared cases.
func (m *measurement) engine(disp *progress.Display, obs observer, watched []int) *collect.Engine {
	out := ndjson.NewWriter(m.env.Stdout)
	if m.session != nil {
		out = m.session.w
	}
	e := &collect.Engine{
		Config: m.Config, Cases: m.cases, Hooks: m.engineHooks(), Names: m.env.Names, Clock: probes.SampleClock{},
		Out: out, Progress: disp, Run: m.record, Observer: obs,
		SelfTimer: m.timer.KindOf() == ndjson.TimerSelf, CPUTimer: m.timer.KindOf() == ndjson.TimerCPU,
	}
	if m.Watch.Response != "" {
		e.Monitor, e.Run.Config.Watch = m.monitor(watched), watchConfig(m.Watch)
	}
	if until := untilRecord(m.Until, m.judged, m.env.Names); until != nil {
		e.Run.Config.Until, e.Judge = until, judge(m.judged)
	}
	return e
}

// needsThread reports whether the collection must stay on one OS thread:
// when perf counters are inherited from it by the commands it starts, or
// when placement pins it. Otherwise the runtime is left free, which makes
// each fork and wait cheaper. Workers are separate processes: nothing
// inherits from this thread.
func (m *measurement) needsThread() bool {
	if m.Mode == ModeWorker {
		return false
	}
	if m.Placement.CPU >= 0 {
		return true
	}
	for _, a := range m.Axes {
		if a.Family == axes.FamilyPerf || a.Family == axes.FamilySoftware {
			return true
		}
	}
	return false
}

// observer is the mode's axis observer.
type observer interface {
	collect.Observer
	Infos() []ndjson.AxisInfo
	SelfTimed()
	CPUTimed()
	Close()
}

func (m *measurement) observer() observer {
	var o observer
	if m.Mode == ModeWorker {
		o = observe.NewWorker(m.Axes, m.pids, m.customs, m.sources, probes.SampleClock{})
	} else {
		o = observe.NewExec(m.Axes, m.usages, probes.SampleClock{}).WithCustom(m.customs, m.sources)
	}
	switch m.timer.KindOf() {
	case ndjson.TimerSelf:
		o.SelfTimed()
	case ndjson.TimerCPU:
		o.CPUTimed()
	}
	return o
}

// interrupted turns a run a signal stopped into an *InterruptedError; any
// other outcome is the engine's.
func interrupted(end *ndjson.End, err error, caught chan os.Signal) error {
	if !errors.Is(err, collect.ErrInterrupted) {
		return err
	}
	var sig os.Signal = syscall.SIGINT
	select {
	case s := <-caught:
		sig = s
	default:
	}
	return &InterruptedError{Signal: sig, End: end,
		Err: fmt.Errorf("%s: kept %d complete units; the stream ends with an end record", end.Error, end.Units)}
}
