package gate

import (
	"time"

	"github.com/flybench/flybench/internal/hostload"
	"github.com/flybench/flybench/pkg/ndjson"
	"github.com/flybench/flybench/pkg/probes"
)

// Clock tells the time and sleeps (probes.Waiter); tests drive a fake one.
type Clock = probes.Waiter

// Status is the gate's state after a judged poll, for progress displays.
type Status struct {
	// Elapsed is the time since the gate began.
	Elapsed time.Duration
	// Quiet says whether the poll just judged kept both limits, and Stable
	// how long they have held without a break (0 when it did not).
	Quiet  bool
	Stable time.Duration
	// Polls counts the judged polls so far.
	Polls int
	// Util is the utilization over the poll just judged.
	Util hostload.Util
}

// Accepts reports whether one poll's utilization keeps both limits. A
// poll in which a CPU came, went or counted backwards cannot vouch for
// every CPU, so it does not.
func (p Policy) Accepts(u hostload.Util) bool {
	return u.ElapsedTicks > 0 && len(u.Skipped) == 0 &&
		u.AveragePct <= p.MaxAveragePct && u.BusiestPct <= p.MaxCorePct
}

// Wait polls r every p.Poll until both limits have held over every poll
// for p.Stable without a break, or p.Timeout has passed, and returns the
// gate record: outcome passed or timeout. A poll that breaks a limit
// restarts the stable interval. A poll in which not one tick passed is not
// judged; the next covers it. progress, when not nil, sees every judged
// poll. The error is a failed read of the counters; the record is then
// incomplete and should not be written.
func Wait(p Policy, r hostload.Reader, c Clock, progress func(Status)) (ndjson.Gate, error) {
	g := ndjson.Gate{
		StableNS: int64(p.Stable), TimeoutNS: int64(p.Timeout), PollNS: int64(p.Poll),
		MaxAveragePct: p.MaxAveragePct, MaxCorePct: p.MaxCorePct, BusiestCPU: -1,
	}
	start := c.Now()
	base, err := r.Read()
	if err != nil {
		return g, err
	}
	g.CPUs = len(base.CPUs)
	baseAt, quietSince, quiet := start, start, false
	for {
		c.Sleep(nextPoll(p, c.Now().Sub(start)))
		now := c.Now()
		snap, err := r.Read()
		if err != nil {
			return g, err
		}
		g.CPUs = len(snap.CPUs)
		if u := hostload.Utilization(base, snap); u.ElapsedTicks > 0 || len(u.Skipped) > 0 {
			g.Polls++
			g.LastAveragePct, g.LastCorePct, g.BusiestCPU = u.AveragePct, u.BusiestPct, u.BusiestCPU
			s := Status{Elapsed: now.Sub(start), Polls: g.Polls, Util: u, Quiet: p.Accepts(u)}
			if s.Quiet && !quiet {
				quietSince = baseAt
			}
			if quiet = s.Quiet; quiet {
				s.Stable = now.Sub(quietSince)
			}
			if progress != nil {
				progress(s)
			}
			base, baseAt = snap, now
		}
		g.WaitedNS = int64(now.Sub(start))
		switch {
		case quiet && baseAt.Sub(quietSince) >= p.Stable:
			g.Outcome = ndjson.GatePassed
			return g, nil
		case now.Sub(start) >= p.Timeout:
			g.Outcome = ndjson.GateTimeout
			return g, nil
		}
	}
}

// nextPoll is how long to sleep from elapsed to the next multiple of the
// poll interval, or to the timeout when that comes first. Polls missed
// because a read ran late are skipped, not made up back to back.
func nextPoll(p Policy, elapsed time.Duration) time.Duration {
	next := (elapsed/p.Poll + 1) * p.Poll
	return min(next, p.Timeout) - elapsed
}
