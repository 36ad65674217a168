package simcount

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// installed is the real valgrind, or a skip saying how to get it.
func installed(t *testing.T) Tool {
	t.Helper()
	tool, _, err := Find(context.Background(), runtime.GOOS, exec.LookPath)
	if err != nil {
		t.Skipf("valgrind not installed: make test installs it with apt-get; or apt-get install valgrind (%v)", err)
	}
	return tool
}

// TestRealCount counts a C program twice (the same count: nothing in it
// depends on time) and a failing one.
func TestRealCount(t *testing.T) {
	tool := installed(t)
	if !strings.HasPrefix(tool.Source(), "valgrind --tool=cachegrind --cache-sim=no (valgrind-3.") {
		t.Fatalf("source %q", tool.Source())
	}
	a, err := tool.Count(context.Background(), Run{Argv: []string{"true"}})
	if err != nil || a < 1000 {
		t.Fatalf("true: %d, %v", a, err)
	}
	b, err := tool.Count(context.Background(), Run{Argv: []string{"true"}})
	if err != nil || a != b {
		t.Fatalf("true counted %d then %d (%v)", a, b, err)
	}
	sh, err := tool.Count(context.Background(), Run{Argv: []string{"sh", "-c", "true; true"}})
	if err != nil || sh <= a {
		t.Fatalf("a shell running true counted %d (true alone %d): %v", sh, a, err)
	}
	if _, err := tool.Count(context.Background(), Run{Argv: []string{"sh", "-c", "echo broken >&2; exit 3"}}); err == nil ||
		!strings.Contains(err.Error(), "exit status 3: broken") {
		t.Fatalf("a failing command: %v", err)
	}
}

// TestRealCountReadsInput: a counted run reads the --input file as its
// standard input, and /dev/null without one.
func TestRealCountReadsInput(t *testing.T) {
	tool := installed(t)
	in := filepath.Join(t.TempDir(), "in")
	if err := os.WriteFile(in, []byte("hello\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	reads := []string{"sh", "-c", `read x && test "$x" = hello`}
	if _, err := tool.Count(context.Background(), Run{Argv: reads, Stdin: in}); err != nil {
		t.Fatalf("with the input: %v", err)
	}
	if _, err := tool.Count(context.Background(), Run{Argv: reads}); err == nil {
		t.Fatal("without the input the command read hello from somewhere")
	}
}
