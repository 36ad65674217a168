package collect

import (
	"errors"
	"testing"
	"time"

	"github.com/flybench/flybench/pkg/ndjson"
)

// scriptedMonitor returns foreign shares from a script, one per window.
type scriptedMonitor struct {
	clk     *fakeClock
	foreign []float64
	ends    int
	settles int
	settle  time.Duration // how long Settle pretends to wait
	settled bool
}

func (m *scriptedMonitor) Begin() {}
func (m *scriptedMonitor) End() Estimate {
	f := 0.0
	if m.ends < len(m.foreign) {
		f = m.foreign[m.ends]
	}
	m.ends++
	return Estimate{ForeignPct: f, Judged: true, Attribution: "host_wide"}
}
func (m *scriptedMonitor) Settle(settle, max time.Duration) (time.Duration, bool) {
	m.settles++
	m.clk.now += int64(m.settle)
	return m.settle, m.settled
}

func watchedEngine(t *testing.T, response string, foreign ...float64) (*Engine, *scriptedMonitor, func() stream) {
	t.Helper()
	clk := &fakeClock{}
	cfg := fixedConfig
	cfg.Samples = 20
	cfg.Measurement = 40 * time.Millisecond // 1 ms slices: a 50 ms window is 25 pairs... use 10 ms windows
	cfg.Watch = DefaultWatch
	cfg.Watch.Response = response
	cfg.Watch.Window = 10 * time.Millisecond // 5 pairs of 2 ms
	e, buf := newEngine(cfg, &fakeOp{clk: clk, perOp: 1000}, &fakeOp{clk: clk, perOp: 1000})
	m := &scriptedMonitor{clk: clk, foreign: foreign, settle: 300 * time.Millisecond, settled: true}
	e.Monitor = m
	return e, m, func() stream { return readStream(t, buf.Bytes()) }
}

func TestObserveKeepsContaminatedWindows(t *testing.T) {
	e, _, read := watchedEngine(t, "observe", 0, 50, 0, 0)
	end, err := e.Collect()
	if err != nil {
		t.Fatal(err)
	}
	s := read()
	if end.Units != 20 || len(s.samples) != 40 || end.Retakes != 0 {
		t.Fatalf("observe discarded something: %+v, %d samples", end, len(s.samples))
	}
	ws := readWindows(t, s)
	if len(ws) != 4 || ws[1].Verdict != ndjson.WindowContaminated || ws[1].Action != ndjson.ActionKept || ws[0].Verdict != ndjson.WindowClean {
		t.Fatalf("windows %+v", ws)
	}
	if ws[1].FirstUnit != 5 || ws[1].Units != 5 || ws[1].Samples != 10 {
		t.Fatalf("second window covers %+v", ws[1])
	}
}

func TestRetakeDiscardsAndCollectsAgain(t *testing.T) {
	e, _, read := watchedEngine(t, "retake", 0, 50, 0, 0, 0)
	end, err := e.Collect()
	if err != nil {
		t.Fatal(err)
	}
	s := read()
	ws := readWindows(t, s)
	if len(ws) != 5 || ws[1].Action != ndjson.ActionRetaken || ws[2].FirstUnit != 5 || ws[2].Action != ndjson.ActionKept {
		t.Fatalf("windows %+v", ws)
	}
	if end.Units != 20 || end.Retakes != 1 || len(s.samples) != 40 {
		t.Fatalf("end %+v with %d samples", end, len(s.samples))
	}
	// Discarded batches give back their sequence numbers and units: the
	// kept samples read as one uninterrupted schedule.
	for i, sm := range s.samples {
		if sm.Seq != i || sm.Unit != i/2 {
			t.Fatalf("sample %d: seq %d unit %d", i, sm.Seq, sm.Unit)
		}
	}
}

func TestRetakeBudgetExhaustedContinuesUnderObserve(t *testing.T) {
	e, _, read := watchedEngine(t, "retake", 50, 50, 50, 50, 50, 50, 50)
	e.Config.Watch.MaxRetakes = 2
	end, err := e.Collect()
	if err != nil {
		t.Fatal(err)
	}
	ws := readWindows(t, read())
	retaken, exhausted := 0, 0
	for _, w := range ws {
		if w.Action == ndjson.ActionRetaken {
			retaken++
		}
		if w.Exhausted {
			exhausted++
		}
	}
	if retaken != 2 || exhausted != 4 || !end.BudgetExhausted || end.Units != 20 {
		t.Fatalf("retaken %d exhausted %d end %+v", retaken, exhausted, end)
	}
}

