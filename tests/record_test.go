package tests

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/flybench/flybench/pkg/ndjson"
)

// recording is a parsed fb-record stream.
type recording struct {
	types   []string
	rec     ndjson.Recording
	spans   []ndjson.Span
	process []ndjson.ProcessUsage
	end     ndjson.RecordingEnd
}

// parseRecording checks that data is a complete recording: a recording
// record first, recording_end last, every record of its run.
func parseRecording(t *testing.T, data []byte) recording {
	t.Helper()
	var out recording
	eachLine(t, data, "stdout", func(l ndjson.Line) any {
		out.types = append(out.types, l.Type)
		switch l.Type {
		case ndjson.TypeRecording:
			return &out.rec
		case ndjson.TypeRecordingEnd:
			return &out.end
		case ndjson.TypeSpan:
			return next(&out.spans)
		case ndjson.TypeProcess:
			return next(&out.process)
		}
		return nil
	})
	if n := len(out.types); n < 2 || out.types[0] != ndjson.TypeRecording || out.types[n-1] != ndjson.TypeRecordingEnd {
		t.Fatalf("not a complete recording: %v", out.types)
	}
	for _, s := range out.spans {
		if s.RunID != out.rec.RunID {
			t.Fatalf("span of run %q in recording %q", s.RunID, out.rec.RunID)
		}
	}
	return out
}

// tallyOf is the recording_end tally of the benchmark called name.
func (r recording) tallyOf(t *testing.T, name string) ndjson.BenchmarkTally {
	t.Helper()
	for _, b := range r.rec.Benchmarks {
		for _, tl := range r.end.Benchmarks {
			if b.Name == name && tl.Index == b.Index {
				return tl
			}
		}
	}
	t.Fatalf("no benchmark %q in %+v", name, r.rec.Benchmarks)
	return ndjson.BenchmarkTally{}
}

// A Go client as PROGRAM: three connections, spans of two benchmarks,
// two spans per connection never ended.
func TestRecordProgram(t *testing.T) {
	out, err := exec.Command(tool("fb-record"), "--progress", "none", "--capacity", "50",
		"--", tool("spanload"), "-n", "300", "-c", "3", "-b", "2", "-open", "2", "-pause", "1500ms").Output()
	if err != nil {
		t.Fatal(err)
	}
	r := parseRecording(t, out)
	if r.rec.Source != "protocol" || r.rec.SampleSemantics != "individual_span" || r.rec.Program == nil ||
		r.rec.Retention != (ndjson.Retention{Policy: "reservoir", Capacity: 50, Seed: 1}) || len(r.rec.Benchmarks) != 2 {
		t.Fatalf("recording %+v", r.rec)
	}
	if len(r.spans) != 100 || r.end.Reason != "program_exited" || r.end.ProtocolErrors != 0 {
		t.Fatalf("%d spans, end %+v", len(r.spans), r.end)
	}
	// Every 10th span of a connection (i = 9, 19, ...: odd, so load-1) fails.
	for name, failures := range map[string]int64{"load-0": 0, "load-1": 90} {
		tl := r.tallyOf(t, name)
		if tl.Observed != 450 || tl.Retained != 50 || tl.Omitted != 400 || tl.Unfinished != 3 ||
			tl.Outcomes["failure"] != failures || tl.Outcomes["success"] != 450-failures {
			t.Errorf("%s: %+v", name, tl)
		}
	}
	// One process record a second while the program pauses, one at the end.
	if len(r.process) < 2 || !slices.ContainsFunc(r.process, func(p ndjson.ProcessUsage) bool { return p.ProgramRSS > 0 }) || r.process[0].RecorderRSS <= 0 {
		t.Fatalf("process records %+v", r.process)
	}
	for _, s := range r.spans {
		if s.WallNS == nil || *s.WallNS < 1000 || *s.WallNS >= 6000 || s.Obs < 1 || s.Obs > 450 {
			t.Fatalf("span %+v", s)
		}
	}
}

// A shell script through a FIFO: begin/end spans timed by fb-record.
func TestRecordFIFOShellExample(t *testing.T) {
	if _, err := exec.LookPath("sh"); err != nil {
		t.Skip("no sh")
	}
	fifo := filepath.Join(t.TempDir(), "spans")
	out, err := exec.Command(tool("fb-record"), "--progress", "none", "--fifo", fifo,
		"--", "sh", filepath.Join("..", "examples", "spansh", "span.sh"), "5").Output()
	if err != nil {
		t.Fatal(err)
	}
	r := parseRecording(t, out)
	if l := r.tallyOf(t, "list-etc"); l.Observed != 5 || l.Outcomes["success"] != 5 || l.Unfinished != 0 {
		t.Errorf("list-etc %+v", l)
	}
	if g := r.tallyOf(t, "grep-missing"); g.Observed != 5 || g.Outcomes["failure"] != 5 {
		t.Errorf("grep-missing %+v", g)
	}
	if _, err := os.Stat(fifo); !os.IsNotExist(err) {
		t.Errorf("the FIFO is left behind: %v", err)
	}
}

