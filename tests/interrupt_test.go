package tests

import (
	"bytes"
	"io"
	"os"
	"os/exec"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// TestPipelineInterrupted is flybench issue 21, item 1: the terminal's
// Ctrl-C signals the whole process group of fb-pair | fb-analyze |
// fb-report. They exited 141 130 130 and printed nothing: fb-analyze and
// fb-report died at once, and fb-pair of SIGPIPE. Now the producer ends
// its stream with its end record and its --cleanup, the readers read it
// to its end and analyse and report what arrived, with a warning, and all
// three exit 130 (143 for SIGTERM).
func TestPipelineInterrupted(t *testing.T) {
	for _, c := range []struct {
		sig  syscall.Signal
		code int
		name string
	}{{syscall.SIGINT, 130, "SIGINT"}, {syscall.SIGTERM, 143, "SIGTERM"}} {
		t.Run(c.name, func(t *testing.T) {
			cleanup := t.TempDir() + "/cleanup"
			spin := tool("spin") + " -n 300000"
			p := startPipeline(t, [][]string{
				{tool("fb-pair"), "--progress", "plain", "--samples", "1000", "-t", "100s", "--cleanup", "touch " + cleanup, "--", spin, spin},
				{tool("fb-analyze"), "--resamples", "100"},
				{tool("fb-report"), "--format", "markdown"},
			})
			waitFor(t, func() bool { return strings.Contains(p.stderr[0].String(), "sampling") }, "fb-pair to sample")
			time.Sleep(500 * time.Millisecond) // a few pairs
			if err := syscall.Kill(-p.cmds[0].Process.Pid, c.sig); err != nil {
				t.Fatal(err)
			}
			codes := p.wait(t, 20*time.Second)
			for i, want := range []int{c.code, c.code, c.code} {
				if codes[i] != want {
					t.Errorf("stage %d exited %d, want %d; stderr %q", i+1, codes[i], want, p.stderr[i].String())
				}
			}
			report := p.out.String()
			if !strings.Contains(report, "run ended interrupted after") || !strings.Contains(report, "interrupted by "+c.name) {
				t.Errorf("the report does not say the run was interrupted:\n%s", report)
			}
			if !strings.Contains(report, "spin -n 300000") {
				t.Errorf("no result in the report:\n%s", report)
			}
			for i, tool := range []string{"fb-analyze", "fb-report"} {
				want := tool + ": warning: " + c.name + ": reading the input to its end"
				if !strings.Contains(p.stderr[i+1].String(), want) {
					t.Errorf("%s stderr %q lacks %q", tool, p.stderr[i+1].String(), want)
				}
			}
			if _, err := os.Stat(cleanup); err != nil {
				t.Errorf("--cleanup did not run: %v", err)
			}
		})
	}
}

// TestSecondSignalStopsReader: a reader whose input does not end keeps
// reading after the first SIGINT, and the second ends it at once.
func TestSecondSignalStopsReader(t *testing.T) {
	for _, name := range []string{"fb-analyze", "fb-report", "fb-check"} {
		t.Run(name, func(t *testing.T) {
			cmd := exec.Command(tool(name))
			w, err := cmd.StdinPipe()
			if err != nil {
				t.Fatal(err)
			}
			defer w.Close()
			var stderr bytes.Buffer
			cmd.Stderr = &stderr
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			done := make(chan error, 1)
			go func() { done <- cmd.Wait() }()
			time.Sleep(time.Second) // the signal handler is in place, even on a loaded machine
			cmd.Process.Signal(syscall.SIGINT)
			select {
			case err := <-done:
				t.Fatalf("stopped at the first SIGINT: %v; stderr %q", err, stderr.String())
			case <-time.After(500 * time.Millisecond):
			}
			cmd.Process.Signal(syscall.SIGINT)
			select {
			case <-done:
			case <-time.After(5 * time.Second):
				cmd.Process.Kill()
				t.Fatal("still running 5 s after the second SIGINT")
			}
			if code := exitStatus(cmd.ProcessState); code != 130 {
				t.Errorf("exit %d, want 130; stderr %q", code, stderr.String())
			}
			if !strings.Contains(stderr.String(), name+": error: SIGINT again: stopped at once") {
				t.Errorf("stderr %q", stderr.String())
			}
		})
	}
}

// pipeline is a shell pipeline's worth of processes in one process group,
// as a terminal's job: each stage's stdout is the next one's stdin.
type pipeline struct {
	cmds   []*exec.Cmd
	stderr []*lockedBuffer
	out    bytes.Buffer
}

// lockedBuffer is a stage's stderr, written by os/exec's copying
// goroutine while the test polls it.
type lockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

func startPipeline(t *testing.T, stages [][]string) *pipeline {
	t.Helper()
	p := &pipeline{}
	var in io.Reader
	for i, argv := range stages {
		cmd := exec.Command(argv[0], argv[1:]...)
		cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
		if i > 0 {
			cmd.SysProcAttr.Pgid = p.cmds[0].Process.Pid
		}
		cmd.Stdin = in
		stderr := &lockedBuffer{}
		cmd.Stderr = stderr
		if i == len(stages)-1 {
			cmd.Stdout = &p.out
		} else {
			r, w, err := os.Pipe()
			if err != nil {
				t.Fatal(err)
			}
			cmd.Stdout, in = w, r
			defer w.Close()
			defer r.Close()
		}
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		p.cmds, p.stderr = append(p.cmds, cmd), append(p.stderr, stderr)
	}
	t.Cleanup(func() {
		for _, c := range p.cmds {
			if c.ProcessState == nil {
				c.Process.Kill()
			}
		}
	})
	return p
}

// wait waits for every stage, at most limit in all, and returns their
// exit statuses.
func (p *pipeline) wait(t *testing.T, limit time.Duration) []int {
	t.Helper()
	done := make(chan struct{})
	go func() {
		for _, c := range p.cmds {
			c.Wait()
		}
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(limit):
		syscall.Kill(-p.cmds[0].Process.Pid, syscall.SIGKILL)
		<-done
		t.Fatalf("the pipeline still ran %v after the signal", limit)
	}
	codes := make([]int, len(p.cmds))
	for i, c := range p.cmds {
		codes[i] = exitStatus(c.ProcessState)
	}
	return codes
}
