package ndjson

import (
	"bytes"
	"fmt"
	"io"
	"sync"

	json "github.com/goccy/go-json"
)

// Writer writes records as whole lines. Each record reaches the underlying
// writer in a single Write call, so a producer killed at any moment leaves
// only complete lines behind it.
type Writer struct {
	mu  sync.Mutex
	w   io.Writer
	buf bytes.Buffer
}

// NewWriter returns a Writer on w. It does no buffering of its own.
func NewWriter(w io.Writer) *Writer { return &Writer{w: w} }

// Write stamps r with its type and the schema version and writes it as one line.
func (w *Writer) Write(r Record) error {
	h := r.header()
	h.Type, h.V = r.Kind(), Version
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
	if _, err := w.w.Write(b); err != nil {
		return fmt.Errorf("write record: %w", err)
	}
	return nil
}
