package claim

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"golang.org/x/sys/unix"
)

func TestStatusListsHolders(t *testing.T) {
	dir := claimDir(t)
	c := mustHold(t, dir, 0, 2)
	defer c.Release()
	os.WriteFile(filepath.Join(dir, "cpu.7"), []byte("pid=999\ntool=gone\nscope=cpus\ncpus=7\n"), 0o666)
	os.WriteFile(filepath.Join(dir, "cpu.07"), nil, 0o666) // not a claim file name
	os.WriteFile(filepath.Join(dir, "notes"), nil, 0o666)
	st, err := testHost(nil).Status(dir)
	if err != nil {
		t.Fatal(err)
	}
	if !st.Exists || st.Private || !st.LocksRead {
		t.Fatalf("status = %+v", st)
	}
	var names []string
	for _, f := range st.Files {
		names = append(names, f.Name)
	}
	if !slices.Equal(names, []string{"machine", "cpu.0", "cpu.2", "cpu.7"}) {
		t.Fatalf("files %v", names)
	}
	pid := os.Getpid()
	m, c0, c7 := st.Files[0], st.Files[1], st.Files[3]
	if m.State != "shared" || len(m.Holders) != 1 || m.Holders[0].PID != pid {
		t.Errorf("machine = %+v", m)
	}
	if c0.State != "exclusive" || c0.Holders[0] != (Holder{PID: pid, Mode: "exclusive"}) || c0.Content.PID != pid || !c0.Current {
		t.Errorf("cpu.0 = %+v, want held by and naming pid %d", c0, pid)
	}
	if c7.State != "free" || c7.Current || c7.Content.Tool != "gone" {
		t.Errorf("cpu.7 = %+v", c7)
	}
}

// Content naming another pid than the lock's holder is not current.
func TestStatusStaleContent(t *testing.T) {
	dir := claimDir(t)
	res := testHost(newClock()).Acquire(Request{Dir: dir, Content: Content{PID: 1, Tool: "liar"}})
	if res.Outcome != Held {
		t.Fatal(res.Reason)
	}
	defer res.Claim.Release()
	st, err := testHost(nil).Status(dir)
	if err != nil || len(st.Files) != 1 || st.Files[0].Current || st.Files[0].State != "exclusive" || st.Files[0].Content.Tool != "liar" {
		t.Fatalf("status = %+v, %v", st, err)
	}
}

func TestStatusWithoutDirectoryOrProcLocks(t *testing.T) {
	dir := claimDir(t)
	st, err := testHost(nil).Status(dir)
	if err != nil || st.Exists || len(st.Files) != 0 {
		t.Fatalf("Status of a missing directory = %+v, %v", st, err)
	}
	if _, err := os.Stat(dir); !errors.Is(err, os.ErrNotExist) {
		t.Error("Status created the directory")
	}
	c := mustHold(t, dir)
	defer c.Release()
	h := testHost(nil)
	h.Locks = func() (io.ReadCloser, error) { return nil, os.ErrPermission }
	st, err = h.Status(dir)
	if err != nil || st.LocksRead || st.Files[0].State != "unknown" {
		t.Fatalf("Status without /proc/locks = %+v, %v", st, err)
	}
}

func TestStatusRefusesSymlinkAndNeverLocks(t *testing.T) {
	base := t.TempDir()
	real := filepath.Join(base, "real")
	mustHold(t, real).Release()
	link := filepath.Join(base, "link")
	os.Symlink(real, link)
	if _, err := testHost(nil).Status(link); err == nil || !strings.Contains(err.Error(), "symbolic link") {
		t.Errorf("Status through a symlink: %v", err)
	}
	os.Symlink("/etc/passwd", filepath.Join(real, "cpu.3"))
	h := testHost(nil)
	h.Flock = func(int, int) error { t.Error("Status locked a file"); return nil }
	st, err := h.Status(real)
	if err != nil || len(st.Files) != 2 || !strings.Contains(st.Files[1].Problem, "symbolic link") {
		t.Fatalf("status = %+v, %v", st, err)
	}
}

