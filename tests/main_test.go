// Package tests drives the real flybench binaries end to end: pipelines of
// real commands through fb-pair, fb-analyze and fb-report (testscript files
// in testdata/), signals, and progress on a real pty.
package tests

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"testing"
)

// binDir holds the tools and example programs, built once for all tests.
var binDir string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "flybench-e2e-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	binDir = dir
	code := 1
	if err := build(dir); err != nil {
		fmt.Fprintln(os.Stderr, err)
	} else {
		code = m.Run()
	}
	os.RemoveAll(dir)
	os.Exit(code)
}

// build compiles the tools and examples of this module into dir.
func build(dir string) error {
	_, file, _, _ := runtime.Caller(0)
	root := filepath.Dir(filepath.Dir(file))
	cmd := exec.Command("go", "build", "-o", dir+"/", "./cmd/...", "./examples/...")
	cmd.Dir = root
	out, err := cmd.CombinedOutput()
	if err != nil {
		return fmt.Errorf("build binaries: %v\n%s", err, out)
	}
	return nil
}

// tool is the path of a built binary.
func tool(name string) string {
	return filepath.Join(binDir, name)
}
