package ndjson

import (
	"bytes"
	"fmt"
	"io"
	"sync"
	"time"

	json "github.com/goccy/go-json"
)

// Writer writes records as whole lines. Every call to the underlying writer
// carries only complete lines, so a producer killed at any moment leaves
// only complete lines behind it.
type Writer struct {
	// Version is stamped on every record Write writes; NewWriter sets it
	// to the current schema version.
	Version string
	mu      sync.Mutex
	w       io.Writer
	buf     bytes.Buffer
	// Buffered writers collect lines in out and pass them on in whole-line
	// chunks of about limit bytes, or when a line waited longer than every.
	out   []byte
	limit int
	every time.Duration
	first time.Time
}

// NewWriter returns a Writer that passes each record on at once.
func NewWriter(w io.Writer) *Writer { return &Writer{w: w, Version: Version} }

// NewBufferedWriter returns a Writer that collects lines up to about size
// bytes, or for at most every, before passing them on; Flush passes on the
// rest. It is for high-volume stages such as fb-analyze.
func NewBufferedWriter(w io.Writer, size int, every time.Duration) *Writer {
	return &Writer{w: w, Version: Version, limit: size, every: every, out: make([]byte, 0, size+4096)}
}

// Flush passes on every collected line.
func (w *Writer) Flush() error {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.flush()
}

func (w *Writer) flush() error {
	if len(w.out) == 0 {
		return nil
	}
	_, err := w.w.Write(w.out)
	w.out = w.out[:0]
	if err != nil {
		return fmt.Errorf("write records: %w", err)
	}
	return nil
}

// Write stamps r with its type and the schema version and writes it as one line.
func (w *Writer) Write(r Record) error {
	h := r.header()
	h.Type, h.V = r.Kind(), w.Version
	w.mu.Lock()
	defer w.mu.Unlock()
	w.buf.Reset()
	enc := json.NewEncoder(&w.buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(r); err != nil {
		return fmt.Errorf("encode %s record: %w", h.Type, err)
	}
	return w.writeLine(w.buf.Bytes())
}

// WriteRaw writes a line received from a Reader unchanged (a newline is added).
func (w *Writer) WriteRaw(line []byte) error {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.buf.Reset()
	w.buf.Write(line)
	w.buf.WriteByte('\n')
	return w.writeLine(w.buf.Bytes())
}

func (w *Writer) writeLine(b []byte) error {
	if w.limit == 0 {
		if _, err := w.w.Write(b); err != nil {
			return fmt.Errorf("write record: %w", err)
		}
		return nil
	}
	if len(w.out) == 0 {
		w.first = time.Now()
	}
	w.out = append(w.out, b...)
	if len(w.out) >= w.limit || time.Since(w.first) >= w.every {
		return w.flush()
	}
	return nil
}
