package claim

import (
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"time"

	"golang.org/x/sys/unix"

	"github.com/flybench/flybench/internal/field"
	"github.com/flybench/flybench/internal/platform"
	"github.com/flybench/flybench/pkg/probes"
)

// Clock is the time source of the wait (probes.Waiter); tests use a fake
// one.
type Clock = probes.Waiter

// Host is the machine a claim is taken on. The zero value is the real
// host; tests replace the clock, flock(2) and the /proc files.
type Host struct {
	Clock Clock
	// Flock is flock(2).
	Flock func(fd, how int) error
	// Mountinfo opens /proc/self/mountinfo.
	Mountinfo func() (io.ReadCloser, error)
	// Locks opens /proc/locks.
	Locks func() (io.ReadCloser, error)
}

func (h Host) clock() Clock {
	if h.Clock != nil {
		return h.Clock
	}
	return probes.SystemWaiter{}
}

func (h Host) flock(fd, how int) error {
	if h.Flock != nil {
		return h.Flock(fd, how)
	}
	for {
		err := unix.Flock(fd, how)
		if !errors.Is(err, unix.EINTR) {
			return err
		}
	}
}

func (h Host) mountinfo() (io.ReadCloser, error) {
	if h.Mountinfo != nil {
		return h.Mountinfo()
	}
	return openProc("/proc/self/mountinfo")
}

func (h Host) locks() (io.ReadCloser, error) {
	if h.Locks != nil {
		return h.Locks()
	}
	return openProc("/proc/locks")
}

// openProc opens a Linux /proc file; elsewhere the error says the platform
// has none, so a status or a scope reads "unsupported_platform", not a
// missing file.
func openProc(path string) (io.ReadCloser, error) {
	if err := platform.Check(path); err != nil {
		return nil, err
	}
	return os.Open(path)
}

// Request is what to claim and how long to wait for it.
type Request struct {
	Dir string
	// CPUs are the CPUs of a per-CPU claim; none means the whole machine.
	CPUs    []int
	Timeout time.Duration
	Poll    time.Duration
	// Content is written into the files held exclusively; Acquire fills in
	// its scope, CPUs and version.
	Content Content
	// Progress, if set, is called about once a second while waiting.
	Progress func(waited time.Duration, holders []string)
	// Names spells the fields a reason names (FieldPath, FieldTimeout)
	// as the user knows them; nil spells their paths.
	Names field.Names
}

// Result is the outcome of Acquire.
type Result struct {
	Outcome Outcome
	// Claim is the held claim when Outcome is Held or NamespaceScoped.
	Claim  *Claim
	Waited time.Duration
	// Holders describes the conflicting holders seen while waiting.
	Holders []string
	// Reason explains any outcome but Held.
	Reason string
}

// maxHolders bounds the holders a result lists.
const maxHolders = 16

// Claim is a held claim: open descriptors carrying the flocks.
type Claim struct {
	Dir   string
	Scope string
	CPUs  []int
	files []file
}

// FDs are the descriptors that hold the claim, machine file first.
func (c *Claim) FDs() []int {
	fds := make([]int, len(c.files))
	for i, f := range c.files {
		fds[i] = f.fd
	}
	return fds
}

// Release closes the claim's descriptors, releasing the claim unless a
// child inherited them.
func (c *Claim) Release() {
	for _, f := range c.files {
		unix.Close(f.fd)
	}
	c.files = nil
}

// KeepAcrossExec clears close-on-exec on the claim's descriptors, so a
// program this process execs keeps holding the claim.
func (c *Claim) KeepAcrossExec() error {
	for _, f := range c.files {
		if _, err := unix.FcntlInt(uintptr(f.fd), unix.F_SETFD, 0); err != nil {
			return fmt.Errorf("keep claim descriptor %d across exec: %w", f.fd, err)
		}
	}
	return nil
}

// plan lists the files of a claim in locking order with their lock modes:
// the machine file first, then the CPU files in ascending order. The total
// order is what keeps overlapping per-CPU claims from livelocking on each
// other's partial claims.
func plan(cpus []int) ([]string, []int) {
	if len(cpus) == 0 {
		return []string{MachineFile}, []int{unix.LOCK_EX}
	}
	sorted := slices.Clone(cpus)
	slices.Sort(sorted)
	sorted = slices.Compact(sorted)
	names, modes := []string{MachineFile}, []int{unix.LOCK_SH}
	for _, n := range sorted {
		names, modes = append(names, CPUFile(n)), append(modes, unix.LOCK_EX)
	}
	return names, modes
}

