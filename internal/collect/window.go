package collect

import (
	"time"

	"github.com/flybench/flybench/internal/field"
	"github.com/flybench/flybench/pkg/ndjson"
)

// Watch is the interference-watch policy.
type Watch struct {
	// Response is "observe", "retake" or "pause"; "" turns the watch off.
	Response string
	// MaxForeignPct is the largest accepted foreign share of the machine's
	// (or the watched CPUs') capacity.
	MaxForeignPct float64
	// Window is the shortest wall interval an estimate is trusted over;
	// windows are whole units at least this long.
	Window time.Duration
	// MaxRetakes bounds how many windows one run may collect again.
	MaxRetakes int
	// Settle is the quiet interval a paused run waits for; MaxPause bounds
	// the total pause; Rewarm is untimed work before resuming.
	Settle, MaxPause, Rewarm time.Duration
}

// DefaultWatch is the seed's interference policy, off until a response is set.
var DefaultWatch = Watch{
	MaxForeignPct: 10, Window: 50 * time.Millisecond, MaxRetakes: 25,
	Settle: 250 * time.Millisecond, MaxPause: 30 * time.Second, Rewarm: 50 * time.Millisecond,
}

// Validate refuses settings that could never work, with a *field.Error
// naming the Config field ("Watch.Window").
func (w Watch) Validate() error {
	switch {
	case w.Response == "":
		return nil
	case w.Response != ndjson.WatchObserve && w.Response != ndjson.WatchRetake && w.Response != ndjson.WatchPause:
		return field.Errorf("Watch.Response", w.Response, "%s %q: use observe, retake or pause", field.Name("Watch.Response"), w.Response)
	case !(w.MaxForeignPct >= 0 && w.MaxForeignPct <= 100):
		return field.Errorf("Watch.MaxForeignPct", w.MaxForeignPct, "%s %g: use 0 to 100 (percent)", field.Name("Watch.MaxForeignPct"), w.MaxForeignPct)
	case w.Window <= 0:
		return field.Errorf("Watch.Window", w.Window, "%s %v must be positive", field.Name("Watch.Window"), w.Window)
	case w.MaxRetakes < 0:
		return field.Errorf("Watch.MaxRetakes", w.MaxRetakes, "%s %d is negative", field.Name("Watch.MaxRetakes"), w.MaxRetakes)
	case w.Response == ndjson.WatchPause && (w.Settle <= 0 || w.MaxPause < w.Settle):
		return field.Errorf("Watch.MaxPause", w.MaxPause, "%s %v and %s %v: a pause budget smaller than one settle interval could never resume",
			field.Name("Watch.Settle"), w.Settle, field.Name("Watch.MaxPause"), w.MaxPause)
	case w.Rewarm < 0:
		return field.Errorf("Watch.Rewarm", w.Rewarm, "%s %v is negative", field.Name("Watch.Rewarm"), w.Rewarm)
	}
	return nil
}

// Estimate is the watch's reading of one window.
type Estimate struct {
	ForeignPct, HostBusyPct, OwnPct float64
	// AllowancePct is the share one counter tick per CPU makes of the
	// window: a window is contaminated only when the foreign share exceeds
	// the limit by more than that.
	AllowancePct float64
	// Judged is false when the window was too short to trust.
	Judged      bool
	Attribution string
	WatchedCPUs []int
	// Diluted is set on the window where core-scoped attribution gave way.
	Diluted bool
	// Pressure is the host's stall information over the window, or nil
	// with PressureUnavailable saying why.
	Pressure            *ndjson.Pressure
	PressureUnavailable string
}

// Monitor measures foreign CPU load, outside timed regions.
type Monitor interface {
	// Begin marks the start of a window.
	Begin()
	// End estimates the window that Begin opened.
	End() Estimate
	// Settle waits, polling, until foreign load has stayed within the limit
	// for settle, but no longer than max; it reports the time waited and
	// whether the host settled.
	Settle(settle, max time.Duration) (time.Duration, bool)
}

// Conditions watches the host's operating conditions at window boundaries.
type Conditions interface {
	// Check observes the host now and judges it against the policy.
	Check() (ndjson.Conditions, bool)
	// Response is "observe", "pause" or "fail".
	Response() string
	// Wait waits for acceptable conditions within the pause budget left,
	// reporting the time waited and whether they came back.
	Wait() (time.Duration, bool)
	// Expired says what a pause whose budget ran out falls back to:
	// "observe" or "fail".
	Expired() string
	// Record tells the monitor how a window of units ended.
	Record(units int, acceptable, recollected bool)
	// RecordPause tells the monitor about a wait.
	RecordPause(waited time.Duration, expired bool, fallback string)
}

// ConditionsError ends a run whose operating conditions were unacceptable
// under a failing policy.
type ConditionsError struct{ Why string }

func (e *ConditionsError) Error() string {
	return "operating conditions unacceptable: " + e.Why
}

// window is the units collected since the last judgement.
type window struct {
	start     int64
	firstUnit int
	jobs      []job
	recs      [][]ndjson.Sample
	min       int64
}

func (w *window) add(j job, recs []ndjson.Sample) {
	w.jobs = append(w.jobs, j)
	w.recs = append(w.recs, recs)
}

func (w *window) due(now int64) bool { return now-w.start >= w.min }

func (w *window) samples() int {
	n := 0
	for _, r := range w.recs {
		n += len(r)
	}
	return n
}

func (s *sampler) watching() bool {
	return s.e.Monitor != nil || s.e.Conditions != nil
}

func (s *sampler) openWindow(unit int) {
	s.win = &window{start: s.e.Clock.Now(), firstUnit: unit, min: int64(s.windowLength())}
	if s.e.Monitor != nil {
		s.e.Monitor.Begin()
	}
}

// windowLength is the watch window, or the conditions window alone.
func (s *sampler) windowLength() time.Duration {
	w := s.e.Config.Watch.Window
	if w <= 0 {
		w = DefaultWatch.Window
	}
	return w
}