func TestHoldersNamesPerCPUHoldersOfMachine(t *testing.T) {
	dir := claimDir(t)
	res := testHost(newClock()).Acquire(Request{Dir: dir, CPUs: []int{1}, Content: Content{PID: os.Getpid(), Tool: "gen", Command: "gen -n 1"}})
	if res.Outcome != Held {
		t.Fatal(res.Reason)
	}
	defer res.Claim.Release()
	busy := testHost(newClock()).Acquire(Request{Dir: dir})
	if busy.Outcome != Busy || len(busy.Holders) != 1 || !strings.Contains(busy.Holders[0], "gen (cpus 1): gen -n 1") {
		t.Fatalf("busy = %+v", busy)
	}
}

func TestProtectFDs(t *testing.T) {
	dir := claimDir(t)
	c := mustHold(t, dir, 0)
	defer c.Release()
	if err := c.KeepAcrossExec(); err != nil {
		t.Fatal(err)
	}
	r, w, _ := os.Pipe()
	defer r.Close()
	defer w.Close()
	unix.FcntlInt(r.Fd(), unix.F_SETFD, 0)
	fds := append(c.FDs(), int(r.Fd()), 987)
	env := ExecEnv([]string{"A=1", FDsEnv + "=" + strconv.Itoa(int(r.Fd()))}, fds)
	var list string
	for _, kv := range env {
		if v, ok := strings.CutPrefix(kv, FDsEnv+"="); ok {
			list = v
		}
	}
	if len(env) != 2 || len(strings.Split(list, ",")) != 4 {
		t.Fatalf("ExecEnv = %q", env)
	}
	if err := ProtectFDs(func(string) string { return list }); err != nil {
		t.Fatal(err)
	}
	for _, fd := range c.FDs() {
		if flags, _ := unix.FcntlInt(uintptr(fd), unix.F_GETFD, 0); flags&unix.FD_CLOEXEC == 0 {
			t.Errorf("claim descriptor %d is not close-on-exec", fd)
		}
	}
	if flags, _ := unix.FcntlInt(r.Fd(), unix.F_GETFD, 0); flags&unix.FD_CLOEXEC != 0 {
		t.Error("ProtectFDs touched a descriptor that is not a claim file")
	}
	if err := ProtectFDs(func(string) string { return "3,x" }); err == nil {
		t.Error("ProtectFDs accepted a malformed list")
	}
	if err := ProtectFDs(func(string) string { return "" }); err != nil {
		t.Error(err)
	}
	if got := ExecEnv([]string{FDsEnv + "=", "B=2"}, nil); len(got) != 1 || got[0] != "B=2" {
		t.Errorf("ExecEnv without descriptors = %q", got)
	}
}

func TestInherited(t *testing.T) {
	dir := claimDir(t)
	list := func(c *Claim, extra ...int) func(string) string {
		words := []string{}
		for _, fd := range append(c.FDs(), extra...) {
			words = append(words, strconv.Itoa(fd))
		}
		return func(string) string { return strings.Join(words, ",") }
	}
	r, w, _ := os.Pipe()
	defer r.Close()
	defer w.Close()
	c := mustHold(t, dir, 1, 3)
	cpus, held, err := Inherited(list(c, int(r.Fd())))
	if err != nil || !held || !slices.Equal(cpus, []int{1, 3}) {
		t.Errorf("per-CPU claim: %v %v %v, want [1 3] held", cpus, held, err)
	}
	c.Release()
	m := mustHold(t, dir)
	cpus, held, err = Inherited(list(m))
	if err != nil || !held || cpus != nil {
		t.Errorf("machine claim: %v %v %v, want held, no CPUs", cpus, held, err)
	}
	m.Release()
	if _, held, err = Inherited(func(string) string { return strconv.Itoa(int(r.Fd())) }); held || err != nil {
		t.Errorf("a pipe: held %v, %v", held, err)
	}
	if _, _, err = Inherited(func(string) string { return "x" }); err == nil {
		t.Error("a malformed list accepted")
	}
}
