package cli

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/flybench/flybench/internal/collect"
	"github.com/flybench/flybench/internal/measure"
	"github.com/flybench/flybench/internal/runner"
)

// runTool runs a tool in-process and returns its exit code and streams.
func runTool(tool string, args ...string) (code int, stdout, stderr string) {
	var out, errs bytes.Buffer
	env := Env{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errs, Getenv: func(string) string { return "" }}
	code = Run(tool, append([]string{tool}, args...), env)
	return code, out.String(), errs.String()
}

// Each refusal is a usage error before anything runs: exit 2, one error
// line (and a hint), nothing on stdout.
func TestCPUTimerRefusals(t *testing.T) {
	for _, tc := range []struct {
		name string
		args []string
		want string
	}{
		{"gotest", []string{"--timer", "cpu", "--gotest", "--", "a.test:BenchmarkX", "b.test:BenchmarkX"}, "--timer cpu with --gotest"},
		{"shared worker", []string{"--timer", "cpu", "--worker", "--case", "a", "--case", "b", "--", "./w"}, `cases "a" and "b" share one worker process`},
		{"unknown timer", []string{"--timer", "user", "--", "true", "true"}, `--timer "user": use auto, wall or cpu`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, stdout, stderr := runTool("fb-pair", tc.args...)
			if code != ExitUsage || !strings.Contains(stderr, tc.want) || stdout != "" {
				t.Fatalf("exit %d, stderr %q, stdout %q; want exit 2 with %q and no stream", code, stderr, stdout, tc.want)
			}
			if lines := strings.Count(strings.TrimSpace(stderr), "\n") + 1; lines > 2 {
				t.Errorf("%d lines of error, want one and an optional hint:\n%s", lines, stderr)
			}
		})
	}
}

func TestCPURefusalRecognizesEscapes(t *testing.T) {
	escaped := &collect.FailedError{Case: "c", Err: &runner.EscapeError{Argv: []string{"sh"}, Run: 1, Batch: 1}}
	if hint, ok := cpuRefusal(escaped); !ok || !strings.Contains(hint, "--timer wall") {
		t.Errorf("escape: %q, %v; want a refusal naming --timer wall", hint, ok)
	}
	if _, ok := cpuRefusal(fmt.Errorf("other: %w", errors.New("x"))); ok {
		t.Error("an unrelated error is not a CPU-timer refusal")
	}
}

// A first, untimed batch or request that shows work the CPU timer cannot
// see is a usage error; any other failure is a failed command.
func TestFirstRunExit(t *testing.T) {
	for _, tc := range []struct {
		err  error
		code int
	}{
		{&runner.EscapeError{Argv: []string{"sh"}, Run: 1, Batch: 1}, ExitUsage},
		{&measure.ChildrenError{Argv: []string{"./w"}, Pid: 7, Ticks: 1}, ExitUsage},
		{errors.New("exit status 3"), ExitCommandFailed},
	} {
		err := measureExit(&measure.CommandError{Err: fmt.Errorf("case: first batch: %w", tc.err)}, io.Discard)
		var ee *exitError
		if !errors.As(err, &ee) || ee.code != tc.code {
			t.Errorf("%v: %v, want exit %d", tc.err, err, tc.code)
		}
	}
}
