package runner

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestInputFromItsStartEveryRun: every run reads the input file from its
// beginning; without the rewind the second run would read end-of-file.
func TestInputFromItsStartEveryRun(t *testing.T) {
	in := filepath.Join(t.TempDir(), "in")
	if err := os.WriteFile(in, []byte("hello\nrest\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	c := newCommand(t, Options{Argv: sh(`read x && test "$x" = hello`), Input: in})
	if _, err := c.Run(3, clk); err != nil {
		t.Fatalf("Run(3) = %v; every run should read hello first", err)
	}
	if _, err := New(Options{Argv: []string{"true"}, Input: filepath.Join(in, "missing")}); err == nil || !strings.Contains(err.Error(), "input: ") {
		t.Fatalf("New with a missing input = %v, want an input error", err)
	}
}

// TestDefaultStdinIsDevNull: without an input, a run reads end-of-file.
func TestDefaultStdinIsDevNull(t *testing.T) {
	c := newCommand(t, Options{Argv: sh(`! read x`)})
	if _, err := c.Run(2, clk); err != nil {
		t.Fatal(err)
	}
}

// TestStdoutToFile: every run's stdout lands in the file, in order; stderr
// still goes to the capture.
func TestStdoutToFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "out")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	c := newCommand(t, Options{Argv: sh("echo out; echo err >&2"), Stdout: f})
	if _, err := c.Run(3, clk); err != nil {
		t.Fatal(err)
	}
	got, _ := os.ReadFile(path)
	if string(got) != "out\nout\nout\n" || string(c.stderrTail()) != "err\n" {
		t.Fatalf("stdout file %q, stderr capture %q", got, c.stderrTail())
	}
	if _, err := New(Options{Argv: []string{"true"}, Stdout: os.Stdout}); err == nil {
		t.Fatal("stdout to the tool's stdout was accepted")
	}
}

// TestDrainedStdout: a run writing far more than a pipe holds completes,
// because the Command drains the pipe while it runs.
func TestDrainedStdout(t *testing.T) {
	c := newCommand(t, Options{Argv: sh("head -c 1000000 /dev/zero"), DrainStdout: true})
	if _, err := c.Run(3, clk); err != nil {
		t.Fatal(err)
	}
	assertNoChildren(t)
}
