package record

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/flybench/flybench/internal/progress"
)

var stillFrame = Frame{
	Elapsed: 1310 * time.Millisecond, HasUsage: true, CPUPct: 38.4, RSS: 31<<20 + 205<<10,
	Benches: []Status{
		{Name: "quick-request", Done: 66, Errs: 2, Median: 42, P95: 250, HasWindow: true, LiveKnown: true},
		{Name: "cpu-heavy-request", Done: 68, Live: 1, Errs: 1, Median: 3210000, P95: 4080000, HasWindow: true, LiveKnown: true},
		{Name: "idle", LiveKnown: true},
	},
}

func TestRowsLikeTheStillFrame(t *testing.T) {
	want := []string{
		"fb-record  elapsed 01.31 s   cpu 38.4% / 0.4 cores   rss 31.2 MiB",
		"benchmark                    done  live  errors     median        p95",
		"quick-request                  66     0       2   42.00 ns   250.0 ns",
		"cpu-heavy-request              68     1       1   3.210 ms   4.080 ms",
		"idle                            0     0       0          -          -",
	}
	got := Rows(stillFrame)
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("rows\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	many := Frame{Benches: make([]Status, MaxRows+3)}
	rows := Rows(many)
	if len(rows) != 2+MaxRows+1 || rows[len(rows)-1] != "... and 3 more benchmarks" || !strings.Contains(rows[0], "cpu -   rss -") {
		t.Fatalf("rows %q", rows)
	}
}

func TestDurationUnits(t *testing.T) {
	for ns, want := range map[int64]string{0: "0.000 ns", 999: "999.0 ns", 1000: "1.000 us", 140300: "140.3 us", 19010000: "19.01 ms", 2.5e9: "2.500 s"} {
		if got := Duration(ns); got != want {
			t.Errorf("Duration(%d) = %q, want %q", ns, got, want)
		}
	}
}

// On a terminal every frame after the first moves up over the last one
// and clears and rewrites each row; a warning erases the frame, prints
// its line, and draws the frame again below it.
func TestTTYRedrawsInPlace(t *testing.T) {
	var buf bytes.Buffer
	d := NewDisplay(&buf, progress.TTY)
	d.Draw(stillFrame)
	first := buf.String()
	if !strings.HasPrefix(first, "\r\x1b[2Kfb-record  elapsed") || strings.Contains(first, "A\r") {
		t.Fatalf("the first frame must not move up: %q", first)
	}
	buf.Reset()
	d.Draw(stillFrame)
	if !strings.HasPrefix(buf.String(), "\x1b[5A\r\x1b[2Kfb-record  elapsed") || strings.Count(buf.String(), "\r\x1b[2K") != 5 {
		t.Fatalf("second frame %q", buf.String())
	}
	buf.Reset()
	d.Warn("connection 2:7: bad")
	if !strings.HasPrefix(buf.String(), "\x1b[5A\r\x1b[Jfb-record: warning: connection 2:7: bad\n\r\x1b[2Kfb-record  elapsed") {
		t.Fatalf("warning %q", buf.String())
	}
}

func TestPlainAndNone(t *testing.T) {
	var buf bytes.Buffer
	d := NewDisplay(&buf, progress.Plain)
	d.Draw(stillFrame)
	want := "fb-record: elapsed 01.31 s  cpu 38.4% / 0.4 cores  rss 31.2 MiB  | quick-request done 66 live 0 errors 2 median 42.00 ns p95 250.0 ns" +
		"  | cpu-heavy-request done 68 live 1 errors 1 median 3.210 ms p95 4.080 ms  | idle done 0 live 0 errors 0\n"
	if buf.String() != want {
		t.Fatalf("plain\n%q\nwant\n%q", buf.String(), want)
	}
	buf.Reset()
	d = NewDisplay(&buf, progress.None)
	d.Draw(stillFrame)
	d.Warn("w")
	if buf.String() != "fb-record: warning: w\n" {
		t.Fatalf("none printed %q", buf.String())
	}
}

func TestLiveUnknownWithoutBegins(t *testing.T) {
	f := Frame{Benches: []Status{{Name: "finished-only", Done: 5}}}
	if row := Rows(f)[2]; !strings.Contains(row, "       5     -       0") {
		t.Errorf("row %q: live must read - when no begin line was seen", row)
	}
	if line := plainLine(f); !strings.Contains(line, "done 5 live - errors 0") {
		t.Errorf("plain %q", line)
	}
}
