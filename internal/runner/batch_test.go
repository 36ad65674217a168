package runner

import (
	"strconv"
	"strings"
	"testing"

	"github.com/flybench/flybench/pkg/probes"
)

func TestBatchOneProcessPerBatchWithReport(t *testing.T) {
	c, err := New(Options{Batch: true, Argv: []string{"/bin/sh", "-c",
		`echo "timer source=test resolution_ns=1" >&3; echo "done {n} elapsed_ns=$((FLYBENCH_N * 3))" >&$FLYBENCH_REPORT_FD`}})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	for _, n := range []int64{7, 1000} {
		if _, err := c.Run(n, probes.Monotonic{}); err != nil {
			t.Fatal(err)
		}
		want := "timer source=test resolution_ns=1\ndone " + itoa(n) + " elapsed_ns=" + itoa(3*n) + "\n"
		if got := string(c.Report()); got != want {
			t.Fatalf("n=%d report %q, want %q", n, got, want)
		}
		if u := c.Usage(); u.Runs != 1 {
			t.Fatalf("a batch is one process, got %d runs", u.Runs)
		}
	}
}

func TestBatchWithoutReport(t *testing.T) {
	c, err := New(Options{Batch: true, Argv: []string{"/bin/true"}})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if _, err := c.Run(5, probes.Monotonic{}); err != nil || len(c.Report()) != 0 {
		t.Fatalf("err %v report %q", err, c.Report())
	}
}

func TestBatchFailureShowsStderr(t *testing.T) {
	c, err := New(Options{Batch: true, Argv: []string{"/bin/sh", "-c", "echo bad batch of {n} >&2; exit 4"}})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	_, err = c.Run(9, probes.Monotonic{})
	if err == nil || !strings.Contains(err.Error(), "bad batch of 9") {
		t.Fatalf("err %v", err)
	}
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }

func TestBatchOutputToReport(t *testing.T) {
	c, err := New(Options{Batch: true, OutputToReport: true, Argv: []string{"/bin/sh", "-c", "echo out {n}; echo err >&2"}})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if _, err := c.Run(3, probes.Monotonic{}); err != nil {
		t.Fatal(err)
	}
	if got := string(c.Report()); got != "out 3\nerr\n" {
		t.Fatalf("report %q", got)
	}
}
