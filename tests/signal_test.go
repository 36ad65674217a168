package tests

import (
	"bytes"
	"errors"
	"io"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/flybench/flybench/pkg/ndjson"
)

// lastRecords parses a stream and returns its records' types and the end record.
func parseStream(t *testing.T, data []byte) ([]string, *ndjson.End) {
	t.Helper()
	var types []string
	var end *ndjson.End
	eachLine(t, data, "stdout", func(l ndjson.Line) any {
		types = append(types, l.Type)
		if l.Type == ndjson.TypeEnd {
			end = &ndjson.End{}
			return end
		}
		return nil
	})
	return types, end
}

// next appends a zero record to *s and returns it to decode into.
func next[T any](s *[]T) *T {
	*s = append(*s, *new(T))
	return &(*s)[len(*s)-1]
}

// eachLine reads data, which must be a valid stream, and decodes each
// line into what fn returns for it (nil: the line is only seen).
func eachLine(t *testing.T, data []byte, name string, fn func(ndjson.Line) any) {
	t.Helper()
	r := ndjson.NewReader(bytes.NewReader(data), name)
	for {
		l, err := r.Next()
		if errors.Is(err, io.EOF) {
			return
		}
		if err != nil {
			t.Fatalf("stream is not valid: %v", err)
		}
		if dst := fn(l); dst != nil {
			if err := r.Decode(l, dst); err != nil {
				t.Fatal(err)
			}
		}
	}
}

func TestSIGINTStopsAtUnitBoundary(t *testing.T) {
	cmd := exec.Command(tool("fb-pair"), "--progress", "none", "--samples", "1000", "-t", "100s", "--",
		tool("spin")+" -n 300000", tool("spin")+" -n 300000")
	br, out, stderr := startStream(t, cmd, ndjson.TypeSample, 6)
	if err := cmd.Process.Signal(syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	io.Copy(io.Discard, br)
	err := cmd.Wait()
	var xe *exec.ExitError
	if !errors.As(err, &xe) || xe.ExitCode() != 130 {
		t.Fatalf("exit %v, want 130; stderr %s", err, stderr.String())
	}
	types, end := parseStream(t, out.Bytes())
	if end == nil || types[len(types)-1] != ndjson.TypeEnd {
		t.Fatalf("stream does not end with an end record: %v", types)
	}
	if end.Reason != ndjson.EndInterrupted || end.Error != "interrupted by SIGINT" {
		t.Fatalf("end %+v", end)
	}
	if end.Samples[0] != end.Samples[1] || end.Units != end.Samples[0] || end.Units < 3 {
		t.Fatalf("end %+v: samples must be whole pairs", end)
	}
	if !strings.Contains(stderr.String(), "fb-pair: error: interrupted by SIGINT: kept") {
		t.Fatalf("stderr %q", stderr.String())
	}
}

func TestSIGTERMKillsAndReapsChild(t *testing.T) {
	marker := "31.4159"
	cmd := exec.Command(tool("fb-pair"), "--progress", "plain", "--", "sleep "+marker, "sleep "+marker)
	var out, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &stderr
	signalAndReap(t, cmd, marker, syscall.SIGTERM, 143, &stderr)
	_, end := parseStream(t, out.Bytes())
	if end == nil || end.Reason != ndjson.EndInterrupted || end.Units != 0 || end.Error != "interrupted by SIGTERM" {
		t.Fatalf("end %+v", end)
	}
}

// childRunning reports whether any process runs "sleep marker".
func childRunning(marker string) bool {
	dirs, _ := os.ReadDir("/proc")
	for _, d := range dirs {
		b, err := os.ReadFile("/proc/" + d.Name() + "/cmdline")
		if err == nil && bytes.Equal(b, []byte("sleep\x00"+marker+"\x00")) {
			stat, _ := os.ReadFile("/proc/" + d.Name() + "/stat")
			if !bytes.Contains(stat, []byte(") Z ")) {
				return true
			}
		}
	}
	return false
}

func waitFor(t *testing.T, cond func() bool, what string) {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if cond() {
			return
		}
	}
	t.Fatalf("timed out waiting for %s", what)
}

// TestProgressInPlaceOnPTY runs fb-pair with stderr on a real terminal:
// the progress line is redrawn in place with a fixed-width case field,
// and stdout (a pipe) carries only the stream.
func TestProgressInPlaceOnPTY(t *testing.T) {
	cmd := exec.Command(tool("fb-pair"), "--samples", "20", "-t", "2s", "--name", "short", "--name", "a-name-longer-than-the-field",
		"--", tool("spin")+" -n 10", tool("spin")+" -n 10")
	screen, out := onPTY(t, cmd)
	for _, want := range []string{"\r\x1b[2K", "fb-pair  sampling     ", "a-name-longer-t…", "/20  00:00:0", "ETA 00:00:0", "finished"} {
		if !strings.Contains(screen, want) {
			t.Errorf("terminal output lacks %q:\n%q", want, screen)
		}
	}
	if bytes.Contains(out, []byte("\x1b")) {
		t.Error("terminal controls leaked into the stream")
	}
	parseStream(t, out)
}

// signalAndReap starts cmd, waits for its child running a command that
// contains marker, sends sig, and requires exit status code within 5 s
// with the child gone: the tool killed and reaped it.
func signalAndReap(t *testing.T, cmd *exec.Cmd, marker string, sig syscall.Signal, code int, stderr *bytes.Buffer) {
	t.Helper()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	waitFor(t, func() bool { return childRunning(marker) }, "the sleep child to start")
	began := time.Now()
	if err := cmd.Process.Signal(sig); err != nil {
		t.Fatal(err)
	}
	err := cmd.Wait()
	var xe *exec.ExitError
	if !errors.As(err, &xe) || xe.ExitCode() != code {
		t.Fatalf("exit %v, want %d; stderr %s", err, code, stderr.String())
	}
	if time.Since(began) > 5*time.Second {
		t.Fatalf("took %v to stop: the child was waited for, not killed", time.Since(began))
	}
	if childRunning(marker) {
		t.Fatal("the benchmarked child outlived the run")
	}
}
