package gate

import (
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/flybench/flybench/internal/hostload"
	"github.com/flybench/flybench/internal/progress"
	"github.com/flybench/flybench/pkg/ndjson"
)

// TimeoutError says what the last judged poll saw against the limits.
func (d *Display) TimeoutError() error {
	p, last := d.policy, d.last
	head := fmt.Sprintf("host not quiet within %v", p.Timeout)
	if last == nil {
		return fmt.Errorf("%s: no CPU time was counted yet (/proc/stat moves in %v ticks)", head, time.Duration(hostload.TickNS))
	}
	u := last.Util
	load := fmt.Sprintf("average %.1f%% (limit %g%%), busiest cpu%d %.1f%% (limit %g%%)",
		u.AveragePct, p.MaxAveragePct, u.BusiestCPU, u.BusiestPct, p.MaxCorePct)
	if len(u.Skipped) > 0 {
		load += "; " + skippedText(u.Skipped)
	}
	if last.Quiet {
		return fmt.Errorf("%s: quiet for only the last %v of the %v needed; %s", head, last.Stable.Round(time.Millisecond), p.Stable, load)
	}
	return fmt.Errorf("%s: %s", head, load)
}

func skippedText(skipped []hostload.Skip) string {
	parts := make([]string, len(skipped))
	for i, s := range skipped {
		parts[i] = fmt.Sprintf("cpu%d %s", s.CPU, s.Reason)
	}
	return strings.Join(parts, ", ")
}

// Display shows the wait on stderr: a line redrawn in place on a
// terminal; a line at the start, every plainEvery and on passing otherwise.
type Display struct {
	w      io.Writer
	mode   progress.Mode
	policy Policy
	last   *Status
	drawn  bool
	said   time.Duration
}

const plainEvery = 5 * time.Second

// NewDisplay starts showing the wait for policy p on w.
func NewDisplay(w io.Writer, mode progress.Mode, p Policy) *Display {
	d := &Display{w: w, mode: mode, policy: p}
	d.start()
	return d
}

func (d *Display) start() {
	p := d.policy
	switch d.mode {
	case progress.Plain:
		fmt.Fprintf(d.w, "fb-gate: waiting for a quiet host: average at most %g%%, every cpu at most %g%%, for %v (timeout %v)\n",
			p.MaxAveragePct, p.MaxCorePct, p.Stable, p.Timeout)
	case progress.TTY:
		fmt.Fprint(d.w, "\r\x1b[2Kfb-gate  waiting for a quiet host")
		d.drawn = true
	}
}

// Update shows one judged poll.
func (d *Display) Update(s Status) {
	d.last = &s
	switch d.mode {
	case progress.Plain:
		if s.Elapsed-d.said >= plainEvery {
			d.said = s.Elapsed.Truncate(plainEvery)
			fmt.Fprintf(d.w, "fb-gate: still waiting after %v: %s\n", d.said, d.load(s))
		}
	case progress.TTY:
		fmt.Fprintf(d.w, "\r\x1b[2Kfb-gate  waiting  %s  %s", d.load(s), progress.Clock(s.Elapsed))
		d.drawn = true
	}
}

// load is "average  12.3% (≤20%)  busiest cpu1    45.0% (≤50%)  quiet  0.4s/1s",
// in fixed-width fields so an in-place line does not jitter.
func (d *Display) load(s Status) string {
	u, p := s.Util, d.policy
	return fmt.Sprintf("average %5.1f%% (≤%g%%)  busiest %s %5.1f%% (≤%g%%)  quiet %4.1fs/%gs",
		u.AveragePct, p.MaxAveragePct, progress.Field(fmt.Sprintf("cpu%d", u.BusiestCPU), 6),
		u.BusiestPct, p.MaxCorePct, s.Stable.Seconds(), p.Stable.Seconds())
}

// Close ends the display with the gate's outcome.
func (d *Display) Close(g ndjson.Gate) {
	passed := g.Outcome == ndjson.GatePassed
	waited := time.Duration(g.WaitedNS).Round(time.Millisecond)
	switch {
	case d.mode == progress.Plain && passed:
		fmt.Fprintf(d.w, "fb-gate: quiet after %v: average %.1f%%, busiest cpu%d %.1f%%\n", waited, g.LastAveragePct, g.BusiestCPU, g.LastCorePct)
	case d.mode == progress.TTY && passed:
		fmt.Fprintf(d.w, "\r\x1b[2Kfb-gate  quiet after %v  average %.1f%%  busiest cpu%d %.1f%%\n", waited, g.LastAveragePct, g.BusiestCPU, g.LastCorePct)
	case d.mode == progress.TTY && d.drawn:
		fmt.Fprintln(d.w)
	}
}
