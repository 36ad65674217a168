package tests

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/flybench/flybench/pkg/ndjson"
)

// TestScripts runs testdata/*.txtar with the tools registered by TestMain
// first on $PATH (this test binary, running internal/cli) and the built example
// programs after them.
// Extra commands: csvcheck FILE (every row has the header's column count),
// jsoncheck FILE (one JSON document), streamcheck FILE [TYPE=N...] (a valid
// stream with exactly N records of each named type), cputimecheck FILE
// CASE [MAXSHARE MINWALL] (a CPU-timed case, see cpuTimeCheck), status
// CODE PROGRAM [ARGS...] (runs PROGRAM and requires exit status CODE; its
// stdout and stderr are the script's, for stdout/stderr to check),
// layoutcheck STREAM PADS (layout_check_test.go), sizecheck STREAM
// (size_check_test.go).
func TestScripts(t *testing.T) {
	testscript.Run(t, testscript.Params{
		Dir: "testdata",
		Setup: func(env *testscript.Env) error {
			env.Setenv("PATH", env.Getenv("PATH")+string(os.PathListSeparator)+binDir)
			env.Setenv("NO_COLOR", "")
			repo, err := filepath.Abs("..")
			env.Setenv("BIN", binDir) // for scripts that copy a tool or example program
			env.Setenv("REPO", repo)  // for scripts that run the repository's own files (examples/ci)
			return err
		},
		Cmds: map[string]func(ts *testscript.TestScript, neg bool, args []string){
			"csvcheck":     csvCheck,
			"jsoncheck":    jsonCheck,
			"streamcheck":  streamCheck,
			"longcsvcheck": longCSVCheck,
			"cputimecheck": cpuTimeCheck,
			"status":       statusCmd,
			"layoutcheck":  layoutCheck,
			"sizecheck":    sizeCheck,
			"staleSocket":  staleSocket,
		},
		Condition: func(cond string) (bool, error) {
			if cond == "pmu" {
				return hasPMU(), nil
			}
			return false, fmt.Errorf("unknown condition %q", cond)
		},
		RequireExplicitExec: true,
	})
}

func csvCheck(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) != 1 || neg {
		ts.Fatalf("usage: csvcheck FILE")
	}
	r := csv.NewReader(strings.NewReader(ts.ReadFile(args[0])))
	r.FieldsPerRecord = -1
	rows, err := r.ReadAll()
	ts.Check(err)
	if len(rows) < 2 {
		ts.Fatalf("csv has %d rows, want a header and data", len(rows))
	}
	for i, row := range rows {
		if len(row) != len(rows[0]) {
			ts.Fatalf("csv row %d has %d columns, header has %d", i+1, len(row), len(rows[0]))
		}
	}
}

// longCSVCheck checks the long-form CSV: available agrees with status in
// every row, and a row with no values has empty value cells, never 0.
func longCSVCheck(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) != 1 || neg {
		ts.Fatalf("usage: longcsvcheck FILE")
	}
	rows, err := csv.NewReader(strings.NewReader(ts.ReadFile(args[0]))).ReadAll()
	ts.Check(err)
	col := map[string]int{}
	for i, name := range rows[0] {
		col[name] = i
	}
	for i, row := range rows[1:] {
		status, available := row[col["status"]], row[col["available"]]
		if (status == "collected") != (available == "true") {
			ts.Fatalf("row %d: status %s but available %s", i+2, status, available)
		}
		if row[col["n"]] == "0" && (row[col["median"]] != "" || row[col["change"]] != "") {
			ts.Fatalf("row %d: an axis without values has value cells: %v", i+2, row)
		}
	}
}

// hasPMU reports whether the kernel exposes a hardware PMU.
func hasPMU() bool {
	for _, name := range []string{"cpu", "cpu_core", "cpu_atom"} {
		if _, err := os.Stat("/sys/bus/event_source/devices/" + name); err == nil {
			return true
		}
	}
	return false
}

func jsonCheck(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) != 1 || neg {
		ts.Fatalf("usage: jsoncheck FILE")
	}
	dec := json.NewDecoder(strings.NewReader(ts.ReadFile(args[0])))
	var v map[string]any
	ts.Check(dec.Decode(&v))
	if _, err := dec.Token(); err != io.EOF {
		ts.Fatalf("more than one JSON document")
	}
	if _, ok := v["runs"]; !ok {
		ts.Fatalf("json document has no runs")
	}
}

func streamCheck(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) < 1 {
		ts.Fatalf("usage: streamcheck FILE [TYPE=N...]")
	}
	counts, err := countRecords(ts.MkAbs(args[0]))
	if neg {
		if err == nil {
			ts.Fatalf("stream is valid")
		}
		return
	}
	ts.Check(err)
	for _, want := range args[1:] {
		typ, n, _ := strings.Cut(want, "=")
		if got := fmt.Sprint(counts[typ]); got != n {
			ts.Fatalf("%d %s records, want %s", counts[typ], typ, n)
		}
	}
}

