package noise

import (
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

func sh(script string) *Command { return &Command{Argv: []string{"sh", "-c", script}} }

func TestCommandReturnsStdoutAndKeepsIt(t *testing.T) {
	dir := t.TempDir()
	c := sh("echo out; echo err >&2")
	c.Keep = dir
	r, err := c.Run(context.Background(), 3)
	if err != nil {
		t.Fatal(err)
	}
	got, _ := io.ReadAll(r)
	kept, _ := os.ReadFile(filepath.Join(dir, "run-03.ndjson"))
	if string(got) != "out\n" || string(kept) != "out\n" {
		t.Errorf("stdout %q, kept %q; want out", got, kept)
	}
}

func TestCommandFailure(t *testing.T) {
	dir := t.TempDir()
	c := sh("echo partial; echo first >&2; echo no such input >&2; exit 3")
	c.Keep = dir
	_, err := c.Run(context.Background(), 2)
	var ce *CommandError
	kept, _ := os.ReadFile(KeptName(dir, 2))
	if !errors.As(err, &ce) || ce.Status.ExitStatus() != 3 || ce.Stderr != "first\nno such input\n" || ce.Kept != KeptName(dir, 2) || string(kept) != "partial\n" {
		t.Fatalf("err %#v, want exit status 3 with the stderr and the kept file", err)
	}
	if want := `invocation 2: command "sh -c 'echo partial; echo first >&2; echo no such input >&2; exit 3'" exited with status 3: no such input`; err.Error() != want {
		t.Errorf("message\n%s\nwant\n%s", err, want)
	}
}

type sigCause struct{ s syscall.Signal }

func (c sigCause) Error() string          { return "interrupted by " + c.s.String() }
func (c sigCause) Signal() syscall.Signal { return c.s }

func TestCommandForwardsTheSignalAndKillsTheGroup(t *testing.T) {
	dir := t.TempDir()
	c := sh(`trap 'echo INT > got; exit 1' INT; sleep 30 & echo $! > pid; wait`)
	c.Argv[2] = "cd " + dir + " && " + c.Argv[2]
	c.Keep = t.TempDir()
	ctx, cancel := context.WithCancelCause(context.Background())
	go func() {
		for !exists(filepath.Join(dir, "pid")) {
			time.Sleep(10 * time.Millisecond)
		}
		cancel(sigCause{syscall.SIGINT})
	}()
	_, err := c.Run(ctx, 4)
	if err == nil || err.Error() != "invocation 4: interrupted by interrupt" {
		t.Fatalf("err %v, want the cause", err)
	}
	if got, _ := os.ReadFile(filepath.Join(dir, "got")); string(got) != "INT\n" {
		t.Errorf("the command saw %q, want SIGINT", got)
	}
	if exists(KeptName(c.Keep, 4)) {
		t.Error("an interrupted invocation's output was kept")
	}
	data, _ := os.ReadFile(filepath.Join(dir, "pid"))
	pid, _ := strconv.Atoi(strings.TrimSpace(string(data)))
	for range 200 {
		if syscall.Kill(pid, 0) != nil || zombie(pid) {
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Errorf("the background sleep %d outlived its invocation", pid)
}

func exists(name string) bool {
	_, err := os.Stat(name)
	return err == nil
}

// zombie reports whether pid has exited and waits for its reaper.
func zombie(pid int) bool {
	data, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return true
	}
	_, after, _ := strings.Cut(string(data), ") ")
	return strings.HasPrefix(after, "Z")
}

func TestCommandThatCannotStart(t *testing.T) {
	script := filepath.Join(t.TempDir(), "noexec")
	if err := os.WriteFile(script, []byte("not a program"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := (&Command{Argv: []string{script}}).Run(context.Background(), 1)
	var se *StartError
	if !errors.As(err, &se) || se.I != 1 || !errors.Is(err, os.ErrPermission) {
		t.Fatalf("err %v, want a StartError for permission denied", err)
	}
}
