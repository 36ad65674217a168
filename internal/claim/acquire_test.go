package claim

import (
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// fakeClock advances only when slept; onSleep runs after each sleep.
type fakeClock struct {
	now     time.Time
	sleeps  []time.Duration
	onSleep func(n int)
}

func (c *fakeClock) Now() time.Time { return c.now }
func (c *fakeClock) Sleep(d time.Duration) {
	c.now = c.now.Add(d)
	c.sleeps = append(c.sleeps, d)
	if c.onSleep != nil {
		c.onSleep(len(c.sleeps))
	}
}

func newClock() *fakeClock { return &fakeClock{now: time.Date(2025, 6, 1, 12, 0, 0, 0, time.UTC)} }

// testHost is the real host with a fixed, shared-/tmp mountinfo.
func testHost(clk Clock) Host {
	return Host{Clock: clk, Mountinfo: fixture(hostMounts)}
}

func fixture(text string) func() (io.ReadCloser, error) {
	return func() (io.ReadCloser, error) { return io.NopCloser(strings.NewReader(text)), nil }
}

func claimDir(t *testing.T) string {
	t.Helper()
	return filepath.Join(t.TempDir(), "claim")
}

// mustHold takes a claim at once or fails the test.
func mustHold(t *testing.T, dir string, cpus ...int) *Claim {
	t.Helper()
	res := testHost(newClock()).Acquire(Request{Dir: dir, CPUs: cpus, Poll: time.Millisecond, Content: Content{PID: os.Getpid(), Tool: "holder"}})
	if res.Outcome != Held {
		t.Fatalf("claim %v: %s: %s", cpus, res.Outcome, res.Reason)
	}
	return res.Claim
}

// try makes one attempt and reports whether it got the claim.
func try(t *testing.T, dir string, cpus ...int) bool {
	t.Helper()
	res := testHost(newClock()).Acquire(Request{Dir: dir, CPUs: cpus, Poll: time.Millisecond})
	if res.Claim != nil {
		res.Claim.Release()
	}
	if res.Outcome != Held && res.Outcome != Busy {
		t.Fatalf("claim %v: %s: %s", cpus, res.Outcome, res.Reason)
	}
	return res.Outcome == Held
}

func TestMachineClaimCreatesConventionFiles(t *testing.T) {
	old := syscall.Umask(0o077)
	defer syscall.Umask(old)
	dir := claimDir(t)
	start := time.Date(2025, 6, 1, 12, 0, 0, 0, time.UTC)
	res := testHost(newClock()).Acquire(Request{Dir: dir, Timeout: time.Second,
		Content: Content{PID: 4321, Tool: "fb-pair", Start: start, Command: "fb-pair -- a b"}})
	if res.Outcome != Held || res.Claim == nil || res.Reason != "" {
		t.Fatalf("Acquire = %+v", res)
	}
	defer res.Claim.Release()
	assertMode(t, dir, os.ModeDir|os.ModeSticky|0o777)
	assertMode(t, filepath.Join(dir, MachineFile), 0o666)
	data, _ := os.ReadFile(filepath.Join(dir, MachineFile))
	want := "pid=4321\ntool=fb-pair\nstart=2025-06-01T12:00:00Z\nscope=machine\ncpus=\ncommand=fb-pair -- a b\nversion=1\n"
	if string(data) != want {
		t.Errorf("content:\n%s\nwant:\n%s", data, want)
	}
	for _, fd := range res.Claim.FDs() {
		if flags, _ := unix.FcntlInt(uintptr(fd), unix.F_GETFD, 0); flags&unix.FD_CLOEXEC == 0 {
			t.Errorf("claim descriptor %d is not close-on-exec before KeepAcrossExec", fd)
		}
	}
}

func assertMode(t *testing.T, path string, want os.FileMode) {
	t.Helper()
	fi, err := os.Lstat(path)
	if err != nil {
		t.Fatal(err)
	}
	if fi.Mode() != want {
		t.Errorf("%s: mode %v, want %v", path, fi.Mode(), want)
	}
}

func TestCPUClaimWritesCPUFiles(t *testing.T) {
	dir := claimDir(t)
	res := testHost(newClock()).Acquire(Request{Dir: dir, CPUs: []int{3, 1}, Content: Content{PID: 55, Tool: "load"}})
	if res.Outcome != Held {
		t.Fatalf("Acquire = %+v", res)
	}
	defer res.Claim.Release()
	if res.Claim.Scope != ScopeCPUs || FormatCPUs(res.Claim.CPUs) != "1,3" || len(res.Claim.FDs()) != 3 {
		t.Errorf("claim = %+v", res.Claim)
	}
	for _, name := range []string{"cpu.1", "cpu.3"} {
		data, _ := os.ReadFile(filepath.Join(dir, name))
		if c := ParseContent(data); c.PID != 55 || c.Scope != ScopeCPUs || FormatCPUs(c.CPUs) != "1,3" {
			t.Errorf("%s content = %q", name, data)
		}
	}
	if data, _ := os.ReadFile(filepath.Join(dir, MachineFile)); len(data) != 0 {
		t.Errorf("a per-CPU claim wrote the shared machine file: %q", data)
	}
}

func TestClaimsExcludeEachOther(t *testing.T) {
	dir := claimDir(t)
	cpu01 := mustHold(t, dir, 0, 1)
	if !try(t, dir, 2, 3) {
		t.Error("disjoint CPUs were refused")
	}
	if try(t, dir, 1, 2) {
		t.Error("overlapping CPUs were granted")
	}
	if try(t, dir) {
		t.Error("machine-wide granted while a CPU claim is held")
	}
	cpu01.Release()
	machine := mustHold(t, dir)
	if try(t, dir, 5) {
		t.Error("CPU claim granted while the machine is held")
	}
	if try(t, dir) {
		t.Error("second machine-wide claim granted")
	}
	machine.Release()
	if !try(t, dir, 5) || !try(t, dir) {
		t.Error("released claims still exclude")
	}
}

func TestBusyAfterTimeout(t *testing.T) {
	dir := claimDir(t)
	holder := mustHold(t, dir, 1)
	defer holder.Release()
	clk := newClock()
	var progress []time.Duration
	res := testHost(clk).Acquire(Request{Dir: dir, CPUs: []int{0, 1}, Timeout: 2 * time.Second, Poll: 300 * time.Millisecond,
		Progress: func(w time.Duration, holders []string) { progress = append(progress, w) }})
	if res.Outcome != Busy || res.Claim != nil {
		t.Fatalf("Acquire = %+v, want busy", res)
	}
	if res.Waited != 2*time.Second {
		t.Errorf("waited %v, want exactly the timeout", res.Waited)
	}
	// Six polls of 300ms, then the 200ms left.
	if len(clk.sleeps) != 7 || clk.sleeps[6] != 200*time.Millisecond {
		t.Errorf("sleeps = %v", clk.sleeps)
	}
	if len(progress) != 1 || progress[0] != 1200*time.Millisecond {
		t.Errorf("progress at %v, want once, at the first poll past 1s", progress)
	}
	want := "pid " + strconv.Itoa(os.Getpid()) + " holder (cpus 1"
	if len(res.Holders) != 1 || !strings.HasPrefix(res.Holders[0], want) {
		t.Errorf("holders = %q, want %q...", res.Holders, want)
	}
	if !strings.Contains(res.Reason, "cpu.1") || !strings.Contains(res.Reason, "2s") {
		t.Errorf("reason = %q", res.Reason)
	}
	// A waiter never keeps part of its claim: CPU 0 stayed free.
	if !try(t, dir, 0) {
		t.Error("CPU 0 is held after a busy attempt")
	}
}

func TestZeroTimeoutIsOneAttempt(t *testing.T) {
	dir := claimDir(t)
	holder := mustHold(t, dir)
	defer holder.Release()
	clk := newClock()
	res := testHost(clk).Acquire(Request{Dir: dir, Timeout: 0})
	if res.Outcome != Busy || len(clk.sleeps) != 0 {
		t.Fatalf("Acquire = %s after %d sleeps, want busy at once", res.Outcome, len(clk.sleeps))
	}
}

func TestWaitEndsWhenHolderReleases(t *testing.T) {
	dir := claimDir(t)
	holder := mustHold(t, dir, 0)
	clk := newClock()
	partial := true
	clk.onSleep = func(n int) {
		// While the machine-wide claim waits, nothing of it is held.
		partial = partial && try(t, dir, 1)
		if n == 3 {
			holder.Release()
		}
	}
	res := testHost(clk).Acquire(Request{Dir: dir, Timeout: 10 * time.Second, Poll: 250 * time.Millisecond})
	if res.Outcome != Held {
		t.Fatalf("Acquire = %+v", res)
	}
	defer res.Claim.Release()
	if res.Waited != 750*time.Millisecond {
		t.Errorf("waited %v, want 750ms", res.Waited)
	}
	if !partial {
		t.Error("the waiter held part of the machine while waiting")
	}
}

func TestNamespaceScoped(t *testing.T) {
	dir := claimDir(t)
	h := Host{Clock: newClock(), Mountinfo: fixture("1 0 8:1 / / rw - ext4 /dev/sda1 rw\n" +
		"2 1 8:1 /tmp/systemd-private-x-svc.service-y/tmp / rw - ext4 /dev/sda1 rw\n")}
	res := h.Acquire(Request{Dir: dir})
	if res.Outcome != NamespaceScoped || res.Claim == nil {
		t.Fatalf("Acquire = %+v, want namespace_scoped and held", res)
	}
	defer res.Claim.Release()
	if !strings.Contains(res.Reason, "systemd PrivateTmp") || !strings.Contains(res.Reason, dir) {
		t.Errorf("reason = %q", res.Reason)
	}
	if try(t, dir) {
		t.Error("a namespace-scoped claim does not exclude within the namespace")
	}
}

func TestUnusablePaths(t *testing.T) {
	base := t.TempDir()
	sticky := func(name string) string {
		d := filepath.Join(base, name)
		if err := os.Mkdir(d, 0o777); err != nil {
			t.Fatal(err)
		}
		os.Chmod(d, os.ModeSticky|0o777)
		return d
	}
	victim := filepath.Join(base, "victim")
	os.WriteFile(victim, []byte("precious\n"), 0o644)

	symlinkFile := sticky("symlink-file")
	os.Symlink(victim, filepath.Join(symlinkFile, MachineFile))
	symlinkDir := filepath.Join(base, "symlink-dir")
	os.Symlink(sticky("real"), symlinkDir)
	fifo := sticky("fifo")
	unix.Mkfifo(filepath.Join(fifo, "cpu.1"), 0o666)
	subdir := sticky("subdir")
	os.Mkdir(filepath.Join(subdir, MachineFile), 0o755)
	notSticky := filepath.Join(base, "not-sticky")
	os.Mkdir(notSticky, 0o777)
	os.Chmod(notSticky, 0o777)
	plainFile := filepath.Join(base, "plain-file")
	os.WriteFile(plainFile, nil, 0o644)

	for _, tc := range []struct {
		dir    string
		cpus   []int
		reason string
	}{
		{symlinkFile, nil, `"` + filepath.Join(symlinkFile, MachineFile) + `": is a symbolic link`},
		{symlinkFile, []int{1}, "is a symbolic link"},
		{symlinkDir, nil, `"` + symlinkDir + `": is a symbolic link, not a directory`},
		{fifo, []int{1}, `cpu.1": is not a regular file`},
		{subdir, nil, "is not a regular file"},
		{notSticky, nil, "without the sticky bit"},
		{plainFile, nil, "is not a directory"},
		{filepath.Join(base, "missing", "claim"), nil, "no such file or directory"},
	} {
		res := testHost(newClock()).Acquire(Request{Dir: tc.dir, CPUs: tc.cpus, Timeout: time.Second})
		if res.Outcome != PathUnusable || res.Claim != nil || !strings.Contains(res.Reason, tc.reason) {
			t.Errorf("%s %v: %s %q, want path_unusable with %q", tc.dir, tc.cpus, res.Outcome, res.Reason, tc.reason)
		}
	}
	if data, _ := os.ReadFile(victim); string(data) != "precious\n" {
		t.Errorf("the symlink target was written: %q", data)
	}
}

// A hard link planted as a claim file is locked but never written.
func TestHardLinkIsNeverWritten(t *testing.T) {
	dir := claimDir(t)
	os.Mkdir(dir, 0o777)
	os.Chmod(dir, os.ModeSticky|0o777)
	victim := filepath.Join(filepath.Dir(dir), "victim")
	os.WriteFile(victim, []byte("precious\n"), 0o666)
	if err := os.Link(victim, filepath.Join(dir, MachineFile)); err != nil {
		t.Skip(err)
	}
	c := mustHold(t, dir)
	defer c.Release()
	if data, _ := os.ReadFile(victim); string(data) != "precious\n" {
		t.Errorf("a hard-linked claim file was written: %q", data)
	}
}

// A claim file deleted and recreated between open and flock is not held:
// the claim is retaken on the file that now has the name.
func TestReplacedFileIsRetaken(t *testing.T) {
	dir := claimDir(t)
	mustHold(t, dir).Release()
	replaced := false
	h := testHost(newClock())
	h.Flock = func(fd, how int) error {
		if !replaced {
			replaced = true
			os.Remove(filepath.Join(dir, MachineFile))
			os.WriteFile(filepath.Join(dir, MachineFile), nil, 0o666)
		}
		return unix.Flock(fd, how)
	}
	res := h.Acquire(Request{Dir: dir, Timeout: time.Second})
	if res.Outcome != Held {
		t.Fatalf("Acquire = %+v", res)
	}
	defer res.Claim.Release()
	if try(t, dir) {
		t.Error("the claim is on the deleted file, not the one named machine")
	}
}

// Many goroutines take random overlapping claims with real flock: no CPU
// ever has two holders, a machine-wide holder is alone, and all finish.
func TestConcurrentClaims(t *testing.T) {
	dir := claimDir(t)
	const workers, cpus = 24, 4
	var machine, total atomic.Int32
	var perCPU [cpus]atomic.Int32
	var wg sync.WaitGroup
	errs := make(chan string, workers*2)
	deadline := time.Now().Add(30 * time.Second)
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			rng := rand.New(rand.NewPCG(uint64(w), 7))
			for range 5 {
				var set []int
				if rng.IntN(4) > 0 {
					for n := range cpus {
						if rng.IntN(2) == 0 {
							set = append(set, n)
						}
					}
				}
				res := Host{Mountinfo: fixture(hostMounts)}.Acquire(Request{Dir: dir, CPUs: set, Timeout: time.Until(deadline), Poll: time.Millisecond})
				if res.Outcome != Held {
					errs <- string(res.Outcome) + ": " + res.Reason
					return
				}
				if len(set) == 0 {
					machine.Add(1)
				} else {
					for _, n := range set {
						perCPU[n].Add(1)
					}
				}
				total.Add(1)
				time.Sleep(time.Duration(rng.IntN(2000)) * time.Microsecond)
				if m := machine.Load(); m > 1 || (m == 1 && total.Load() > 1) {
					errs <- "a machine-wide claim overlapped another claim"
				}
				for n := range perCPU {
					if perCPU[n].Load() > 1 {
						errs <- "two holders of one CPU"
					}
				}
				total.Add(-1)
				if len(set) == 0 {
					machine.Add(-1)
				} else {
					for _, n := range set {
						perCPU[n].Add(-1)
					}
				}
				res.Claim.Release()
			}
		}()
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Fatal(e)
	}
}
