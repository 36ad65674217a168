// Package tests drives the real flybench binaries end to end: pipelines of
// real commands through fb-pair, fb-analyze and fb-report (testscript files
// in testdata/), signals, and progress on a real pty.
package tests

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/creack/pty"
	"github.com/rogpeppe/go-internal/testscript"

	"github.com/flybench/flybench/internal/cli"
	"github.com/flybench/flybench/internal/refwork"
)

// binDir holds the tools and example programs, built once for all tests.
var binDir string

// TestMain builds the tools and example programs into binDir for the Go
// tests that start them by path, and registers the tools with testscript,
// so that "exec fb-pair" in a script runs this test binary as fb-pair:
// the scripts exercise internal/cli in-process code (and count toward its
// coverage) while every tool still runs as its own process.
func TestMain(m *testing.M) {
	testscript.Main(withBinaries{m}, map[string]func(){
		"fb-sample":  func() { os.Exit(cli.Main("fb-sample")) },
		"fb-pair":    func() { os.Exit(cli.Main("fb-pair")) },
		"fb-analyze": func() { os.Exit(cli.Main("fb-analyze")) },
		"fb-report":  func() { os.Exit(cli.Main("fb-report")) },
		"fb-lock":    func() { os.Exit(cli.Main("fb-lock")) },
		"fb-gate":    func() { os.Exit(cli.Main("fb-gate")) },
		"fb-check":   func() { os.Exit(cli.Main("fb-check")) },
		"fb-noise":   func() { os.Exit(cli.Main("fb-noise")) },
		"fb-import":  func() { os.Exit(cli.Main("fb-import")) },
		"fb-history": func() { os.Exit(cli.Main("fb-history")) },
		"fb-refwork": func() { os.Exit(refwork.Main()) },
		"fb-record":  func() { os.Exit(cli.Main("fb-record")) },
	})
}

// withBinaries runs the tests with binDir built, and removes it after.
type withBinaries struct{ m *testing.M }

func (w withBinaries) Run() int {
	dir, err := os.MkdirTemp("", "flybench-e2e-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer os.RemoveAll(dir)
	binDir = dir
	if err := build(dir); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	return w.m.Run()
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

// onPTY runs cmd to completion with its stderr on a real terminal and its
// stdout on a pipe, and returns what the terminal showed and stdout.
func onPTY(t *testing.T, cmd *exec.Cmd) (screen string, stdout []byte) {
	t.Helper()
	master, slave, err := pty.Open()
	if err != nil {
		t.Skipf("no pty: %v", err)
	}
	defer master.Close()
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, slave
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	slave.Close()
	var tty bytes.Buffer
	done := make(chan struct{})
	go func() { io.Copy(&tty, master); close(done) }()
	if err := cmd.Wait(); err != nil {
		t.Fatal(err)
	}
	<-done
	return tty.String(), out.Bytes()
}

// startStream starts cmd with its stdout on a pipe and reads the stream
// until n records of type typ have gone by. The returned reader continues
// the stream; everything read through it is also appended to out.
func startStream(t *testing.T, cmd *exec.Cmd, typ string, n int) (br *bufio.Reader, out, stderr *bytes.Buffer) {
	t.Helper()
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	stderr, out = &bytes.Buffer{}, &bytes.Buffer{}
	cmd.Stderr = stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	br = bufio.NewReader(io.TeeReader(stdout, out))
	for seen := 0; seen < n; {
		line, err := br.ReadString('\n')
		if err != nil {
			t.Fatalf("stream ended before %d %s records: %v\n%s", n, typ, err, stderr.String())
		}
		if strings.Contains(line, `"type":"`+typ+`"`) {
			seen++
		}
	}
	return br, out, stderr
}