// countRecords reads a whole stream, decoding every known record.
func countRecords(path string) (map[string]int, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	r := ndjson.NewReader(bytes.NewReader(data), filepath.Base(path))
	counts := map[string]int{}
	for {
		l, err := r.Next()
		if err == io.EOF {
			return counts, nil
		}
		if err != nil {
			return nil, err
		}
		var v map[string]any
		if err := r.Decode(l, &v); err != nil {
			return nil, err
		}
		counts[l.Type]++
	}
}

// cpuTimeCheck checks every sample of one case of a CPU-timed stream: its
// op_ns is its cpu_ns per operation, and its wall time per operation is
// the axis wall. With MAXSHARE and MINWALL (a duration) it also checks
// that the CPU time per operation is at most MAXSHARE of the wall time,
// which is at least MINWALL: a command that mostly waits.
func cpuTimeCheck(ts *testscript.TestScript, neg bool, args []string) {
	if (len(args) != 2 && len(args) != 4) || neg {
		ts.Fatalf("usage: cputimecheck FILE CASE [MAXSHARE MINWALL]")
	}
	c, err := strconv.Atoi(args[1])
	ts.Check(err)
	share, minWall := math.Inf(1), time.Duration(0)
	if len(args) == 4 {
		share, err = strconv.ParseFloat(args[2], 64)
		ts.Check(err)
		minWall, err = time.ParseDuration(args[3])
		ts.Check(err)
	}
	r := ndjson.NewReader(strings.NewReader(ts.ReadFile(args[0])), args[0])
	n := 0
	for {
		l, err := r.Next()
		if err == io.EOF {
			break
		}
		ts.Check(err)
		if l.Type == ndjson.TypeRun {
			var run ndjson.Run
			ts.Check(r.Decode(l, &run))
			if run.Timer.KindOf() != ndjson.TimerCPU || len(run.Axes) < 2 || run.Axes[0].Name != "cpu_time" || run.Axes[1].Name != "wall" {
				ts.Fatalf("run timer %+v, axes %+v: want a CPU timer, then the axes cpu_time and wall", run.Timer, run.Axes)
			}
		}
		if l.Type != ndjson.TypeSample {
			continue
		}
		var s ndjson.Sample
		ts.Check(r.Decode(l, &s))
		if s.Case == c {
			checkCPUSample(ts, s, share, minWall)
			n++
		}
	}
	if n == 0 {
		ts.Fatalf("no samples of case %d", c)
	}
}

func checkCPUSample(ts *testscript.TestScript, s ndjson.Sample, share float64, minWall time.Duration) {
	w, ok := s.Axes["wall"]
	if !ok || w.V == nil {
		ts.Fatalf("sample %d: no value of the axis wall: %+v", s.Seq, w)
	}
	wall := *w.V
	switch {
	case s.CPUNS == nil || s.OpNS != float64(*s.CPUNS)/float64(s.Iter):
		ts.Fatalf("sample %d: op_ns %g is not cpu_ns per operation (cpu_ns %v, iter %d)", s.Seq, s.OpNS, s.CPUNS, s.Iter)
	case math.Abs(wall-float64(s.WallNS)/float64(s.Iter)) > 1e-6*wall:
		ts.Fatalf("sample %d: axis wall %g is not wall_ns %d per operation", s.Seq, wall, s.WallNS)
	case s.OpNS > share*wall:
		ts.Fatalf("sample %d: CPU time %.0f ns/op is more than %g of its wall time %.0f ns/op", s.Seq, s.OpNS, share, wall)
	case wall < float64(minWall):
		ts.Fatalf("sample %d: wall time %.0f ns/op, want at least %v", s.Seq, wall, minWall)
	}
}

// statusCmd runs a program found on the script's $PATH, in the script's
// directory and environment, and fails unless it exits with the given
// status. Its output becomes the script's stdout and stderr.
func statusCmd(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) < 2 {
		ts.Fatalf("usage: status CODE PROGRAM [ARGS...]")
	}
	want, err := strconv.Atoi(args[0])
	ts.Check(err)
	// ts.Exec runs it as exec would: the script's environment, directory
	// and stdin, its stdout and stderr kept for the next checks.
	err = ts.Exec(args[1], args[2:]...)
	got := 0
	var ee *exec.ExitError
	switch {
	case errors.As(err, &ee):
		got = ee.ExitCode()
	case err != nil:
		ts.Fatalf("status: %v", err)
	}
	if got != want {
		ts.Fatalf("%s exited with status %d, want %d", args[1], got, want)
	}
}

// staleSocket FILE leaves a Unix socket file nobody listens on, as a
// process killed with SIGKILL does.
func staleSocket(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: staleSocket FILE")
	}
	l, err := net.ListenUnix("unix", &net.UnixAddr{Name: ts.MkAbs(args[0]), Net: "unix"})
	ts.Check(err)
	l.SetUnlinkOnClose(false)
	ts.Check(l.Close())
}
