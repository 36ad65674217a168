package measure

import (
	"os"
	"slices"
	"time"

	"github.com/google/uuid"

	"github.com/flybench/flybench/internal/axes"
	"github.com/flybench/flybench/internal/collect"
	"github.com/flybench/flybench/internal/custom"
	"github.com/flybench/flybench/internal/field"
	"github.com/flybench/flybench/internal/observe"
	"github.com/flybench/flybench/internal/runner"
	"github.com/flybench/flybench/internal/version"
	"github.com/flybench/flybench/internal/workerexec"
	"github.com/flybench/flybench/pkg/ndjson"
	"github.com/flybench/flybench/pkg/probes"
)

// measurement holds one run's resources: the prepared cases, the
// processes behind them, and the run record they fill.
type measurement struct {
	*plan
	env      Env
	cases    []collect.Case
	commands []*runner.Command
	record   ndjson.Run
	usages   []observe.UsageSource
	sources  []observe.CustomSource
	customs  []custom.Descriptor
	timer    *ndjson.Timer
	pids     []int
	workers  []*workerexec.Worker
	session  *session // a resumed collection, or nil
	// stdout is the commands' stdout (an output file or inherited), nil
	// for /dev/null or a drained pipe; outFile is it when this tool
	// opened it.
	stdout, outFile *os.File
}

func (m *measurement) close() {
	for _, cmd := range m.commands {
		cmd.Close()
	}
	for _, w := range m.workers {
		w.Close()
	}
	if m.outFile != nil {
		m.outFile.Close()
	}
}

// errorf is a field error of the request, its fields spelled as the
// front end knows them.
func (m *measurement) errorf(path string, value any, format string, args ...any) *field.Error {
	return field.Errorf(path, value, format, args...).Named(m.env.Names)
}

// spell is a field's name in text that is not a field error: a record's
// note or reason, or a message of another kind.
func (m *measurement) spell(name field.Name) string { return m.env.Names.Spell(string(name)) }

// prepare resolves every command and hook, characterizes the clock and
// fills the run record, all before anything is timed.
func (m *measurement) prepare() error {
	clk := probes.SampleClock{}
	var err error
	if m.stdout, err = m.stdoutFile(); err != nil {
		return err
	}
	switch m.Mode {
	case ModeBatch:
		err = m.prepareBatch(clk)
	case ModeGotest:
		err = m.prepareGotest(clk)
	case ModeWorker:
		err = m.prepareWorker(clk)
	default:
		err = m.prepareExec(clk)
	}
	if err != nil {
		return err
	}
	m.markReference()
	m.markWorkUnits()
	m.markParams()
	return m.fillRun(clk)
}

// fillRun characterizes the clock and fills the run record's template.
func (m *measurement) fillRun(clk probes.SampleClock) error {
	res, err := clk.Resolution()
	if err != nil {
		return err
	}
	clock := probes.Characterize(clk, clk.Backend(), res, 10000)
	if m.SubtractTimerCost {
		clock.SubtractNS = clock.ReadMinNS
	}
	m.record = ndjson.Run{
		RunID: uuid.NewString(), Tool: m.Tool, ToolVersion: version.Version,
		Started: time.Now().UTC().Format(time.RFC3339Nano), Mode: m.Mode,
		Host: probes.Fingerprint(os.DirFS("/")), Clock: clock, Timer: m.timer, Tags: m.Tags,
	}
	rc := &m.record.Config
	c := m.Command
	rc.Shell, rc.IgnoreFailure, rc.ShowOutput = c.Shell, c.IgnoreFailure, c.ShowOutput
	m.recordHooks(rc)
	rc.Input, rc.Output = m.Stdio.Input, m.Stdio.Output
	rc.Layout = m.layoutRecord(osRoot)
	rc.AA = m.series
	for _, a := range m.Axes {
		rc.Metrics = append(rc.Metrics, a.Name)
	}
	return nil
}

// markParams records each scanned case's parameter values.
func (m *measurement) markParams() {
	for i, set := range m.params {
		m.cases[i].Params = set
	}
}

// wantsPeak reports whether rss_peak was selected: each run's peak is
// then measured by runner.ChoosePeak's method.
func (m *measurement) wantsPeak() bool {
	return slices.ContainsFunc(m.Axes, func(a axes.Axis) bool { return a.Name == "rss_peak" })
}

// wantsCharged reports whether mem_peak was selected: each command then
// runs in a memory cgroup of its own.
func (m *measurement) wantsCharged() bool {
	return slices.ContainsFunc(m.Axes, func(a axes.Axis) bool { return a.Family == axes.FamilyCgroup })
}

// wantsIO reports whether a /proc/PID/io axis was selected.
func (m *measurement) wantsIO() bool {
	for _, a := range m.Axes {
		if a.Family == axes.FamilyIO {
			return true
		}
	}
	return false
}
