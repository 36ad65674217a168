package runner

import (
	"errors"
	"os"
	"strings"
	"testing"
)

func TestHook(t *testing.T) {
	if err := Hook("true", false, false, nil, 0, nil); err != nil {
		t.Errorf("Hook(true) = %v", err)
	}
	if err := Hook("test -d /", false, false, nil, 0, nil); err != nil {
		t.Errorf("Hook(test -d /) = %v", err)
	}
}

func TestHookFailure(t *testing.T) {
	err := Hook("echo setting up; echo 'no database' >&2; exit 2", true, false, nil, 0, nil)
	var ee *ExitError
	if !errors.As(err, &ee) {
		t.Fatalf("Hook = %v, want *ExitError", err)
	}
	want := `command "echo setting up; echo 'no database' >&2; exit 2" exited with status 2: no database`
	if err.Error() != want || ee.Stderr() != "no database\n" {
		t.Errorf("Hook error = %s (stderr %q), want %s", err, ee.Stderr(), want)
	}
	if err := Hook("make | tee", false, false, nil, 0, nil); err == nil || !strings.Contains(err.Error(), "pass Command.Shell") {
		t.Errorf("Hook with a pipe and no shell = %v, want a --shell hint", err)
	}
	if err := Hook("flybench-no-such-hook", false, false, nil, 0, nil); err == nil || !strings.Contains(err.Error(), `"flybench-no-such-hook"`) {
		t.Errorf("Hook of a missing program = %v", err)
	}
}

func TestHookShow(t *testing.T) {
	out, err := os.CreateTemp(t.TempDir(), "hook")
	if err != nil {
		t.Fatal(err)
	}
	defer out.Close()
	if err := Hook("echo prepared; echo warn >&2", true, true, out, 0, nil); err != nil {
		t.Fatal(err)
	}
	if got, _ := os.ReadFile(out.Name()); string(got) != "prepared\nwarn\n" {
		t.Errorf("shown hook output = %q", got)
	}
}
