package runner

import (
	"bytes"
	"fmt"
	"io"
	"strings"
	"syscall"
	"unicode"

	"golang.org/x/sys/unix"
)

// TailBytes is how much of a failed run's stderr an ExitError keeps: the end.
const TailBytes = 4096

// maxLineLen bounds the stderr line quoted in an ExitError's message.
const maxLineLen = 200

// ExitError is a run that exited non-zero or died of a signal.
type ExitError struct {
	Argv []string
	// Run is the failed run's position in its batch, from 1, of Batch runs.
	Run, Batch int64
	Status     syscall.WaitStatus
	stderr     []byte
}

// Error is one line: the command, how it ended, which run, and the last
// line it wrote to stderr, such as
//
//	command "./old --x" exited with status 3 (run 7 of 10): no input
func (e *ExitError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "command %s %s", DisplayArgv(e.Argv), DescribeStatus(e.Status))
	if e.Batch > 1 {
		fmt.Fprintf(&b, " (run %d of %d)", e.Run, e.Batch)
	}
	if line := LastLine(e.stderr); line != "" {
		b.WriteString(": " + line)
	}
	return b.String()
}

// Stderr is the end of what the failed run wrote to stderr, at most
// TailBytes, for display under the error. It is empty when output was shown
// rather than captured.
func (e *ExitError) Stderr() string { return string(e.stderr) }

// ExitCode is the exit status, or -1 for a death by signal.
func (e *ExitError) ExitCode() int { return e.Status.ExitStatus() }

// DescribeStatus says how a process ended, such as "exited with status 3"
// or "was killed by signal 9 (killed)".
func DescribeStatus(ws syscall.WaitStatus) string {
	switch {
	case ws.Exited():
		return fmt.Sprintf("exited with status %d", ws.ExitStatus())
	case ws.Signaled():
		core := ""
		if ws.CoreDump() {
			core = ", core dumped"
		}
		return fmt.Sprintf("was killed by signal %d (%v%s)", int(ws.Signal()), ws.Signal(), core)
	}
	return fmt.Sprintf("ended with wait status %#x", uint32(ws))
}

// DisplayArgv shows argv as a quoted command line; a --shell command shows
// as the user wrote it.
func DisplayArgv(argv []string) string {
	if len(argv) == 3 && argv[0] == ShellPath && argv[1] == "-c" {
		return fmt.Sprintf("%q", argv[2])
	}
	return fmt.Sprintf("%q", QuoteCommand(argv))
}

// stderrTail reads the end of what the last run wrote to the capture: the
// capture was rewound before the run, so the run's output ends at the
// current offset (anything beyond is left from an earlier, longer run).
func (c *Command) stderrTail() []byte {
	if c.capture == nil {
		return nil
	}
	end, err := unix.Seek(c.captureFD, 0, io.SeekCurrent)
	if err != nil {
		return nil
	}
	return ReadTail(c.capture, end)
}

// ReadTail returns at most TailBytes of f that end at offset end, without
// a partial first line.
func ReadTail(f io.ReaderAt, end int64) []byte {
	if end <= 0 {
		return nil
	}
	start := max(end-TailBytes, 0)
	buf := make([]byte, end-start)
	n, _ := f.ReadAt(buf, start)
	buf = buf[:n]
	if start > 0 { // drop the partial first line
		if i := bytes.IndexByte(buf, '\n'); i >= 0 {
			buf = buf[i+1:]
		}
	}
	return buf
}

// LastLine is the last non-blank line of text, made Printable.
func LastLine(text []byte) string {
	lines := strings.Split(strings.TrimRightFunc(string(text), unicode.IsSpace), "\n")
	return Printable(strings.TrimSpace(lines[len(lines)-1]))
}

// Printable replaces what a terminal would interpret with spaces and clips
// the result to maxLineLen bytes, for quoting a program's words in a
// one-line error.
func Printable(s string) string {
	return Clip(strings.Map(func(r rune) rune {
		if unicode.IsPrint(r) {
			return r
		}
		return ' '
	}, strings.ToValidUTF8(s, "\uFFFD")))
}

// Clip bounds s to maxLineLen bytes, marking a cut with "...".
func Clip(s string) string {
	if len(s) > maxLineLen {
		return strings.ToValidUTF8(s[:maxLineLen], "") + "..."
	}
	return s
}
