package record

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"sync"
	"time"

	"golang.org/x/sys/unix"
)

// MaxConns bounds the connections served at once; more are refused.
const MaxConns = 1024

// acceptGrace is how long Close goes on accepting connections already
// waiting in the listen backlog.
const acceptGrace = 100 * time.Millisecond

// readBuffer is each connection's read buffer.
const readBuffer = 64 << 10

// deadliner is a connection or FIFO whose reads can be cut short.
type deadliner interface {
	SetReadDeadline(time.Time) error
	Close() error
}

// Server receives spans for a recording on a Unix stream socket or a
// FIFO. Faults of a connection are passed to Warn as one line each, the
// first Limits.Warnings of them, and the rest summed up at Close; the
// recording goes on.
type Server struct {
	rec  *Recording
	warn func(string)
	lim  *warnLimiter
	path string

	ln *net.UnixListener
	// accepted is closed when the accept loop has ended.
	accepted chan struct{}
	wg       sync.WaitGroup
	mu       sync.Mutex
	live     map[int]deadliner
	seq      int
	done     bool
}

// ListenSocket listens on a new Unix stream socket at path.
// A socket file nobody listens on (left by a fb-record killed with
// SIGKILL) is replaced, with a warning; one somebody listens on, or a
// file that is not a socket, is an *EndpointError.
func ListenSocket(rec *Recording, path string, warn func(string)) (*Server, error) {
	ln, err := listenUnix(path, warn)
	if err != nil {
		return nil, err
	}
	ln.SetUnlinkOnClose(true)
	lim := &warnLimiter{warn: warn, max: rec.limits.Warnings}
	s := &Server{rec: rec, warn: lim.add, lim: lim, path: path, ln: ln, live: map[int]deadliner{}, accepted: make(chan struct{})}
	s.wg.Add(1)
	go s.accept()
	return s, nil
}

// ListenFIFO makes a FIFO at path (mode 0600; path must not exist) and
// reads it. It is opened for reading and writing, so it never reports
// end of file while writers come and go.
func ListenFIFO(rec *Recording, path string, warn func(string)) (*Server, error) {
	if err := unix.Mkfifo(path, 0o600); err != nil {
		return nil, fmt.Errorf("make FIFO %q: %w", path, err)
	}
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		os.Remove(path)
		return nil, fmt.Errorf("open FIFO %q: %w", path, err)
	}
	lim := &warnLimiter{warn: warn, max: rec.limits.Warnings}
	s := &Server{rec: rec, warn: lim.add, lim: lim, path: path, live: map[int]deadliner{0: f}}
	s.wg.Add(1)
	go func() {
		defer s.wg.Done()
		skip := func(err error) { s.warn(fmt.Sprintf("%v; line skipped", err)) }
		err := rec.serveText("fifo "+path, bufio.NewReaderSize(f, readBuffer), true, skip)
		if err != nil {
			s.warn(fmt.Sprintf("fifo %s: %v", path, err))
		}
	}()
	return s, nil
}

// Path is where the server listens.
func (s *Server) Path() string { return s.path }

func (s *Server) accept() {
	defer s.wg.Done()
	defer close(s.accepted)
	for {
		conn, err := s.ln.AcceptUnix()
		if err != nil {
			if !errors.Is(err, net.ErrClosed) && !errors.Is(err, os.ErrDeadlineExceeded) {
				s.warn(fmt.Sprintf("accept: %v; no more connections are taken", err))
			}
			return
		}
		id, ok := s.admit(conn)
		if !ok {
			s.rec.refused.Add(1)
			s.warn(fmt.Sprintf("%s refused: %d connections are open already", connName(id, conn), s.rec.limits.Conns))
			conn.Close()
			continue
		}
		go s.serve(id, conn)
	}
}

// admit registers conn unless the server is full or closing.
func (s *Server) admit(conn *net.UnixConn) (int, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.seq++
	if len(s.live) >= s.rec.limits.Conns || s.done {
		return s.seq, false
	}
	s.live[s.seq] = conn
	s.wg.Add(1)
	return s.seq, true
}

func (s *Server) serve(id int, conn *net.UnixConn) {
	defer s.wg.Done()
	defer func() {
		s.mu.Lock()
		delete(s.live, id)
		s.mu.Unlock()
		conn.Close()
	}()
	name := connName(id, conn)
	s.rec.serveConnReport(name, conn, func(err error) {
		s.warn(fmt.Sprintf("%v; the rest of the connection is read and its spans counted as discarded, the recording goes on", err))
	})
}

// serveConn tells a recorder stream (first byte '{') from protocol lines.
func (r *Recording) serveConn(name string, conn io.Reader) error {
	return r.serveConnReport(name, conn, nil)
}

// serveConnReport is serveConn passing the connection's fault, when it
// has one, to report (if not nil) as it happens, before the rest of the
// connection is read; it returns the fault when the connection ends.
func (r *Recording) serveConnReport(name string, conn io.Reader, report func(error)) error {
	br := bufio.NewReaderSize(conn, readBuffer)
	first, err := br.Peek(1)
	if err != nil {
		return endOfInput(err)
	}
	if first[0] == '{' {
		return r.serveRecorder(name, br, report)
	}
	return r.serveText(name, br, false, report)
}

// Close stops taking connections, lets every open one deliver what it
// sends within drain, then cuts the rest off (their open spans count as
// unfinished), and removes the socket or FIFO.
func (s *Server) Close(drain time.Duration) {
	if s.ln != nil {
		// A program that connected and wrote just before it ended may
		// still wait in the listen backlog: take those connections first.
		s.ln.SetDeadline(time.Now().Add(min(drain, acceptGrace)))
		<-s.accepted
	}
	s.mu.Lock()
	s.done = true
	if s.ln != nil {
		s.ln.Close()
	}
	deadline := time.Now().Add(drain)
	for _, c := range s.live {
		c.SetReadDeadline(deadline)
	}
	s.mu.Unlock()
	s.wg.Wait()
	if s.ln == nil {
		s.live[0].Close()
		os.Remove(s.path)
	}
	s.lim.close()
}
