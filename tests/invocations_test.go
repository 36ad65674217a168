package tests

import (
	"bytes"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"syscall"
	"testing"

	"github.com/flybench/flybench/pkg/ndjson"
)

// blocked is a stream collected in process blocks, decoded.
type blocked struct {
	runs    []ndjson.Run
	blocks  []ndjson.Block
	samples []ndjson.Sample
	ends    []ndjson.End
}

func readBlocked(t *testing.T, data []byte) blocked {
	t.Helper()
	var s blocked
	eachLine(t, data, "stream", func(l ndjson.Line) any {
		switch l.Type {
		case ndjson.TypeRun:
			return next(&s.runs)
		case ndjson.TypeBlock:
			return next(&s.blocks)
		case ndjson.TypeSample:
			return next(&s.samples)
		case ndjson.TypeEnd:
			return next(&s.ends)
		}
		return nil
	})
	return s
}

// workerArgs is an A/A worker comparison in k blocks of n samples.
func workerArgs(k, n string) []string {
	w := tool("nsworker")
	return []string{"--progress", "none", "--worker", "--case", "popcount-bits", "--invocations", k,
		"--samples", n, "--warmup", "5ms", "-t", "50ms", "--", w, w}
}

// TestInvocationsWorker: four AB/BA blocks of fresh workers, orientation
// alternating, every sample marked with its block, each block's workers
// new processes.
func TestInvocationsWorker(t *testing.T) {
	out, err := exec.Command(tool("fb-pair"), workerArgs("4", "10")...).Output()
	if err != nil {
		t.Fatal(err)
	}
	s := readBlocked(t, out)
	if len(s.runs) != 1 || len(s.ends) != 1 || len(s.blocks) != 4 || s.ends[0].Reason != ndjson.EndCompleted {
		t.Fatalf("%d runs, %d blocks, ends %+v", len(s.runs), len(s.blocks), s.ends)
	}
	if c := s.runs[0].Config; c.Invocations != 4 || c.ProcessDesign != "ab-ba" {
		t.Fatalf("run config %+v", c)
	}
	pids := map[int]bool{}
	for i, b := range s.blocks {
		if b.Block != i || b.Status != ndjson.BlockComplete || !slices.Equal(b.Samples, []int{10, 10}) {
			t.Fatalf("block %+v", b)
		}
		if i > 0 && b.Orientation == s.blocks[i-1].Orientation {
			t.Fatalf("blocks %d and %d both %s", i-1, i, b.Orientation)
		}
		for _, p := range b.PIDs {
			if pids[p] {
				t.Fatalf("pid %d in two blocks: %+v", p, s.blocks)
			}
			pids[p] = true
		}
	}
	for i, smp := range s.samples {
		if smp.Proc == nil || smp.Proc.Block != i/20 {
			t.Fatalf("sample %d: proc %+v", i, smp.Proc)
		}
	}
	an := exec.Command(tool("fb-analyze"))
	an.Stdin = bytes.NewReader(out)
	if res, err := an.Output(); err != nil || !bytes.Contains(res, []byte(`"type":"comparison"`)) {
		t.Fatalf("fb-analyze: %v\n%s", err, res)
	}
}

// TestInvocationsBatch: batch processes are fresh per batch; a block
// redoes warm-up and calibration.
func TestInvocationsBatch(t *testing.T) {
	out, err := exec.Command(tool("fb-sample"), "--progress", "none", "--batch", "--invocations", "2",
		"--samples", "10", "--warmup", "0", "-t", "20ms", "--", tool("spin")+" -n {n}").Output()
	if err != nil {
		t.Fatal(err)
	}
	s := readBlocked(t, out)
	if len(s.blocks) != 2 || s.blocks[1].Status != ndjson.BlockComplete || s.blocks[0].Orientation != "" || s.runs[0].Config.ProcessDesign != "single" {
		t.Fatalf("blocks %+v", s.blocks)
	}
}

// interrupted runs an --invocations collection into path and interrupts
// it with SIGINT in its second block.
func interrupted(t *testing.T, path string, args []string) {
	t.Helper()
	cmd := exec.Command(tool("fb-pair"), args...)
	br, out, stderr := startStream(t, cmd, ndjson.TypeSample, 50)
	if err := cmd.Process.Signal(syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	io.Copy(io.Discard, br)
	var xe *exec.ExitError
	if err := cmd.Wait(); !errors.As(err, &xe) || xe.ExitCode() != 130 {
		t.Fatalf("exit %v, want 130; stderr %s", err, stderr)
	}
	if err := os.WriteFile(path, out.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestResume: an interrupted collection continues in its archive: the
// interrupted block stays marked, fresh blocks follow until four are
// complete, and the stream keeps one run and one end record.
func TestResume(t *testing.T) {
	path := filepath.Join(t.TempDir(), "run.ndjson")
	args := workerArgs("4", "20")
	interrupted(t, path, args)
	resume := append([]string{"--resume", path}, args...)
	if out, err := exec.Command(tool("fb-pair"), resume...).CombinedOutput(); err != nil {
		t.Fatalf("resume: %v\n%s", err, out)
	}
	data, _ := os.ReadFile(path)
	s := readBlocked(t, data)
	if len(s.runs) != 1 || len(s.ends) != 1 || s.ends[0].Reason != ndjson.EndCompleted {
		t.Fatalf("%d runs, ends %+v", len(s.runs), s.ends)
	}
	var complete, cut []int
	for _, b := range s.blocks {
		if b.Status == ndjson.BlockComplete {
			complete = append(complete, b.Block)
		} else {
			cut = append(cut, b.Block)
		}
	}
	// 50 samples in, the second block (20 pairs each) was under way
	if !slices.Equal(complete, []int{0, 2, 3, 4}) || !slices.Equal(cut, []int{1}) {
		t.Fatalf("complete blocks %v, interrupted %v", complete, cut)
	}
	if s.ends[0].Samples[0] != len(s.samples)/2 {
		t.Fatalf("end %+v for %d samples", s.ends[0], len(s.samples))
	}
	units := map[[2]int]bool{}
	for _, smp := range s.samples {
		key := [2]int{smp.Unit, smp.Case}
		if smp.Proc == nil || units[key] {
			t.Fatalf("sample %+v repeats a unit or has no block", smp)
		}
		units[key] = true
	}
	if out, err := exec.Command(tool("fb-pair"), resume...).CombinedOutput(); err == nil || !bytes.Contains(out, []byte("already has 4 complete blocks")) {
		t.Fatalf("second resume: %v\n%s", err, out)
	}
}

// TestRetryFailed: --retry-failed collects the interrupted block again,
// same block, next attempt.
func TestRetryFailed(t *testing.T) {
	path := filepath.Join(t.TempDir(), "run.ndjson")
	args := workerArgs("2", "20")
	interrupted(t, path, args)
	resume := append([]string{"--resume", path, "--retry-failed"}, args...)
	if out, err := exec.Command(tool("fb-pair"), resume...).CombinedOutput(); err != nil {
		t.Fatalf("resume: %v\n%s", err, out)
	}
	data, _ := os.ReadFile(path)
	s := readBlocked(t, data)
	last := s.blocks[len(s.blocks)-1]
	if len(s.blocks) != 3 || s.blocks[1].Status != ndjson.BlockInterrupted || last.Block != 1 || last.Attempt != 1 || last.Status != ndjson.BlockComplete {
		t.Fatalf("blocks %+v", s.blocks)
	}
	if last.Orientation != s.blocks[1].Orientation {
		t.Fatalf("retried block %s, first attempt %s", last.Orientation, s.blocks[1].Orientation)
	}
}
