package runner

import (
	"errors"
	"fmt"
	"io"
	"syscall"
	"time"

	"github.com/flybench/flybench/pkg/probes"
	"golang.org/x/sys/unix"
)

// errFailed marks a run whose status Run turns into an *ExitError.
var errFailed = errors.New("run failed")

// Run performs n consecutive runs of the command and returns the elapsed
// nanoseconds of the whole batch, read from clk once before the first start
// and once after the last wait. A run that exits non-zero or dies of a
// signal stops the batch with an *ExitError, unless failures are ignored;
// a Kill stops it with ErrKilled. After Kill, Run always returns ErrKilled.
func (c *Command) Run(n int64, clk probes.Clock) (int64, error) {
	if n < 1 {
		return 0, fmt.Errorf("run %s: batch size %d, want at least 1", DisplayArgv(c.argv), n)
	}
	if c.devNull == nil {
		return 0, fmt.Errorf("run %s: command is closed", DisplayArgv(c.argv))
	}
	c.usage = Usage{}
	c.arm()
	defer c.disarm()
	c.peakBefore()
	c.cgroupBefore()
	defer c.cgroupLeave()
	var elapsed int64
	var err error
	if c.batch != nil {
		elapsed, err = c.runBatch(n, clk)
	} else {
		elapsed, err = c.runRuns(n, clk)
	}
	if err == nil {
		c.peakAfter()
		c.cgroupAfter()
	}
	return elapsed, err
}

// runRuns is n processes, one operation each.
func (c *Command) runRuns(n int64, clk probes.Clock) (int64, error) {
	start := clk.Now()
	for i := int64(0); i < n; i++ {
		if err := c.once(); err != nil {
			return 0, c.batchError(err, i, n)
		}
	}
	elapsed := clk.Now() - start
	c.longest = max(c.longest, time.Duration(elapsed/n))
	return elapsed, nil
}

// runBatch is one process performing n operations.
func (c *Command) runBatch(n int64, clk probes.Clock) (int64, error) {
	if err := c.prepareBatch(n); err != nil {
		return 0, err
	}
	start := clk.Now()
	if err := c.once(); err != nil {
		return 0, c.batchError(err, 0, 1)
	}
	elapsed := clk.Now() - start
	c.longest = max(c.longest, time.Duration(elapsed))
	return elapsed, c.collectReport()
}

// once is one run: rewind the input and the capture, start, wait, judge the status. Its
// successful path does not allocate beyond what syscall.ForkExec does.
func (c *Command) once() error {
	if err := c.rewindInput(); err != nil {
		return err
	}
	if c.capture != nil {
		if _, err := unix.Seek(c.captureFD, 0, io.SeekStart); err != nil {
			return fmt.Errorf("rewind stderr capture: %w", err)
		}
	}
	if err := c.rewindReport(); err != nil {
		return err
	}
	pid, err := c.start()
	if err != nil {
		return err
	}
	if err := c.wait(pid); err != nil {
		return err
	}
	timedOut := c.timedOut(pid)
	if c.guard.Killed() {
		return ErrKilled // its whole group was killed
	}
	if timedOut {
		return errTimedOut // its whole group was killed
	}
	escaped := c.killSurvivors && killSurvivors(pid)
	if escaped {
		c.escaped++
	}
	if c.status != 0 && !c.ignoreFailure { // 0 is "exited with status 0"
		return errFailed
	}
	if c.contain && escaped {
		return errEscaped
	}
	return nil
}

// start forks and execs the child and publishes its pid for Kill.
func (c *Command) start() (int, error) {
	if c.guard.Killed() {
		return 0, ErrKilled
	}
	c.startClock()
	path, argv := c.program()
	pid, err := syscall.ForkExec(path, argv, &c.attr)
	if err != nil {
		return 0, fmt.Errorf("start %s: %w", DisplayArgv(c.argv), err)
	}
	c.lastPID = pid
	c.guard.Publish(pid)
	return pid, nil
}

// wait waits for the child to exit and reaps it (see Guard), reading its
// storage counters in between when asked.
func (c *Command) wait(pid int) error {
	var exited func()
	if c.readIO {
		exited = func() { c.usage.addIO(pid) }
	}
	if err := c.guard.Reap(pid, exited, &c.status, &c.rusage); err != nil {
		return fmt.Errorf("wait for %s (pid %d): %w", DisplayArgv(c.argv), pid, err)
	}
	if err := c.launchReport(); err != nil {
		return fmt.Errorf("run %s: %w", DisplayArgv(c.argv), err)
	}
	c.usage.add(&c.rusage)
	return nil
}

// Kill sends SIGKILL to the running child's process group, if a child is
// running, and makes Run return ErrKilled once it has reaped the child; a
// batch not yet started never starts. Safe from any goroutine, such as a
// signal handler's.
func (c *Command) Kill() { c.guard.Kill() }

// batchError turns the error of run i of n into what Run returns.
func (c *Command) batchError(err error, i, n int64) error {
	if errors.Is(err, errEscaped) {
		return &EscapeError{Argv: c.Argv(), Run: i + 1, Batch: n}
	}
	if errors.Is(err, errTimedOut) {
		return &TimeoutError{Argv: c.Argv(), Limit: time.Duration(c.dog.limit.Load()), Run: i + 1, Batch: n}
	}
	if !errors.Is(err, errFailed) {
		return err
	}
	return &ExitError{Argv: c.Argv(), Run: i + 1, Batch: n, Status: c.status, stderr: c.stderrTail()}
}
