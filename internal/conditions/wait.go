package conditions

import "time"

// Wait waits for acceptable conditions within the run's remaining pause
// budget, reporting the time waited and whether conditions came back. The
// caller reports the wait with RecordPause.
func (m *Monitor) Wait() (time.Duration, bool) {
	return m.WaitAcceptable(m.clock, m.sleep, m.Remaining())
}

// Remaining is the run's pause budget not yet spent by recorded pauses.
func (m *Monitor) Remaining() time.Duration {
	left := m.policy.pause.MaxPause - time.Duration(m.tally.pausedNS)
	return max(left, 0)
}

// WaitAcceptable polls every Poll until observations have been acceptable
// continuously for Stable, measured from the first acceptable poll, and
// gives up once budget is spent. A budget shorter than Stable could never
// succeed, so it gives up at once. It records nothing about the wait
// itself; the polls are observations like any other (profile changes,
// throttle continuity) but not windows.
func (m *Monitor) WaitAcceptable(clock Clock, sleep func(time.Duration), budget time.Duration) (time.Duration, bool) {
	t := m.policy.pause
	if m.policy.mode != ModePause || budget < t.Stable {
		return 0, false
	}
	m.Start()
	begin := clock.Now()
	calmSince := int64(-1)
	for {
		elapsed := time.Duration(clock.Now() - begin)
		if elapsed >= budget {
			return elapsed, false
		}
		sleep(min(t.Poll, budget-elapsed))
		now := clock.Now()
		if _, ok := m.judged(m.observe()); !ok {
			calmSince = -1
		} else if calmSince < 0 {
			calmSince = now
		}
		if calmSince >= 0 && time.Duration(now-calmSince) >= t.Stable {
			return time.Duration(now - begin), true
		}
	}
}
