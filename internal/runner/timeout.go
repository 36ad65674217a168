package runner

import (
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"syscall"
	"time"
)

// errTimedOut marks a run that Run turns into a *TimeoutError.
var errTimedOut = errors.New("run timed out")

// TimeoutError is a run that lasted longer than the command's limit
// (SetLimit) and was killed, with its process group.
type TimeoutError struct {
	Argv  []string
	Limit time.Duration
	// Run is the run's position in its batch, from 1, of Batch runs.
	Run, Batch int64
}

// TimeLimit is the limit the run outlasted.
func (e *TimeoutError) TimeLimit() time.Duration { return e.Limit }

func (e *TimeoutError) Error() string {
	at := ""
	if e.Batch > 1 {
		at = fmt.Sprintf(" (run %d of %d)", e.Run, e.Batch)
	}
	return fmt.Sprintf("command %s ran longer than its time limit of %v and was killed%s", DisplayArgv(e.Argv), e.Limit, at)
}

// epoch is the origin of the watchdog's monotonic times.
var epoch = time.Now()

func monotonic() int64 { return int64(time.Since(epoch)) }

// watchdog kills a run that lasts longer than the limit. Between runs it
// costs nothing; during a batch one timer wakes about once per limit, and
// each run with a limit costs one clock read as it starts.
type watchdog struct {
	limit    atomic.Int64 // nanoseconds; 0 is no limit
	started  atomic.Int64 // monotonic time the published run started
	timedOut atomic.Int64 // pid of the run the watchdog killed, 0 none
	mu       sync.Mutex
	timer    *time.Timer
	armed    bool
}

// SetLimit kills any later run of the command that lasts longer than d,
// and its process group, and makes Run fail with a *TimeoutError; 0
// removes the limit. It may be changed between batches.
func (c *Command) SetLimit(d time.Duration) { c.dog.limit.Store(int64(max(d, 0))) }

// LongestRun is the longest run the command completed so far: a batch's
// time over its runs (one process each in exec mode), or a batch-mode
// process's whole time; 0 before a run completed.
func (c *Command) LongestRun() time.Duration { return c.longest }

// arm starts watching the batch about to run, when there is a limit.
func (c *Command) arm() {
	d := c.dog.limit.Load()
	if d == 0 {
		return
	}
	c.dog.mu.Lock()
	defer c.dog.mu.Unlock()
	c.dog.armed = true
	if c.dog.timer == nil {
		c.dog.timer = time.AfterFunc(time.Duration(d), c.watch)
		return
	}
	c.dog.timer.Reset(time.Duration(d))
}

// disarm stops watching once the batch is over.
func (c *Command) disarm() {
	c.dog.mu.Lock()
	defer c.dog.mu.Unlock()
	if c.dog.armed {
		c.dog.armed = false
		c.dog.timer.Stop()
	}
}

// startClock notes when a run starts, just before the fork (so a run's
// age is over-read by the fork's time at most) and before its pid is
// published: a watch that reads the pid reads this start, since the next
// run cannot start before this one is reaped, which waits for the watch.
func (c *Command) startClock() {
	if c.dog.limit.Load() != 0 {
		c.dog.started.Store(monotonic())
	}
}

// watch kills the published run if it has outlived the limit, and
// otherwise wakes again when it would have. Like Guard.Kill, it keeps the
// pid from being reaped while it signals it.
func (c *Command) watch() {
	g, d := &c.guard, &c.dog
	g.killing.Add(1)
	pid, started, limit := g.pid.Load(), d.started.Load(), d.limit.Load()
	now := monotonic()
	over := pid != 0 && limit != 0 && now-started >= limit
	if over {
		d.timedOut.Store(pid)
		KillGroup(int(pid))
	}
	g.killing.Add(-1)
	if over || limit == 0 {
		return
	}
	next := limit
	if pid != 0 {
		next = started + limit - now
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.armed {
		d.timer.Reset(time.Duration(next))
	}
}

// timedOut reports whether the watchdog killed the run pid, which died of
// it, and forgets it.
func (c *Command) timedOut(pid int) bool {
	if !c.dog.timedOut.CompareAndSwap(int64(pid), 0) {
		return false
	}
	return c.status.Signaled() && c.status.Signal() == syscall.SIGKILL
}
