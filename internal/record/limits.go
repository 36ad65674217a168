package record

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"sync"

	"github.com/flybench/flybench/pkg/ndjson"
)

// Limits bound what a recording holds for the connections that feed it,
// so that no client, however many connections it opens or whatever it
// sends, makes fb-record grow without bound (fb-record(1), LIMITS).
type Limits struct {
	// Conns is the number of connections served at once; more are
	// refused and counted.
	Conns int
	// Line is the longest line of a recorder stream, newline included.
	Line int64
	// Pending is how many bytes of unfinished recorder-stream lines all
	// connections may hold together; a connection that would go over it
	// is shed (its recording stops, and it is counted).
	Pending int64
	// Open is the number of spans begun and not ended on all connections
	// together (each connection also has at most MaxOpen).
	Open int64
	// Warnings is the number of connection warnings written in full; the
	// rest are counted, and summed up when the recording ends.
	Warnings int
}

// DefaultLimits are fb-record's limits.
var DefaultLimits = Limits{Conns: MaxConns, Line: 1 << 20, Pending: 32 << 20, Open: 1 << 18, Warnings: 10}

// MaxText bounds a free text a recorder stream sends that fb-record
// keeps until the end: an axis's reason, in its declaration or a span's
// value; a longer one is clipped.
const MaxText = 256

// LimitError is a recorder-stream connection stopped by a limit: a line
// too long, or the memory budget of all connections spent (Shed).
type LimitError struct {
	Msg  string
	Shed bool
}

func (e *LimitError) Error() string { return e.Msg }

// lineMeter passes a recorder stream's bytes to its reader, counting the
// bytes since the last newline: the unfinished line the reader holds.
// It refuses a line longer than the limit, and charges the unfinished
// line to the recording's budget, refusing to go over it.
type lineMeter struct {
	r       io.Reader
	rec     *Recording
	pending int64 // bytes read since the last newline
	charged int64 // the part of pending charged to rec.pending
	// err is the limit the stream went over. The reader above takes any
	// read error as the end of its input and reports the line it holds
	// as torn first, so the stream's fault is err when it is set.
	err *LimitError
	// head is the start of the unfinished line, enough to tell a span
	// record that goes over a limit.
	head []byte
}

// spanHead is how a span record of a recorder stream begins.
var spanHead = []byte(`{"type":"span"`)

// keepHead keeps the first bytes of the line that b, the latest bytes
// read, leaves unfinished.
func (m *lineMeter) keepHead(b []byte) {
	if i := bytes.LastIndexByte(b, '\n'); i >= 0 {
		m.head, b = m.head[:0], b[i+1:]
	}
	if room := len(spanHead) - len(m.head); room > 0 {
		m.head = append(m.head, b[:min(room, len(b))]...)
	}
}

// cutSpan reports whether the line a limit cut is a span record.
func (m *lineMeter) cutSpan() bool { return bytes.Equal(m.head, spanHead) }

func (m *lineMeter) Read(p []byte) (int, error) {
	n, err := m.r.Read(p)
	m.keepHead(p[:n])
	if i := bytes.LastIndexByte(p[:n], '\n'); i >= 0 {
		m.pending = int64(n - 1 - i)
	} else {
		m.pending += int64(n)
	}
	l := m.rec.limits
	if m.pending > l.Line {
		m.release()
		m.err = &LimitError{Msg: fmt.Sprintf("a line longer than %s: a recorder stream's records are shorter", size(l.Line))}
		return n, m.err
	}
	d := m.pending - m.charged
	if d > 0 && m.rec.pending.Add(d) > l.Pending {
		m.rec.pending.Add(-d)
		m.release()
		m.err = &LimitError{Shed: true, Msg: fmt.Sprintf("fb-record holds %s of unfinished lines from all connections, its budget: this connection is no longer recorded", size(l.Pending))}
		return n, m.err
	}
	if d < 0 {
		m.rec.pending.Add(d)
	}
	m.charged = m.pending
	return n, err
}

// release gives back what the meter charged.
func (m *lineMeter) release() {
	m.rec.pending.Add(-m.charged)
	m.charged = 0
}

// size writes a byte count in KiB or MiB.
func size(n int64) string {
	if n >= 1<<20 && n%(1<<20) == 0 {
		return fmt.Sprintf("%d MiB", n>>20)
	}
	return fmt.Sprintf("%d KiB", n>>10)
}

// discardRecorder reads what follows a fault of a recorder stream and
// counts its span records as discarded. It goes on with rd, so no
// complete record it has buffered is missed, until rd stops for good (a
// line over the limit, a read error); then it reads the raw bytes from
// br with a fixed buffer.
func (r *Recording) discardRecorder(rd *ndjson.Reader, br *bufio.Reader, m *lineMeter) {
	for {
		l, err := rd.Next()
		var se *ndjson.SyntaxError
		var ve *ndjson.VersionError
		switch {
		case err != nil && m.err != nil:
			r.discardCut(br, m)
			return
		case err == nil:
			if l.Type == ndjson.TypeSpan {
				r.discarded.Add(1)
			}
		case errors.Is(err, io.EOF) || endOfInput(err) == nil:
			return
		case errors.As(err, &se) || errors.As(err, &ve):
		default:
			return
		}
	}
}

// discardCut counts the line a limit cut when it is a span record, and
// the span records after it.
func (r *Recording) discardCut(br *bufio.Reader, m *lineMeter) {
	m.release()
	if m.cutSpan() {
		r.discarded.Add(1)
	}
	r.discardRaw(br)
}

// discardRaw counts the span records among the lines left in br, with no
// buffer beyond br's own; the rest of a line cut by a limit is not one.
func (r *Recording) discardRaw(br *bufio.Reader) {
	start := false
	for {
		line, err := br.ReadSlice('\n')
		if start && bytes.HasPrefix(line, []byte(`{"type":"span"`)) {
			r.discarded.Add(1)
		}
		switch {
		case err == nil:
			start = true
		case errors.Is(err, bufio.ErrBufferFull):
			start = false
		default:
			return
		}
	}
}

// warnLimiter writes the first warnings in full and counts the rest.
type warnLimiter struct {
	warn func(string)
	max  int
	mu   sync.Mutex
	// shown and hidden count the warnings written and those only counted.
	shown, hidden int
}

func (w *warnLimiter) add(s string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.shown >= w.max {
		w.hidden++
		return
	}
	w.warn(s)
	w.shown++
	if w.shown == w.max {
		w.warn(fmt.Sprintf("%d connection warnings: further connection warnings are counted, not shown", w.max))
	}
}

// close sums up the warnings not shown.
func (w *warnLimiter) close() {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.hidden > 0 {
		w.warn(fmt.Sprintf("%d more connection warnings not shown; recording_end counts their faults (protocol_errors, refused_connections, shed_connections, discarded_spans, dropped_axes)", w.hidden))
	}
}
