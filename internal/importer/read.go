package importer

import (
	"fmt"
	"io"
	"os"
	"time"
)

// MaxBytes bounds a results file read into memory.
const MaxBytes = 256 << 20

// Read reads a results file whole, stdin for "-" (named "stdin"), and
// returns it with its modification time in UTC as RFC 3339 (empty for
// stdin): the nearest thing to a start time a results file records. A
// file larger than MaxBytes is an *InputError; one that cannot be
// opened or read is any other error.
func Read(file string, stdin io.Reader) (f File, modified string, err error) {
	in, name := stdin, "stdin"
	if file != "-" {
		fd, err := os.Open(file)
		if err != nil {
			return File{}, "", fmt.Errorf("open input: %w", err)
		}
		defer fd.Close()
		if st, err := fd.Stat(); err == nil {
			modified = st.ModTime().UTC().Format(time.RFC3339)
		}
		in, name = fd, file
	}
	data, err := io.ReadAll(io.LimitReader(in, MaxBytes+1))
	if err != nil {
		return File{}, "", fmt.Errorf("read %s: %w", name, err)
	}
	if len(data) > MaxBytes {
		return File{}, "", &InputError{File: name, Msg: "larger than 256 MiB: not a results file"}
	}
	return File{Name: name, Data: data}, modified, nil
}
