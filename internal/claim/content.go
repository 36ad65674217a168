package claim

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"golang.org/x/sys/unix"
)

// MaxContent is the most a reader takes from a claim file; the rest is
// ignored, so a huge planted file costs nothing.
const MaxContent = 4096

// Content is the diagnostic text of a claim file: who holds it, since when,
// doing what. It is for people and status readers only: nothing is decided
// from it, and a reader accepts any garbage.
type Content struct {
	PID     int       `json:"pid,omitempty"`
	Tool    string    `json:"tool,omitempty"`
	Start   time.Time `json:"start,omitzero"`
	Scope   string    `json:"scope,omitempty"`
	CPUs    []int     `json:"cpus,omitempty"`
	Command string    `json:"command,omitempty"`
	Version int       `json:"version,omitempty"`
}

// Format renders c as the convention's key=value lines.
func (c Content) Format() []byte {
	var b bytes.Buffer
	fmt.Fprintf(&b, "pid=%d\n", c.PID)
	fmt.Fprintf(&b, "tool=%s\n", escapeControl(c.Tool))
	fmt.Fprintf(&b, "start=%s\n", c.Start.UTC().Format(time.RFC3339))
	fmt.Fprintf(&b, "scope=%s\n", escapeControl(c.Scope))
	fmt.Fprintf(&b, "cpus=%s\n", FormatCPUs(c.CPUs))
	fmt.Fprintf(&b, "command=%s\n", escapeControl(c.Command))
	fmt.Fprintf(&b, "version=%d\n", Version)
	return b.Bytes()
}

// ParseContent reads whatever is in a claim file. It never fails: lines
// that are not key=value, unknown keys and unparsable values are ignored,
// text values are cut to a sane length and have control characters escaped.
func ParseContent(data []byte) Content {
	if len(data) > MaxContent {
		data = data[:MaxContent]
	}
	var c Content
	for line := range strings.SplitSeq(string(data), "\n") {
		key, value, ok := strings.Cut(line, "=")
		if !ok {
			continue
		}
		switch key {
		case "pid":
			c.PID = positive(value)
		case "tool":
			c.Tool = escapeControl(clip(value, 256))
		case "start":
			c.Start, _ = time.Parse(time.RFC3339, value)
		case "scope":
			c.Scope = escapeControl(clip(value, 32))
		case "cpus":
			c.CPUs, _ = ParseCPUList(value)
		case "command":
			c.Command = escapeControl(clip(value, 1024))
		case "version":
			c.Version = positive(value)
		}
	}
	return c
}

func positive(s string) int {
	n, err := strconv.Atoi(s)
	if err != nil || n < 0 {
		return 0
	}
	return n
}

func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "..."
}

// Describe is the content in one line, for progress and the lock record:
// "pid 1234 fb-pair (cpus 2,3, since 2025-01-02T03:04:05Z): fb-pair -- a b".
func (c Content) Describe() string {
	var parts []string
	if c.Scope == ScopeCPUs && len(c.CPUs) > 0 {
		parts = append(parts, "cpus "+FormatCPUs(c.CPUs))
	} else if c.Scope != "" {
		parts = append(parts, c.Scope)
	}
	if !c.Start.IsZero() {
		parts = append(parts, "since "+c.Start.UTC().Format(time.RFC3339))
	}
	s := "pid " + strconv.Itoa(c.PID)
	if c.Tool != "" {
		s += " " + c.Tool
	}
	if len(parts) > 0 {
		s += " (" + strings.Join(parts, ", ") + ")"
	}
	if c.Command != "" {
		s += ": " + c.Command
	}
	return s
}

// readContent reads the start of a claim file through fd without locking.
func readContent(fd int) Content {
	buf := make([]byte, MaxContent)
	n, err := unix.Pread(fd, buf, 0)
	if err != nil || n <= 0 {
		return Content{}
	}
	return ParseContent(buf[:n])
}

// writeContent replaces a held file's content with one write.
func writeContent(f file, c Content) error {
	if !f.writable {
		return nil
	}
	if err := unix.Ftruncate(f.fd, 0); err != nil {
		return err
	}
	_, err := unix.Pwrite(f.fd, c.Format(), 0)
	return err
}

func needsEscape(s string) bool {
	return !utf8.ValidString(s) || strings.ContainsFunc(s, isControl)
}

func isControl(r rune) bool { return r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0) }

// escapeControl replaces control characters and invalid UTF-8 by \xHH, so
// a value stays on its line and cannot drive a terminal.
func escapeControl(s string) string {
	if !needsEscape(s) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		if (r == utf8.RuneError && size == 1) || isControl(r) {
			for _, c := range []byte(s[i : i+size]) {
				fmt.Fprintf(&b, `\x%02x`, c)
			}
		} else {
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	return b.String()
}
