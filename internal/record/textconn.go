package record

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
)

// MaxOpen bounds the spans a connection has begun and not ended.
const MaxOpen = 1 << 16

// ConnError is a connection's fault: the line (0 when none) and what was
// wrong.
type ConnError struct {
	Conn string
	Line int
	Err  error
}

func (e *ConnError) Error() string {
	if e.Line == 0 {
		return fmt.Sprintf("%s: %v", e.Conn, e.Err)
	}
	return fmt.Sprintf("%s:%d: %v", e.Conn, e.Line, e.Err)
}

func (e *ConnError) Unwrap() error { return e.Err }

// openSpan is a span begun on a connection.
type openSpan struct {
	b     *Bench
	start int64
}

// textConn is one span-protocol connection, or the one stream of a FIFO
// every writer shares.
type textConn struct {
	rec    *Recording
	name   string
	fifo   bool
	line   int
	header bool
	names  map[string]*Bench
	open   map[string]openSpan
}

// serveText reads protocol lines from rd until it ends. On a socket the
// first line must be the header and the first fault ends the
// connection's recording with a *ConnError, passed to skip (when not
// nil) at once: the rest is read, its spans counted as discarded, and
// the fault returned. On a FIFO (shared by writers that come and go) the
// header is optional and may repeat, and a faulty line is passed to skip
// and ignored. Spans still open at the end are counted
// unfinished.
func (r *Recording) serveText(name string, rd *bufio.Reader, fifo bool, skip func(error)) error {
	c := &textConn{rec: r, name: name, fifo: fifo, names: map[string]*Bench{}, open: map[string]openSpan{}}
	defer c.abandonOpen()
	for {
		line, err := rd.ReadSlice('\n')
		if len(line) > 0 && line[len(line)-1] == '\n' {
			c.line++
			if ferr := c.handle(line); ferr != nil {
				if !fifo {
					return c.discard(rd, ferr, skip)
				}
				skip(ferr)
			}
			continue
		}
		switch {
		case errors.Is(err, bufio.ErrBufferFull):
			c.line++
			ferr := c.fault(fmt.Errorf("line longer than %d bytes", MaxLine))
			if !fifo {
				discardLine(rd)
				return c.discard(rd, ferr, skip)
			}
			skip(ferr)
			if err = discardLine(rd); err == nil {
				continue
			}
		case err == io.EOF && len(line) > 0:
			c.line++
			return c.fault(errors.New("the last line has no newline"))
		}
		return endOfInput(err)
	}
}

// discard passes the connection's fault ferr to report (when not nil),
// reads the rest of the connection and counts the spans it finishes as
// discarded: span lines, and end lines (a span begun before the fault and
// ended after it is discarded, not unfinished). It returns ferr.
func (c *textConn) discard(rd *bufio.Reader, ferr error, report func(error)) error {
	if report != nil {
		report(ferr)
	}
	for {
		line, err := rd.ReadSlice('\n')
		if len(line) > 0 && line[len(line)-1] == '\n' {
			c.skipped(line[:len(line)-1])
			continue
		}
		if errors.Is(err, bufio.ErrBufferFull) && discardLine(rd) == nil {
			continue
		}
		return ferr
	}
}

// skipped counts one line read after the connection's fault.
func (c *textConn) skipped(line []byte) {
	m, err := Parse(line)
	if err != nil {
		return
	}
	switch m.Kind {
	case KindSpan:
		c.rec.discarded.Add(1)
	case KindEnd:
		if o, ok := c.open[string(m.ID)]; ok {
			delete(c.open, string(m.ID))
			o.b.live.Add(-1)
			c.rec.open.Add(-1)
		}
		c.rec.discarded.Add(1)
	}
}

// handle applies one line, newline included.
func (c *textConn) handle(line []byte) error {
	if len(line) > MaxLine {
		return c.fault(fmt.Errorf("line longer than %d bytes", MaxLine))
	}
	m, err := Parse(line[:len(line)-1])
	if err != nil {
		return c.fault(err)
	}
	if m.Kind == KindHeader {
		if c.header && !c.fifo {
			return c.fault(errors.New("the header is repeated"))
		}
		c.header = true
		return nil
	}
	if !c.header && !c.fifo {
		return c.fault(fmt.Errorf("the first line must be %q", Header))
	}
	if err := c.apply(m); err != nil {
		return c.fault(err)
	}
	return nil
}

// apply applies a parsed message other than the header.
func (c *textConn) apply(m Msg) error {
	switch m.Kind {
	case KindSpan:
		b, err := c.bench(m.Name)
		if err != nil {
			return err
		}
		now := c.rec.Now()
		b.finish(Row{StartNS: now - m.WallNS, WallNS: m.WallNS, Outcome: m.Outcome})
	case KindBegin:
		return c.begin(m)
	case KindEnd:
		return c.end(m)
	case KindBenchmark:
		_, err := c.bench(m.Name)
		return err
	}
	return nil
}

func (c *textConn) begin(m Msg) error {
	if _, dup := c.open[string(m.ID)]; dup {
		return fmt.Errorf("span id %q is already open on this connection", m.ID)
	}
	if len(c.open) == MaxOpen {
		return fmt.Errorf("more than %d spans open on one connection", MaxOpen)
	}
	if c.rec.open.Load() >= c.rec.limits.Open {
		return fmt.Errorf("more than %d spans open on all connections", c.rec.limits.Open)
	}
	b, err := c.bench(m.Name)
	if err != nil {
		return err
	}
	b.live.Add(1)
	b.begins.Store(true)
	c.rec.open.Add(1)
	c.open[string(m.ID)] = openSpan{b: b, start: c.rec.Now()}
	return nil
}

func (c *textConn) end(m Msg) error {
	now := c.rec.Now()
	o, ok := c.open[string(m.ID)]
	if !ok {
		return fmt.Errorf("span id %q is not open on this connection", m.ID)
	}
	delete(c.open, string(m.ID))
	o.b.live.Add(-1)
	c.rec.open.Add(-1)
	o.b.finish(Row{StartNS: o.start, WallNS: now - o.start, Outcome: m.Outcome})
	return nil
}

// bench is the benchmark called name, cached per connection.
func (c *textConn) bench(name []byte) (*Bench, error) {
	if b := c.names[string(name)]; b != nil {
		return b, nil
	}
	b, err := c.rec.Bench(name)
	if err != nil {
		return nil, err
	}
	c.names[b.Name] = b
	return b, nil
}

func (c *textConn) fault(err error) error {
	c.rec.protocolErrors.Add(1)
	return &ConnError{Conn: c.name, Line: c.line, Err: err}
}

// abandonOpen counts the spans still open as unfinished.
func (c *textConn) abandonOpen() {
	for id, o := range c.open {
		o.b.abandon(1)
		c.rec.open.Add(-1)
		delete(c.open, id)
	}
}

// discardLine skips the rest of an over-long line.
func discardLine(rd *bufio.Reader) error {
	for {
		_, err := rd.ReadSlice('\n')
		if !errors.Is(err, bufio.ErrBufferFull) {
			return err
		}
	}
}

// endOfInput is nil for the ways input ends normally: EOF, a closed
// connection, the drain deadline.
func endOfInput(err error) error {
	if err == nil || err == io.EOF || errors.Is(err, net.ErrClosed) || errors.Is(err, os.ErrDeadlineExceeded) || errors.Is(err, os.ErrClosed) {
		return nil
	}
	return err
}
