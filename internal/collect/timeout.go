package collect

import "time"

// Limited is an Operation whose runs (the processes it starts) can be
// given a time limit: a run that outlasts it is killed and its batch
// fails. LongestRun is the longest run it completed, 0 before one did.
type Limited interface {
	SetLimit(d time.Duration)
	LongestRun() time.Duration
}

// The derived time limit of a run (AutoTimeout): TimeoutFactor times the
// longest run of its case so far, at least MinTimeout. Before the case
// completed a run: what is left of the whole run's budget under a
// stopping rule (Until.MaxTime, at least MinFirstTimeout), else
// TimeoutFactor times the warm-up and measurement times together, at
// least MinTimeout. A hang then stops a run within one limit of its
// budget, and a stall of the machine does not kill a run of fast commands.
const (
	TimeoutFactor   = 10
	MinTimeout      = 10 * time.Second
	MinFirstTimeout = time.Second
)

// TimeoutRule says in one line how AutoTimeout limits a run.
const TimeoutRule = "auto: 10 times the longest run of the case so far, at least 10 s; before its first run completes, what is left of the whole run's time budget under a stopping rule (at least 1 s), else 10 times the warm-up and measurement times together, at least 10 s"

// timeoutText is the run record's config.timeout: "" when no case's
// runs can be limited.
func (e *Engine) timeoutText() string {
	limited := false
	for _, c := range e.Cases {
		_, ok := c.Op.(Limited)
		limited = limited || ok
	}
	switch t := e.Config.Timeout; {
	case !limited:
		return ""
	case t == AutoTimeout:
		return TimeoutRule
	case t == NoTimeout:
		return "none"
	default:
		return t.String()
	}
}

// runLimit is the time limit of the next run of case c, 0 for none.
func (e *Engine) runLimit(c int) time.Duration {
	cfg := e.Config
	switch {
	case cfg.Timeout > 0:
		return cfg.Timeout
	case cfg.Timeout == NoTimeout:
		return 0
	}
	op, ok := e.Cases[c].Op.(Limited)
	if !ok {
		return 0
	}
	if longest := op.LongestRun(); longest > 0 {
		return max(MinTimeout, TimeoutFactor*longest)
	}
	if cfg.Until.Rule != "" {
		left := cfg.Until.MaxTime - time.Duration(e.Clock.Now()-e.start)
		return max(MinFirstTimeout, left)
	}
	return max(MinTimeout, TimeoutFactor*(cfg.Warmup+cfg.Measurement))
}

// limitRuns sets the time limit of case c's next batch.
func (e *Engine) limitRuns(c int) {
	if op, ok := e.Cases[c].Op.(Limited); ok {
		op.SetLimit(e.runLimit(c))
	}
}