// The C example, when there is a compiler.
func TestRecordCExample(t *testing.T) {
	cc, err := exec.LookPath("cc")
	if err != nil {
		t.Skip("no C compiler (cc) on PATH")
	}
	bin := filepath.Join(t.TempDir(), "span")
	if out, err := exec.Command(cc, "-O2", "-Wall", "-Werror", "-o", bin, filepath.Join("..", "examples", "spanc", "span.c")).CombinedOutput(); err != nil {
		t.Fatalf("cc: %v\n%s", err, out)
	}
	out, err := exec.Command(tool("fb-record"), "--progress", "none", "--", bin, "300").Output()
	if err != nil {
		t.Fatal(err)
	}
	r := parseRecording(t, out)
	if r.rec.Benchmarks[0].Name != "short-sum" || r.rec.Benchmarks[1].Name != "long-sum" {
		t.Fatalf("benchmarks %+v", r.rec.Benchmarks)
	}
	if l := r.tallyOf(t, "long-sum"); l.Observed != 300 || l.Outcomes["failure"] != 3 {
		t.Errorf("long-sum %+v", l)
	}
}

// SIGINT while PROGRAM still holds its connection open: the signal is
// forwarded, the program reaped, the stream complete, the socket gone.
func TestRecordSIGINTLeavesAValidStream(t *testing.T) {
	sock := filepath.Join(t.TempDir(), "s.sock")
	cmd := exec.Command(tool("fb-record"), "--progress", "plain", "--socket", sock,
		"--", tool("spanload"), "-n", "100", "-open", "1", "-pause", "60s")
	var out bytes.Buffer
	cmd.Stdout = &out
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	sc := bufio.NewScanner(stderr)
	var log strings.Builder
	for sc.Scan() && !strings.Contains(sc.Text(), "load-1 done 50 live ") {
		log.WriteString(sc.Text() + "\n")
	}
	began := time.Now()
	cmd.Process.Signal(syscall.SIGINT)
	rest, _ := io.ReadAll(stderr)
	err = cmd.Wait()
	var xe *exec.ExitError
	if !errors.As(err, &xe) || xe.ExitCode() != 130 {
		t.Fatalf("exit %v, want 130; stderr %s%s", err, log.String(), rest)
	}
	if time.Since(began) > 5*time.Second {
		t.Fatalf("took %v to stop", time.Since(began))
	}
	r := parseRecording(t, out.Bytes())
	if r.end.Reason != "interrupted" || r.tallyOf(t, "load-0").Observed != 50 || r.tallyOf(t, "load-0").Unfinished != 1 {
		t.Fatalf("end %+v", r.end)
	}
	if !strings.Contains(string(rest), "interrupted by SIGINT") {
		t.Errorf("stderr %q", rest)
	}
	if _, err := os.Stat(sock); !os.IsNotExist(err) {
		t.Errorf("the socket is left behind: %v", err)
	}
}

// A faulty connection is named on stderr and closed; the recording goes
// on and counts it.
func TestRecordProtocolError(t *testing.T) {
	cmd := exec.Command(tool("fb-record"), "--progress", "none", "--", tool("spanload"), "-n", "4", "-b", "1", "-tail", "span ok five success")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("%v: %s", err, stderr.String())
	}
	r := parseRecording(t, out)
	if r.end.ProtocolErrors != 1 || r.tallyOf(t, "load-0").Observed != 4 {
		t.Fatalf("end %+v", r.end)
	}
	if !regexp.MustCompile(`fb-record: warning: connection 1 \(pid \d+\):6: WALL_NS "five"`).MatchString(stderr.String()) {
		t.Fatalf("stderr %q", stderr.String())
	}
}

// The live display on a real terminal: fixed rows redrawn in place
// (cursor up over the last frame, each row cleared and rewritten), with
// the totals row, the header and every benchmark.
func TestRecordLiveDisplayOnPTY(t *testing.T) {
	cmd := exec.Command(tool("fb-record"), "--refresh", "50ms", "--", tool("spanload"), "-n", "200", "-b", "3", "-pause", "600ms")
	screen, out := onPTY(t, cmd)
	parseRecording(t, out)
	frames := strings.Count(screen, "\r\x1b[2Kfb-record  elapsed ")
	redraws := regexp.MustCompile(`\x1b\[\d+A\r\x1b\[2Kfb-record  elapsed `).FindAllStringIndex(screen, -1)
	if frames < 3 || len(redraws) != frames-1 {
		t.Fatalf("%d frames, %d redrawn in place:\n%q", frames, len(redraws), screen)
	}
	for _, want := range []string{"benchmark                    done  live  errors     median        p95",
		"\r\x1b[2Kload-0 ", "\r\x1b[2Kload-1 ", "\r\x1b[2Kload-2 ", "cores   rss ", "fb-record: program_exited: 200 spans of 3 benchmarks"} {
		if !strings.Contains(screen, want) {
			t.Errorf("the terminal did not show %q:\n%q", want, screen)
		}
	}
	if strings.Contains(screen, "fb-record: elapsed") {
		t.Errorf("plain lines on a terminal:\n%q", screen)
	}
}
