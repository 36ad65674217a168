// Package progress shows a measuring tool's progress on stderr: one line
// redrawn in place on a terminal, a plain line per phase otherwise, or
// nothing. It is called only outside timed regions.
package progress

import (
	"fmt"
	"io"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/flybench/flybench/internal/collect"
	"github.com/flybench/flybench/internal/field"
)

// Mode selects how progress is shown.
type Mode int

const (
	None  Mode = iota // nothing
	Plain             // one line per phase change, for logs
	TTY               // one line redrawn in place
)

// ParseMode reads a progress mode; "auto" picks TTY on a terminal and
// Plain elsewhere.
func ParseMode(s string, terminal bool) (Mode, error) {
	switch s {
	case "auto", "":
		if terminal {
			return TTY, nil
		}
		return Plain, nil
	case "tty":
		return TTY, nil
	case "plain":
		return Plain, nil
	case "none":
		return None, nil
	}
	return None, field.Errorf(FieldMode, s, "%s %q: use auto, tty, plain or none", field.Name(FieldMode), s)
}

// FieldMode is the progress mode as ParseMode's field error names it.
const FieldMode = "progress.Mode"

// CaseWidth is the fixed width of the case-name field.
const CaseWidth = 16

// redraw is the shortest interval between two in-place redraws.
const redraw = 100 * time.Millisecond

// Display renders collect.Status updates.
type Display struct {
	w      io.Writer
	mode   Mode
	tool   string
	phase  string
	drawn  bool
	last   time.Time
	now    func() time.Time
	status collect.Status
}

// New returns a Display writing to w.
func New(w io.Writer, mode Mode, tool string) *Display {
	return &Display{w: w, mode: mode, tool: tool, now: time.Now}
}

// Update shows s. In TTY mode redraws are rate-limited, except that a phase
// change always shows.
func (d *Display) Update(s collect.Status) {
	changed := s.Phase != d.phase
	d.phase, d.status = s.Phase, s
	switch d.mode {
	case Plain:
		if changed {
			fmt.Fprintln(d.w, d.plainLine(s))
			d.note(s)
		}
	case TTY:
		now := d.now()
		if changed && s.Note != "" {
			fmt.Fprint(d.w, "\r\x1b[2K")
			d.drawn = false
			d.note(s)
		}
		if changed || now.Sub(d.last) >= redraw || s.Phase == collect.PhaseFinished {
			d.last = now
			fmt.Fprint(d.w, "\r\x1b[2K"+d.ttyLine(s))
			d.drawn = true
		}
	}
}

// Close ends the in-place line so later messages start on a fresh line.
func (d *Display) Close() {
	if d.mode == TTY && d.drawn {
		fmt.Fprintln(d.w)
		d.drawn = false
	}
}

// note writes the status's note on a line of its own.
func (d *Display) note(s collect.Status) {
	if s.Note != "" {
		fmt.Fprintf(d.w, "%s: note: %s\n", d.tool, s.Note)
	}
}

func (d *Display) plainLine(s collect.Status) string {
	line := fmt.Sprintf("%s: %s", d.tool, s.Phase)
	if s.Phase == collect.PhaseSampling || s.Phase == collect.PhaseFinished {
		line += fmt.Sprintf(" %d units", s.Total)
	}
	if s.Phase == collect.PhaseSampling && s.ETA > 0 {
		line += fmt.Sprintf(", about %s", Clock(s.ETA))
	}
	if s.Phase == collect.PhaseFinished {
		line += fmt.Sprintf(", %d done in %s", s.Done, Clock(s.Elapsed))
	}
	return line
}

// ttyLine is "tool  phase        case-name-field   done/total  hh:mm:ss  ETA hh:mm:ss".
func (d *Display) ttyLine(s collect.Status) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s  %-11s  %s", d.tool, s.Phase, Field(s.Case, CaseWidth))
	if s.Total > 0 {
		w := len(fmt.Sprint(s.Total))
		fmt.Fprintf(&b, "  %*d/%d", w, s.Done, s.Total)
	}
	fmt.Fprintf(&b, "  %s", Clock(s.Elapsed))
	if s.ETA > 0 {
		fmt.Fprintf(&b, "  ETA %s", Clock(s.ETA))
	}
	if t := s.Tele; t != nil {
		fmt.Fprintf(&b, "  cpu %.0f%% (%.2f cores)  rss %s", t.CPUPct, t.CPUPct/100, Bytes(t.RSSBytes))
	}
	return b.String()
}

// Bytes formats a byte count with a binary unit.
func Bytes(n int64) string {
	const unit = 1024
	if n < unit {
		return fmt.Sprintf("%d B", n)
	}
	v, suffix := float64(n), []string{"KiB", "MiB", "GiB", "TiB"}
	i := -1
	for v >= unit && i < len(suffix)-1 {
		v /= unit
		i++
	}
	return fmt.Sprintf("%.1f %s", v, suffix[i])
}

// Field fits s into exactly width columns: padded, or cut with an ellipsis.
func Field(s string, width int) string {
	n := utf8.RuneCountInString(s)
	if n <= width {
		return s + strings.Repeat(" ", width-n)
	}
	r := []rune(s)
	return string(r[:width-1]) + "…"
}

// Clock formats d as hh:mm:ss.
func Clock(d time.Duration) string {
	s := int64(d.Round(time.Second) / time.Second)
	return fmt.Sprintf("%02d:%02d:%02d", s/3600, s/60%60, s%60)
}
