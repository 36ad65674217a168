package cli

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/flybench/flybench/internal/report"
)

// runToolOn runs a tool in-process with stdin and returns its exit code
// and streams.
func runToolOn(stdin []byte, tool string, args ...string) (code int, stdout, stderr string) {
	var out, errs bytes.Buffer
	env := Env{Stdin: bytes.NewReader(stdin), Stdout: &out, Stderr: &errs, Getenv: func(string) string { return "" }}
	code = Run(tool, append([]string{tool}, args...), env)
	return code, out.String(), errs.String()
}

// realStream collects a short paired run of two real commands.
func realStream(t *testing.T) []byte {
	t.Helper()
	code, stream, stderr := runTool("fb-pair", "--progress", "none", "--samples", "10", "--warmup", "0", "-t", "40ms",
		"--", "true", "true")
	if code != ExitOK {
		t.Fatalf("fb-pair: exit %d\n%s", code, stderr)
	}
	return []byte(stream)
}

// lastRecord is where the last line of a stream ending in a newline
// starts, and its line number.
func lastRecord(stream []byte) (start, line int) {
	start = bytes.LastIndexByte(stream[:len(stream)-1], '\n') + 1
	return start, bytes.Count(stream[:start], []byte("\n")) + 1
}

const resamples = "--resamples=100"

// TestTornTailAtEveryOffset cuts a real stream inside its last record
// (the end record) at every byte: fb-analyze analyses what came before
// with a warning, and every report format shows it.
func TestTornTailAtEveryOffset(t *testing.T) {
	stream := realStream(t)
	start, line := lastRecord(stream)
	want := fmt.Sprintf("stream ends mid-record at line %d; the partial record was ignored", line)
	for cut := start + 1; cut < len(stream)-1; cut++ {
		code, analyzed, stderr := runToolOn(stream[:cut], "fb-analyze", resamples)
		if code != ExitOK || !strings.Contains(stderr, "fb-analyze: warning: <stdin>: "+want) {
			t.Fatalf("cut at %d of %d: exit %d, stderr %q", cut, len(stream), code, stderr)
		}
		if !strings.Contains(analyzed, `"complete":false,"warnings":["the stream was cut short (no end record); `) ||
			!strings.Contains(analyzed, want+`"]`) {
			t.Fatalf("cut at %d: the analysis does not say so:\n%s", cut, analyzed)
		}
		checkReports(t, []byte(analyzed), want, fmt.Sprintf("cut at %d", cut))
	}
	// The whole record without its newline is a whole record: no warning.
	code, analyzed, stderr := runToolOn(stream[:len(stream)-1], "fb-analyze", resamples)
	if code != ExitOK || stderr != "" || strings.Contains(analyzed, "mid-record") || !strings.Contains(analyzed, `"complete":true`) {
		t.Fatalf("no newline after a whole record: exit %d, stderr %q", code, stderr)
	}
}

// TestTornAnalyzedStream cuts an analysed stream inside its last record
// (the environment record) at every byte: fb-report shows what it has
// with a warning, and fb-analyze puts it in the analysis it writes again.
func TestTornAnalyzedStream(t *testing.T) {
	code, analyzed, stderr := runToolOn(realStream(t), "fb-analyze", resamples)
	if code != ExitOK {
		t.Fatalf("fb-analyze: exit %d, %s", code, stderr)
	}
	stream := []byte(analyzed)
	start, line := lastRecord(stream)
	want := fmt.Sprintf("stream ends mid-record at line %d; the partial record was ignored", line)
	for cut := start + 1; cut < len(stream)-1; cut++ {
		what := fmt.Sprintf("analysed stream cut at %d", cut)
		checkReports(t, stream[:cut], want, what)
		code, again, stderr := runToolOn(stream[:cut], "fb-analyze", resamples)
		if code != ExitOK || !strings.Contains(again, `"complete":true,"warnings":["`+want+`"]`) {
			t.Fatalf("%s, analysed again: exit %d, %s\n%s", what, code, stderr, again)
		}
	}
}

// checkReports runs fb-report on stream in every format: each exits 0
// and shows want.
func checkReports(t *testing.T, stream []byte, want, what string) {
	t.Helper()
	for _, format := range report.Formats() {
		if format == "hyperfine-json" || format == "svg" || format == "gobench" || format == "bmf" {
			continue // hyperfine's, Go's and Bencher's formats and a plot have no place for warnings (fb-report(1))
		}
		code, out, stderr := runToolOn(stream, "fb-report", "--format", format)
		if code != ExitOK || !strings.Contains(out, want) {
			t.Fatalf("%s: fb-report --format %s: exit %d, stderr %q; want %q in\n%s", what, format, code, stderr, want, out)
		}
	}
}

// TestTornLineInsideStream: a line cut short with lines after it is a bad
// line, whatever follows it.
func TestTornLineInsideStream(t *testing.T) {
	stream := realStream(t)
	start, line := lastRecord(stream)
	prev := bytes.LastIndexByte(stream[:start-1], '\n') + 1 // the last sample
	bad := append(append(append([]byte{}, stream[:prev+20]...), '\n'), stream[start:]...)
	for _, tool := range []string{"fb-analyze", "fb-report"} {
		code, _, stderr := runToolOn(bad, tool, resamples)
		if tool == "fb-report" {
			code, _, stderr = runToolOn(bad, tool)
		}
		wantErr := fmt.Sprintf("<stdin>:%d: invalid JSON", line-1)
		if code != ExitBadInput || !strings.Contains(stderr, wantErr) {
			t.Errorf("%s: exit %d, stderr %q; want exit 3 with %q", tool, code, stderr, wantErr)
		}
	}
}
