package hostload

import (
	"bytes"
	"fmt"
	"os"

	"github.com/flybench/flybench/internal/platform"
)

// Reader takes snapshots of the host's CPU counters.
type Reader interface {
	Read() (Snapshot, error)
}

// ProcStat reads the kernel's counters. The zero value reads /proc/stat.
type ProcStat struct {
	// Path replaces /proc/stat, for a captured file.
	Path string
}

// Read opens, parses and closes the file; nothing stays open between reads.
// Where there is no /proc/stat (any platform but Linux) the zero value's
// error is an unsupported_platform *platform.Error.
func (p ProcStat) Read() (Snapshot, error) {
	path := p.Path
	if path == "" {
		path = "/proc/stat"
		if err := platform.Check(path); err != nil {
			return Snapshot{}, err
		}
	}
	f, err := os.Open(path)
	if err != nil {
		return Snapshot{}, err
	}
	defer f.Close()
	s, err := Read(f)
	if err != nil {
		return Snapshot{}, fmt.Errorf("read %q: %w", path, err)
	}
	return s, nil
}

// Replay returns prepared /proc/stat texts in order, for tests and
// recorded runs. Reading past the last text is an error.
type Replay struct {
	texts []string
	next  int
}

// NewReplay returns a Replay of texts.
func NewReplay(texts ...string) *Replay {
	return &Replay{texts: texts}
}

// Read parses the next text.
func (r *Replay) Read() (Snapshot, error) {
	if r.next >= len(r.texts) {
		return Snapshot{}, fmt.Errorf("replay: all %d snapshots read", len(r.texts))
	}
	r.next++
	s, err := Read(bytes.NewReader([]byte(r.texts[r.next-1])))
	if err != nil {
		return Snapshot{}, fmt.Errorf("replay snapshot %d: %w", r.next, err)
	}
	return s, nil
}

// ReaderFunc adapts a function to Reader, for snapshots computed on demand.
type ReaderFunc func() (Snapshot, error)

// Read calls f.
func (f ReaderFunc) Read() (Snapshot, error) { return f() }