func TestPauseExcludesPausedTimeFromBudget(t *testing.T) {
	e, m, read := watchedEngine(t, "pause", 0, 80, 0, 0, 0)
	e.Config.MaxSampling = 100 * time.Millisecond // a 300 ms pause would blow it if it counted
	var rewarmed, prepared, concluded int
	op := e.Cases[0].Op.(*fakeOp)
	op.onCall = func(int) { rewarmed++ }
	e.Hooks.Prepare = func(c int) error {
		if c == 0 {
			prepared++
		}
		return nil
	}
	e.Hooks.Conclude = func(c int) error {
		if c == 0 {
			concluded++
		}
		return nil
	}
	end, err := e.Collect()
	if err != nil {
		t.Fatal(err)
	}
	ws := readWindows(t, read())
	if m.settles != 1 || ws[1].Action != ndjson.ActionPaused || ws[1].PauseNS != int64(300*time.Millisecond) {
		t.Fatalf("pause not taken: %d settles, windows %+v", m.settles, ws)
	}
	if end.Units != 20 || end.Reason != ndjson.EndCompleted || end.Pauses != 1 || end.PausedNS != int64(300*time.Millisecond) {
		t.Fatalf("end %+v: paused time must not count against the budget", end)
	}
	if rewarmed == 0 {
		t.Fatal("no rewarm after the pause")
	}
	// Every batch of the case, the rewarm's included, had its hooks.
	if prepared != rewarmed || concluded != rewarmed {
		t.Fatalf("%d batches, %d prepares, %d concludes", rewarmed, prepared, concluded)
	}
}

func TestShortWindowIsRecordedButNeverActedOn(t *testing.T) {
	e, _, read := watchedEngine(t, "retake", 90, 90, 90, 90)
	e.Config.Watch.Window = time.Hour // never due: one window, closed by the end of the plan
	if _, err := e.Collect(); err != nil {
		t.Fatal(err)
	}
	ws := readWindows(t, read())
	if len(ws) != 1 || ws[0].Judged || ws[0].Verdict != ndjson.WindowUnjudged || ws[0].Action != ndjson.ActionKept {
		t.Fatalf("windows %+v", ws)
	}
}

func TestInterruptKeepsCompleteUnitsOfOpenWindow(t *testing.T) {
	e, _, read := watchedEngine(t, "retake")
	e.Config.Warmup = 0
	e.Cases[1].Op.(*fakeOp).onCall = func(call int) {
		if call == 10 { // one warmup and one calibration batch, then the 8th unit
			e.Stop("interrupt")
		}
	}
	end, err := e.Collect()
	if !errors.Is(err, ErrInterrupted) {
		t.Fatalf("err %v", err)
	}
	s := read()
	if len(s.samples) != 2*end.Units || end.Units != 7 {
		t.Fatalf("%d samples for %d units", len(s.samples), end.Units)
	}
	if ws := readWindows(t, s); len(ws) == 0 || ws[len(ws)-1].Action != ndjson.ActionKept {
		t.Fatalf("open window not flushed: %+v", ws)
	}
}

// fakeConditions is unacceptable for the windows listed in bad.
type fakeConditions struct {
	response string
	bad      map[int]bool
	checks   int
	waits    int
	records  []bool
}

func (f *fakeConditions) Check() (ndjson.Conditions, bool) {
	f.checks++
	ok := !f.bad[f.checks-1]
	return ndjson.Conditions{Profile: "balanced", Why: "profile reduced"}, ok
}
func (f *fakeConditions) Response() string            { return f.response }
func (f *fakeConditions) Wait() (time.Duration, bool) { f.waits++; return time.Second, true }
func (f *fakeConditions) Expired() string             { return "observe" }
func (f *fakeConditions) Record(units int, acceptable, recollected bool) {
	f.records = append(f.records, acceptable)
}
func (f *fakeConditions) RecordPause(time.Duration, bool, string) {}

func TestConditionsFailStopsTheRun(t *testing.T) {
	e, _, read := watchedEngine(t, "")
	e.Monitor = nil
	e.Conditions = &fakeConditions{response: "fail", bad: map[int]bool{1: true}}
	end, err := e.Collect()
	var ce *ConditionsError
	if !errors.As(err, &ce) || end.Reason != ndjson.EndFailed {
		t.Fatalf("err %v end %+v", err, end)
	}
	if s := read(); len(s.samples) != 20 || len(readWindows(t, s)) != 2 {
		t.Fatalf("the failing window must be recorded and kept: %d samples", len(s.samples))
	}
}

func TestConditionsPauseRecollects(t *testing.T) {
	e, _, read := watchedEngine(t, "")
	e.Monitor = nil
	f := &fakeConditions{response: "pause", bad: map[int]bool{0: true}}
	e.Conditions = f
	end, err := e.Collect()
	if err != nil {
		t.Fatal(err)
	}
	ws := readWindows(t, read())
	if f.waits != 1 || ws[0].Action != ndjson.ActionPaused || ws[0].Conditions == nil || ws[0].Conditions.Acceptable || end.Units != 20 {
		t.Fatalf("waits %d windows %+v end %+v", f.waits, ws, end)
	}
}

func readWindows(t *testing.T, s stream) []ndjson.Window {
	t.Helper()
	return s.windows
}
