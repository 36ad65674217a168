package record

import (
	"fmt"
	"io"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/flybench/flybench/internal/progress"
)

// MaxRows is how many benchmarks the in-place display lists; the rest
// are counted on one more row.
const MaxRows = 20

// nameWidth is the display's benchmark column.
const nameWidth = 24

// Frame is one state of the live display.
type Frame struct {
	Elapsed  time.Duration
	HasUsage bool
	CPUPct   float64 // fb-record plus the observed program, 100 = one core
	RSS      int64   // fb-record plus the observed program
	Benches  []Status
}

// Display shows frames on stderr: fixed rows redrawn in place on a
// terminal (TTY), one line per frame (Plain), or nothing (None). Warnings
// are printed in every mode, above the rows.
type Display struct {
	mu   sync.Mutex
	w    io.Writer
	mode progress.Mode
	rows int // rows the last in-place frame drew
	last *Frame
}

// NewDisplay returns a display on w.
func NewDisplay(w io.Writer, mode progress.Mode) *Display { return &Display{w: w, mode: mode} }

// Draw shows f.
func (d *Display) Draw(f Frame) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.last = &f
	switch d.mode {
	case progress.TTY:
		d.redraw(f)
	case progress.Plain:
		fmt.Fprintln(d.w, plainLine(f))
	}
}

// redraw moves up over the previous frame and rewrites every row.
func (d *Display) redraw(f Frame) {
	var b strings.Builder
	if d.rows > 0 {
		fmt.Fprintf(&b, "\x1b[%dA", d.rows)
	}
	rows := Rows(f)
	for _, r := range rows {
		b.WriteString("\r\x1b[2K")
		b.WriteString(r)
		b.WriteByte('\n')
	}
	d.rows = len(rows)
	io.WriteString(d.w, b.String())
}

// Warn prints "fb-record: warning: msg" on its own line; on a terminal
// the frame is erased first and drawn again below it.
func (d *Display) Warn(msg string) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.mode == progress.TTY && d.rows > 0 {
		fmt.Fprintf(d.w, "\x1b[%dA\r\x1b[J", d.rows)
		d.rows = 0
	}
	fmt.Fprintf(d.w, "fb-record: warning: %s\n", msg)
	if d.mode == progress.TTY && d.last != nil {
		d.redraw(*d.last)
	}
}

// Rows are the in-place display's lines: the totals, the column header,
// one row per benchmark.
func Rows(f Frame) []string {
	rows := []string{"fb-record  " + totals(f, "   "),
		fmt.Sprintf("%-*s %8s %5s %7s %10s %10s", nameWidth, "benchmark", "done", "live", "errors", "median", "p95")}
	for i, s := range f.Benches {
		if i == MaxRows {
			rows = append(rows, fmt.Sprintf("... and %d more benchmarks", len(f.Benches)-MaxRows))
			break
		}
		med, p95 := "-", "-"
		if s.HasWindow {
			med, p95 = Duration(s.Median), Duration(s.P95)
		}
		rows = append(rows, fmt.Sprintf("%s %8d %5s %7d %10s %10s", progress.Field(s.Name, nameWidth), s.Done, liveText(s), s.Errs, med, p95))
	}
	return rows
}

// liveText is the live count, or "-" while it is unknown: spans reported
// only when finished (span lines, recorder streams) say nothing of the
// ones still running.
func liveText(s Status) string {
	if !s.LiveKnown {
		return "-"
	}
	return strconv.FormatInt(s.Live, 10)
}

// totals is "elapsed 01.31 s<sep>cpu 38.4% / 0.4 cores<sep>rss 31.2 MiB".
func totals(f Frame, sep string) string {
	cpu, rss := "cpu -", "rss -"
	if f.HasUsage {
		cpu = fmt.Sprintf("cpu %.1f%% / %.1f cores", f.CPUPct, f.CPUPct/100)
		rss = "rss " + progress.Bytes(f.RSS)
	}
	return fmt.Sprintf("elapsed %05.2f s%s%s%s%s", f.Elapsed.Seconds(), sep, cpu, sep, rss)
}

// plainLine is one frame on one line, for logs.
func plainLine(f Frame) string {
	var b strings.Builder
	b.WriteString("fb-record: " + totals(f, "  "))
	for _, s := range f.Benches {
		fmt.Fprintf(&b, "  | %s done %d live %s errors %d", s.Name, s.Done, liveText(s), s.Errs)
		if s.HasWindow {
			fmt.Fprintf(&b, " median %s p95 %s", Duration(s.Median), Duration(s.P95))
		}
	}
	return b.String()
}

// Duration formats ns with a unit and four significant digits at most:
// 42.00 ns, 3.210 ms, 140.3 us, 19.01 ms.
func Duration(ns int64) string {
	v, unit := float64(ns), "ns"
	for _, u := range []string{"us", "ms", "s"} {
		if v < 1000 {
			break
		}
		v, unit = v/1000, u
	}
	switch {
	case v < 10:
		return fmt.Sprintf("%.3f %s", v, unit)
	case v < 100:
		return fmt.Sprintf("%.2f %s", v, unit)
	}
	return fmt.Sprintf("%.1f %s", v, unit)
}