// Acquire takes the claim, polling without blocking until it is free or
// the timeout has passed. A waiter never holds part of a claim: when any
// lock would block, everything taken in that attempt is released before
// the next poll.
func (h Host) Acquire(req Request) Result {
	clk := h.clock()
	start := clk.Now()
	d, err := openDir(req.Dir, true)
	if err != nil {
		return Result{Outcome: PathUnusable, Reason: named(err, req.Names).Error()}
	}
	defer d.close()
	names, modes := plan(req.CPUs)
	poll := req.Poll
	if poll <= 0 {
		poll = DefaultPoll
	}
	w := waiter{h: h, d: d, progress: req.Progress}
	for {
		c, blocking, err := h.attempt(d, names, modes)
		waited := clk.Now().Sub(start)
		if err != nil {
			return Result{Outcome: PathUnusable, Waited: waited, Holders: w.seen, Reason: named(err, req.Names).Error()}
		}
		if c != nil {
			return h.held(d, c, req, waited, w.seen)
		}
		if waited >= req.Timeout {
			w.sample(blocking, waited, true)
			return Result{Outcome: Busy, Waited: waited, Holders: w.seen, Reason: busyReason(d.pathOf(blocking), req, w.seen)}
		}
		w.sample(blocking, waited, false)
		clk.Sleep(min(poll, req.Timeout-waited))
	}
}

func busyReason(path string, req Request, holders []string) string {
	s := fmt.Sprintf("%q was still held after %s %s", path, req.Names.Spell(FieldTimeout), req.Timeout)
	if len(holders) > 0 {
		s += " (holders seen: " + holders[0]
		if len(holders) > 1 {
			s += fmt.Sprintf(" and %d more", len(holders)-1)
		}
		s += ")"
	}
	return s
}

// attempt tries once to lock every file in order. It returns the claim,
// or the name of the file that would have blocked, or a PathError.
func (h Host) attempt(d *dir, names []string, modes []int) (*Claim, string, error) {
	var files []file
	release := func() {
		for _, f := range files {
			unix.Close(f.fd)
		}
	}
	for i, name := range names {
		f, err := d.open(name)
		if err != nil {
			release()
			return nil, "", err
		}
		files = append(files, f)
		if err := h.flock(f.fd, modes[i]|unix.LOCK_NB); err != nil {
			release()
			if errors.Is(err, unix.EWOULDBLOCK) {
				return nil, name, nil
			}
			return nil, "", pathErrorf(d.pathOf(name), "flock: %v; the file system may not support flock(2): choose a local directory with %s", errnoText(err), pathField)
		}
	}
	for _, f := range files {
		if !d.same(f) {
			release() // deleted or replaced since it was opened: take the new one
			return nil, f.name, nil
		}
	}
	return &Claim{Dir: d.path, files: files}, "", nil
}

// held writes the content into the files held exclusively and checks the
// directory's mount.
func (h Host) held(d *dir, c *Claim, req Request, waited time.Duration, seen []string) Result {
	content := req.Content
	content.Scope, content.CPUs, content.Version = ScopeMachine, nil, Version
	exclusive := c.files[:1]
	if len(req.CPUs) > 0 {
		content.Scope, content.CPUs = ScopeCPUs, c.cpus()
		exclusive = c.files[1:]
	}
	c.Scope, c.CPUs = content.Scope, content.CPUs
	for _, f := range exclusive {
		writeContent(f, content) // diagnostic only: a failed write changes nothing
	}
	r := Result{Outcome: Held, Claim: c, Waited: waited, Holders: seen}
	private, reason, err := h.private(d)
	switch {
	case err != nil:
		r.Reason = "mount scope not checked: " + err.Error()
	case private:
		r.Outcome, r.Reason = NamespaceScoped, reason
	}
	return r
}

func (c *Claim) cpus() []int {
	var cpus []int
	for _, f := range c.files {
		if n, ok := cpuOfFile(f.name); ok {
			cpus = append(cpus, n)
		}
	}
	return cpus
}

// private checks the directory's mount in /proc/self/mountinfo.
func (h Host) private(d *dir) (bool, string, error) {
	r, err := h.mountinfo()
	if err != nil {
		return false, "", err
	}
	defer r.Close()
	mounts, err := ParseMountinfo(r)
	if err != nil {
		return false, "", err
	}
	private, reason := PrivateMount(mounts, d.realPath())
	return private, reason, nil
}

// waiter names the holders while Acquire waits and reports progress.
type waiter struct {
	h          Host
	d          *dir
	progress   func(time.Duration, []string)
	seen       []string
	sampled    bool
	lastSample time.Duration
}

// sample looks at the holders of the blocking file at the first conflict,
// then about once a second, and always when final.
func (w *waiter) sample(blocking string, waited time.Duration, final bool) {
	if w.sampled && !final && waited-w.lastSample < time.Second {
		return
	}
	first := !w.sampled
	w.sampled, w.lastSample = true, waited
	now := w.h.holders(w.d, blocking)
	for _, s := range now {
		if !slices.Contains(w.seen, s) && len(w.seen) < maxHolders {
			w.seen = append(w.seen, s)
		}
	}
	if w.progress != nil && !first && !final {
		w.progress(waited, now)
	}
}
