// Package simcount counts the instructions a command executes by running
// it under valgrind's cachegrind with the cache simulation off: a count
// that depends on the program and its input, not on the machine's speed
// or load, for machines without a PMU. Every run is untimed; cachegrind
// makes the command tens of times slower.
package simcount

import (
	"context"
	"errors"
	"fmt"
	"os/exec"
	"strings"

	"github.com/flybench/flybench/internal/axes"
	"github.com/flybench/flybench/internal/platform"
)

// Flags are the valgrind options of every counted run besides the log
// file: cachegrind without its cache and branch simulation (instruction
// counts only), no output file, and every child process counted too.
var Flags = []string{"--tool=cachegrind", "--cache-sim=no", "--branch-sim=no", "--cachegrind-out-file=/dev/null", "--trace-children=yes"}

// Tool is an installed valgrind.
type Tool struct {
	Path    string
	Version string // as valgrind --version prints it: "valgrind-3.19.0"
}

// Source names how a count was measured, for the counter record.
func (t Tool) Source() string {
	return fmt.Sprintf("valgrind --tool=cachegrind --cache-sim=no (%s)", t.Version)
}

// Missing is the reason recorded when valgrind is not in PATH.
const Missing = "valgrind not found in PATH: install the valgrind package"

// Find locates valgrind and asks its version. lookPath is exec.LookPath
// in the tools; tests pass their own. When it cannot, the status says why
// no count can be taken: unsupported_platform off Linux or without
// valgrind, probe_failed when valgrind does not answer.
func Find(ctx context.Context, goos string, lookPath func(string) (string, error)) (Tool, axes.Status, error) {
	if !platform.Linux(goos) {
		return Tool{}, axes.UnsupportedPlatform, errors.New(platform.Reason("instruction counting under valgrind", goos))
	}
	path, err := lookPath("valgrind")
	if err != nil {
		return Tool{}, axes.UnsupportedPlatform, errors.New(Missing)
	}
	out, err := exec.CommandContext(ctx, path, "--version").Output()
	if err != nil {
		return Tool{}, axes.ProbeFailed, fmt.Errorf("%s --version: %w", path, err)
	}
	v := strings.TrimSpace(string(out))
	if !strings.HasPrefix(v, "valgrind-") {
		return Tool{}, axes.ProbeFailed, fmt.Errorf("%s --version printed %q, not valgrind-X.Y.Z", path, v)
	}
	return Tool{Path: path, Version: v}, axes.Collected, nil
}
