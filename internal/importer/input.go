package importer

import (
	"bytes"
	"fmt"
)

// InputError is a file that cannot be imported: where (Line 0 when the
// fault is the document as a whole) and what is wrong.
type InputError struct {
	File string
	Line int
	Msg  string
}

func (e *InputError) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("%s:%d: %s", e.File, e.Line, e.Msg)
	}
	return fmt.Sprintf("%s: %s", e.File, e.Msg)
}

// lineOfOffset is the 1-based line holding byte off of data; the end of
// a file that ends with a newline is on its last line.
func lineOfOffset(data []byte, off int64) int {
	off = min(max(off, 0), int64(len(data)))
	if off == int64(len(data)) && off > 0 && data[off-1] == '\n' {
		off--
	}
	return 1 + bytes.Count(data[:off], []byte{'\n'})
}
