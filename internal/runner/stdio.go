package runner

import (
	"errors"
	"fmt"
	"io"
	"os"

	"golang.org/x/sys/unix"
)

// stdio is a Command's own stdin and stdout when they are not /dev/null:
// an input file read from its start by every run, and a pipe whose read
// end a goroutine drains.
type stdio struct {
	input   *os.File
	inputFD int // rewound before every run; -1 when the input is not a regular file
	drainR  *os.File
	drainW  *os.File
}

// openStdio replaces the child's stdin and stdout in files as opts ask.
func (c *Command) openStdio(files []uintptr, opts Options) ([]uintptr, error) {
	c.io.inputFD = -1
	if opts.Input != "" {
		f, err := os.Open(opts.Input)
		if err != nil {
			return nil, fmt.Errorf("input: %w", err)
		}
		c.io.input = f
		if fi, err := f.Stat(); err == nil && fi.Mode().IsRegular() {
			c.io.inputFD = int(f.Fd())
		}
		files[0] = f.Fd()
	}
	if opts.ShowOutput {
		return files, nil
	}
	switch {
	case opts.DrainStdout:
		r, w, err := os.Pipe()
		if err != nil {
			return nil, fmt.Errorf("stdout pipe: %w", err)
		}
		c.io.drainR, c.io.drainW = r, w
		files[1] = w.Fd() // Fd makes the write end blocking, as a child expects
		go drain(r)
	case opts.Stdout != nil:
		if opts.Stdout.Fd() == 1 {
			return nil, errors.New("command stdout must not go to stdout, which carries the record stream")
		}
		files[1] = opts.Stdout.Fd()
	}
	return files, nil
}

// drain reads a stdout pipe until it is closed, discarding what it reads,
// as the consumer of a pipeline would.
func drain(r *os.File) {
	buf := make([]byte, 64<<10)
	for {
		if _, err := r.Read(buf); err != nil {
			return
		}
	}
}

// rewindInput starts the next run at the beginning of the input file.
func (c *Command) rewindInput() error {
	if c.io.inputFD < 0 {
		return nil
	}
	if _, err := unix.Seek(c.io.inputFD, 0, io.SeekStart); err != nil {
		return fmt.Errorf("rewind input: %w", err)
	}
	return nil
}

// closeStdio closes the input and both ends of the drained pipe; closing
// the read end ends the draining goroutine.
func (c *Command) closeStdio() error {
	var errs []error
	for _, f := range []*os.File{c.io.input, c.io.drainW, c.io.drainR} {
		if f != nil {
			errs = append(errs, f.Close())
		}
	}
	c.io = stdio{inputFD: -1}
	return errors.Join(errs...)
}
